import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import type { Request, Response } from 'express';
import type { OrderBy, StoredItem } from '../api';
import { requestLog } from '../profiler/requestLogger';
import type { AdminApp } from './AdminApp';
import type { AdminField, AdminResource } from './AdminResource';
import { displayValue, type DisplayContext } from './display';
import { readQuery } from './indexScreen';

/**
 * The CSV export of an index (`GET <prefix>/<slug>/export.csv`, with the index's query string):
 * every item the list's filters and search select, in its sort, streamed.
 * @module
 */

/** Items read per query while exporting: the rows in memory at once, whatever the export's size. */
export const EXPORT_CHUNK = 500;

/** Text fields whose cells could be read as a formula by a spreadsheet (OWASP "CSV injection"). */
const FORMULA = /^[=+\-@\t\r]/;

/**
 * One item as the cells of its CSV row: the id, then each shown field as the index shows it
 * (a relation by its target's label, a boolean as yes/no in the user's language), null as an
 * empty cell. A text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
 * leading `'`, so a spreadsheet shows it as text instead of running it.
 */
function cells(
  fields: readonly AdminField[], item: StoredItem, display: DisplayContext,
): string[] {
  return [String(item.id), ...fields.map((f) => {
    const value = item.data[f.name];
    if (value === null || value === undefined) return '';
    // numbers and dates as stored, for spreadsheets to read (no thousands separator, ISO dates)
    if (typeof value === 'number' && f.kind !== 'relation') return String(value);
    if (typeof value === 'string' && (f.kind === 'date' || f.kind === 'datetime')) return value;
    const text = displayValue(f, value, display).text;
    const textual = f.kind === 'string' || f.kind === 'text' || f.kind === 'enum' || f.kind === 'relation';
    return textual && FORMULA.test(text) ? `'${text}` : text;
  })];
}

/** Resolves once `stream` can take more (`drain`), or is closed (the client went away). */
async function writable(stream: Writable): Promise<void> {
  if (stream.destroyed) return;
  const closed = new AbortController();
  try {
    const { signal } = closed;
    await Promise.race([once(stream, 'drain', { signal }), once(stream, 'close', { signal })]);
  } finally {
    closed.abort();
  }
}

/**
 * The export's controller. The query string is read as the index reads it (a bad one is the
 * index's 400, before any byte is sent) and the first chunk is read before the answer starts (a
 * store down is the usual 503 page); then the rows are written as the client takes them
 * (back-pressure: at most {@link EXPORT_CHUNK} items and the stream's buffer in memory). A store
 * failing mid-export aborts the response (the client sees a cut download, never a short file
 * that looks whole) and is logged. The CSV: RFC 4180 (comma, CRLF, quotes as needed) in UTF-8
 * with a byte order mark (spreadsheets read it as UTF-8), the column labels first.
 */
export function csvExport(app: AdminApp, admin: AdminResource) {
  return async function adminExport(req: Request, res: Response): Promise<void> {
    const q = readQuery(app, admin, req.kernel?.uri?.queryString ?? '');
    const { provider, metadata } = admin.resource;
    const order: OrderBy[] = q.sort === undefined ? [...admin.defaultSort]
      : [{ property: q.sort, direction: q.direction }];
    const context = app.stateContext(req);
    const chunk = (page: number) => provider!.provideCollection(metadata, {
      conditions: q.conditions, order, page, itemsPerPage: EXPORT_CHUNK, partial: true,
    }, context);
    let next = await chunk(1);
    const fields = admin.fields.filter((f) => !f.writeOnly);
    const csv = stringify({
      bom: true, record_delimiter: 'windows', header: true,
      columns: [app.translator(req).t('field.id'), ...fields.map((f) => app.text(req, f.label))],
    });
    res.status(200).type('text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="${admin.slug}.csv"`);
    const sent = pipeline(csv, res);
    try {
      for (let page = 1; !csv.destroyed; page++) {
        const labels = await app.relationLabels(req, admin, next.items);
        const display = { ...app.displayContext(req, labels), relatedUrl: () => undefined };
        for (const item of next.items) {
          if (!csv.write(cells(fields, item, display))) await writable(csv);
          if (csv.destroyed) break;
        }
        if (!next.hasNextPage || csv.destroyed) break;
        next = await chunk(page + 1);
      }
      csv.end();
    } catch (e) {
      requestLog(req)?.error({ err: e }, `admin: the CSV export of ${admin.shortName} failed; the response was cut`);
      csv.destroy(e as Error);
    }
    await sent.catch(() => undefined); // a client gone, or the failure logged above
  };
}
