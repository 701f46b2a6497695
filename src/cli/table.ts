/**
 * The two table styles the routing commands use (Symfony Console `Table::getStyleDefinition`):
 * - `default`: `+`, `-` and `|` borders, used by `new Table($output)` (the single-route view);
 * - `symfony-style-guide`: spaces as vertical borders and crossings, used by `SymfonyStyle::table()`
 *   (the route list).
 */
export type TableStyleName = 'default' | 'symfony-style-guide';

interface TableStyle {
  readonly horizontal: string;
  readonly vertical: string;
  readonly crossing: string;
}

const STYLES: Readonly<Record<TableStyleName, TableStyle>> = Object.freeze({
  default: { horizontal: '-', vertical: '|', crossing: '+' },
  'symfony-style-guide': { horizontal: '-', vertical: ' ', crossing: ' ' },
});

/**
 * East Asian wide and fullwidth ranges, which a terminal draws two columns wide (the cases of
 * `mb_strwidth` that matter for route names, paths and messages).
 */
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff],
  [0xa000, 0xa4cf], [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xff60],
  [0xffe0, 0xffe6], [0x1f300, 0x1f64f], [0x1f900, 0x1f9ff], [0x20000, 0x3fffd],
];

/**
 * How many terminal columns a string takes (Symfony Console `Helper::width`): one per code point,
 * two for East Asian wide and fullwidth characters, none for combining marks.
 * @param text - plain text, without style tags
 * @returns the width in columns
 */
export function stringWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) as number;
    if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f)) continue;
    width += WIDE.some(([lo, hi]) => cp >= lo && cp <= hi) ? 2 : 1;
  }
  return width;
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - stringWidth(text)));
}

/** A row's cells split on line breaks: a cell of n lines makes the row n lines tall. */
function expand(row: readonly string[], columns: number): string[][] {
  const cells = Array.from({ length: columns }, (_, i) => (row[i] ?? '').split(/\r?\n/));
  const height = Math.max(1, ...cells.map((c) => c.length));
  return Array.from({ length: height }, (_, line) => cells.map((c) => c[line] ?? ''));
}

/**
 * Renders a table as Symfony Console's `Table::render()` does without decoration: a separator
 * line, the header row, a separator, the rows, a closing separator. Each cell is padded with one
 * space on both sides; a cell containing line breaks spreads over several lines, the other cells
 * of its row being left blank on the extra lines. Every line (trailing border included) ends with
 * `\n`.
 *
 * @param headers - the header cells; with none, the header row and its separator are left out
 * @param rows - the body rows; a short row is filled with empty cells
 * @param style - the border style @default 'default'
 * @param paintHeader - styles each padded header cell (Symfony's `<info>`, green, on a terminal)
 *   @default no style
 * @returns the rendered table, or `''` when there are no columns at all
 */
export function renderTable(
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  style: TableStyleName = 'default',
  paintHeader: (cell: string) => string = (cell) => cell,
): string {
  const s = STYLES[style];
  const columns = Math.max(headers.length, ...rows.map((r) => r.length));
  if (columns === 0) return '';
  const headerLines = headers.length > 0 ? expand(headers, columns) : [];
  const bodyLines = rows.flatMap((r) => expand(r, columns));
  const widths = Array.from({ length: columns }, (_, i) =>
    Math.max(0, ...[...headerLines, ...bodyLines].map((line) => stringWidth(line[i]))));
  const separator = s.crossing + widths.map((w) => s.horizontal.repeat(w + 2)).join(s.crossing) + s.crossing;
  const render = (line: string[], paint = (cell: string) => cell): string =>
    s.vertical + line.map((cell, i) => ` ${paint(pad(cell, widths[i]))} `).join(s.vertical) + s.vertical;

  const out: string[] = [];
  if (headerLines.length > 0) out.push(separator, ...headerLines.map((line) => render(line, paintHeader)));
  if (bodyLines.length > 0) out.push(separator, ...bodyLines.map((line) => render(line)));
  out.push(separator);
  return out.map((l) => `${l}\n`).join('');
}
