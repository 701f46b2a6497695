import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { HttpError } from '../../http/errors';
import type { Resource } from '../resource/defineResource';
import type { Format, FormatContext } from './Format';
import { flatten, fromTextValues, unflatten } from './textValues';

/** CSV's media type (RFC 4180). */
export const CSV_TYPE = 'text/csv';

/**
 * The first characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection",
 * and csv-stringify's `escape_formulas`: the ASCII ones and their full-width forms).
 */
const FORMULA = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * A text cell that a spreadsheet would run as a formula (`=HYPERLINK(…)`, `+1`, `@SUM(…)`), with a
 * leading `'`, which spreadsheets read as "this is text". Texts already starting with quotes before
 * such a character get one more, so that {@link unescapeFormula} gives back exactly what was
 * stored: a text round-trips, whatever it is. Numbers are written as numbers (`-5` is no formula).
 */
export function escapeFormula(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/** The text {@link escapeFormula} escaped (one leading `'` off a quoted formula), else the cell as it is. */
export function unescapeFormula(cell: string): string {
  return cell.startsWith('\'') && FORMULA.test(cell) ? cell.slice(1) : cell;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return escapeFormula(value);
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/**
 * The columns: `id`, then each readable property some row has, a `json` one as the columns its
 * values flatten to.
 */
function headersOf(resource: Resource, rows: readonly Record<string, unknown>[]): string[] {
  const names = ['id', ...resource.metadata.properties.filter((p) => !p.writeOnly).map((p) => p.name)];
  const out: string[] = [];
  for (const name of names) {
    const nested = new Set<string>();
    for (const row of rows) for (const key of Object.keys(row)) if (key.startsWith(`${name}.`)) nested.add(key);
    if (nested.size > 0) out.push(...nested);
    // a property no row has (its `security` denied it on every item) has no column, as symfony
    // writes the keys of the rows; an empty page has every column
    else if (rows.length === 0 || rows.some((row) => name in row)) out.push(name);
  }
  return out;
}

/** Items as CSV text: the header row, then one row an item (symfony's CsvEncoder layout). */
function csvOf(c: FormatContext, items: readonly Record<string, unknown>[]): string {
  const rows = items.map((item) => {
    const row: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(item)) flatten(name, value, row);
    return row;
  });
  const headers = headersOf(c.resource, rows);
  // PHP's fputcsv (symfony's CsvEncoder) also encloses a field with a space, a tab or a backslash
  return stringify([headers, ...rows.map((row) => headers.map((h) => cell(row[h])))], {
    quoted_match: /[ \t\\]/, record_delimiter: 'unix',
  });
}

function badCsv(detail: string): HttpError {
  return new HttpError('ERR_HTTP_BAD_REQUEST', `Invalid CSV body: ${detail}`);
}

/**
 * A CSV body: a header row naming properties, then exactly one row of values.
 * @throws HttpError 400 for text that is not CSV (an unclosed quote, rows of different lengths),
 *   no row of values or several, an empty or repeated column name
 */
function readCsv(text: string): Record<string, string> {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch (error) {
    throw badCsv((error as Error).message);
  }
  if (records.length === 0) throw badCsv('expected a header row and one row of values, got nothing.');
  const [headers, ...rows] = records;
  if (rows.length !== 1) throw badCsv(`expected one row of values after the header row, got ${rows.length}.`);
  const seen = new Set<string>();
  for (const [i, header] of headers.entries()) {
    if (header.trim() === '') throw badCsv(`column ${i + 1} has no name in the header row.`);
    if (seen.has(header)) throw badCsv(`the column "${header.slice(0, 100)}" is named twice in the header row.`);
    seen.add(header);
  }
  return Object.fromEntries(headers.map((h, i) => [h, unescapeFormula(rows[0][i])]));
}

/**
 * CSV (`text/csv`, API Platform's `csv`, symfony's CsvEncoder): a collection is a header row of
 * the properties (`id` first; relations as IRIs; a `json` property flattened to `tags.0`,
 * `meta.size` columns) and one row an item; an item is the same with its one row. Fields are
 * enclosed in double quotes when they hold a comma, a quote, a line break, a space, a tab or a
 * backslash (PHP's `fputcsv`); true is `1`, false `0`, null an empty field; rows end with `\n`.
 * A text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab, a
 * carriage return, or their full-width forms) is written with a leading `'` (OWASP's advice;
 * symfony's `csv_escape_formulas`), which a body read back removes, so a value round-trips.
 * A body is a header row and one row of values (POST, PUT), read as the properties' kinds want
 * (see `textValues.ts`); an empty field is null for a nullable property. Errors are problem
 * details (`application/problem+json`), as API Platform answers a CSV client.
 */
export const csv: Format = {
  name: 'csv',
  mimeTypes: [CSV_TYPE],
  item: (c) => csvOf(c, [c.normalize(c.item)]),
  collection: (c) => csvOf(c, c.items.map((item) => c.normalize(item))),
  decode: (body, c) => {
    if (body !== undefined && typeof body !== 'string') throw badCsv('expected text.');
    return fromTextValues(c.resource, unflatten(c.resource, readCsv(body ?? '')));
  },
  docs: {
    item: () => ({ type: 'string', description: 'A header row of the properties and one row of values (RFC 4180).' }),
    collection: () => ({
      type: 'string', description: 'A header row of the properties and one row per item (RFC 4180).',
    }),
    input: () => ({ type: 'string', description: 'A header row naming properties and one row of values (RFC 4180).' }),
  },
};
