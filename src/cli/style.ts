import * as tty from 'node:tty';
import { styleText } from 'node:util';
import { stringWidth } from './table';

/**
 * How console output is coloured: Symfony Console's default output styles, as functions that wrap
 * text in them. {@link PLAIN} leaves text as it is; {@link COLOURED} uses `util.styleText`.
 */
export interface Palette {
  /** True when the palette colours: a decorated output also gets the padding lines of the blocks. */
  readonly decorated: boolean;
  /** `<info>`, green text: table headers, the synopsis under an error, a route name in `router:match`. */
  readonly info: (text: string) => string;
  /** `fg=black;bg=green`: the `[OK]` block. */
  readonly success: (text: string) => string;
  /** `<error>`, white on red: the `[ERROR]` block and the error box. */
  readonly error: (text: string) => string;
}

const same = (text: string): string => text;

/** No colours (an undecorated output: a pipe, a file, `NO_COLOR`). */
export const PLAIN: Palette = Object.freeze({ decorated: false, info: same, success: same, error: same });

/** `util.styleText` without its own check of `process.stdout`: {@link shouldColorize} decides, per stream. */
function style(format: Parameters<typeof styleText>[0]): (text: string) => string {
  return (text) => styleText(format, text, { validateStream: false });
}

/** Symfony Console's default colours, through `util.styleText` (Node >= 20.12). */
export const COLOURED: Palette = Object.freeze({
  decorated: true,
  info: style('green'),
  success: style(['black', 'bgGreen']),
  error: style(['white', 'bgRed']),
});

/**
 * Whether to colour what goes to `stream`, decided as Node decides for its own output
 * (`util.styleText`, the REPL): `FORCE_COLOR` set colours any stream unless it is `0` or `false`;
 * otherwise only a terminal is coloured, and not when `NO_COLOR` or `NODE_DISABLE_COLORS` is set
 * or `TERM` is `dumb`. Always false on a Node without `util.styleText` (before 20.12).
 * @param stream - the output stream, e.g. `process.stdout`
 * @param env - the environment @default process.env
 * @returns true when the output should carry colours
 */
export function shouldColorize(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (typeof styleText !== 'function') return false;
  if (env.FORCE_COLOR === undefined && stream.isTTY !== true) return false;
  return tty.WriteStream.prototype.getColorDepth.call(stream, env) > 2;
}

/**
 * The palette for a stream: {@link COLOURED} when {@link shouldColorize} says so, else {@link PLAIN}.
 * @param stream - the output stream
 * @param env - the environment @default process.env
 */
export function paletteFor(stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Palette {
  return shouldColorize(stream, env) ? COLOURED : PLAIN;
}

/** Symfony Console's `SymfonyStyle::MAX_LINE_LENGTH`: blocks are never wider than this. */
export const MAX_LINE_LENGTH = 120;

/** The width Symfony Console's `Terminal` falls back to when it cannot ask the terminal. */
export const DEFAULT_TERMINAL_WIDTH = 80;

/**
 * The terminal width, found as Symfony Console's `Terminal::getWidth()` finds it: the `COLUMNS`
 * environment variable when set, else the width of the terminal, else 80.
 * @param env - the environment @default process.env
 * @param columns - the terminal's width when stdout is one @default process.stdout.columns
 * @returns the width in columns (at least 1)
 */
export function terminalWidth(
  env: NodeJS.ProcessEnv = process.env,
  columns: number | undefined = process.stdout.columns,
): number {
  const fromEnv = env.COLUMNS === undefined ? Number.NaN : Number.parseInt(env.COLUMNS.trim(), 10);
  const width = Number.isFinite(fromEnv) ? fromEnv : columns ?? DEFAULT_TERMINAL_WIDTH;
  return width > 0 ? width : DEFAULT_TERMINAL_WIDTH;
}

/**
 * PHP's `wordwrap($text, $width, "\n", true)`, byte for byte: breaks at the last space that
 * keeps a line within `width` bytes, cuts words longer than `width`, keeps existing line breaks.
 * @param text - the text to wrap
 * @param width - the maximum line length in bytes (UTF-8, as PHP counts)
 * @returns the wrapped text, lines separated by `\n`
 * @throws RangeError when `width` is below 1 (PHP: "Can't force cut when width is zero")
 */
export function wordwrap(text: string, width: number): string {
  if (width < 1) throw new RangeError("Can't force cut when width is zero");
  const src = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  const BREAK = Buffer.from('\n');
  let laststart = 0;
  let lastspace = 0;
  let current = 0;
  for (; current < src.length; current++) {
    const c = src[current];
    if (c === 0x0a && current + 1 < src.length) {
      parts.push(src.subarray(laststart, current + 1));
      laststart = lastspace = current + 1;
    } else if (c === 0x20) {
      if (current - laststart >= width) {
        parts.push(src.subarray(laststart, current), BREAK);
        laststart = current + 1;
      }
      lastspace = current;
    } else if (current - laststart >= width && laststart >= lastspace) {
      parts.push(src.subarray(laststart, current), BREAK);
      laststart = lastspace = current;
    } else if (current - laststart >= width && laststart < lastspace) {
      parts.push(src.subarray(laststart, lastspace), BREAK);
      laststart = lastspace = lastspace + 1;
    }
  }
  if (laststart !== current) parts.push(src.subarray(laststart, current));
  return Buffer.concat(parts).toString('utf8');
}

/**
 * Writes console output the way Symfony Console's `SymfonyStyle` does: the blank-line bookkeeping
 * of `text()`, `success()`, `error()`, `info()`, `table()` and `newLine()`, and blocks padded with
 * spaces to the line length. With a decorated palette (a terminal), the blocks are coloured and
 * framed by a padding line above and below, as Symfony frames them on a decorated output.
 */
export class ConsoleStyle {
  private out = '';
  /** The last characters written through the style (Symfony's `TrimmedBufferOutput`, 2 chars). */
  private tail = '';
  /** The block width: `min(terminal width, 120)` (`SymfonyStyle::$lineLength`). */
  readonly lineLength: number;

  /** The colours of the output. */
  readonly palette: Palette;

  /**
   * @param width - the terminal width, see {@link terminalWidth} @default 80
   * @param palette - the colours, see {@link paletteFor} @default PLAIN
   */
  constructor(width: number = DEFAULT_TERMINAL_WIDTH, palette: Palette = PLAIN) {
    this.lineLength = Math.min(width, MAX_LINE_LENGTH);
    this.palette = palette;
  }

  private writeln(line: string): void {
    this.out += `${line}\n`;
    this.tail = (this.tail + line + '\n').slice(-2);
  }

  /** Writes `count` line breaks (`SymfonyStyle::newLine`). */
  newLine(count = 1): void {
    this.out += '\n'.repeat(count);
    this.tail = (this.tail + '\n'.repeat(count)).slice(-2);
  }

  /** A line of text, indented by one space, after a line break if the output is mid-line (`SymfonyStyle::text`). */
  text(message: string): void {
    const fetched = this.tail;
    this.tail = '';
    if (!fetched.endsWith('\n')) this.newLine();
    this.writeln(` ${message}`);
  }

  /** ` [OK] message`, as a block (`SymfonyStyle::success`). */
  success(message: string): void {
    this.block(message, 'OK', this.palette.success, true);
  }

  /** ` [ERROR] message`, as a block (`SymfonyStyle::error`). */
  error(message: string): void {
    this.block(message, 'ERROR', this.palette.error, true);
  }

  /** ` [INFO] message`, as a block in green (`SymfonyStyle::info`). */
  info(message: string): void {
    this.block(message, 'INFO', this.palette.info, true);
  }

  /**
   * A block (`SymfonyStyle::block`): preceded by a blank line, the message wrapped to the line
   * length with the `[TYPE] ` label on its first line and the following lines indented under it,
   * every line padded with spaces to the line length and painted with `paint`, then a blank line.
   * With `padding` on a decorated output, a painted line of spaces comes before and after.
   * @param paint - the block's style @default no style
   * @param padding - frame the block with painted empty lines when decorated @default false
   */
  block(message: string, type: string, paint: (text: string) => string = same, padding = false): void {
    const chars = this.tail.slice(-2);
    this.tail = '';
    if (chars === '') this.newLine();
    else this.newLine(2 - (chars.match(/\n/g) ?? []).length);
    const label = `[${type}] `;
    const lines = wordwrap(message, Math.min(this.lineLength - 1 - label.length, this.lineLength)).split('\n')
      .map((line, i) => ` ${i === 0 ? label : ' '.repeat(label.length)}${line}`);
    const framed = padding && this.palette.decorated ? ['', ...lines, ''] : lines;
    for (const full of framed) this.writeln(paint(full + ' '.repeat(Math.max(0, this.lineLength - stringWidth(full)))));
    this.newLine();
  }

  /** A table in the `symfony-style-guide` style followed by a blank line (`SymfonyStyle::table`). */
  table(rendered: string): void {
    this.out += rendered;
    this.newLine();
  }

  /**
   * Writes text straight to the underlying output, bypassing the style's bookkeeping (as
   * `debug:router` does when `router:match` runs it on the same output).
   */
  raw(text: string): void {
    this.out += text;
  }

  /** Everything written so far. */
  toString(): string {
    return this.out;
  }
}

function splitByWidth(line: string, width: number): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (const char of line) {
    if (stringWidth(chunk + char) <= width) {
      chunk += char;
      continue;
    }
    chunks.push(chunk + ' '.repeat(Math.max(0, width - stringWidth(chunk))));
    chunk = char;
  }
  chunks.push(chunk);
  return chunks;
}

/**
 * Renders an error the way Symfony Console's `Application::renderThrowable()` renders a console
 * exception at normal verbosity: a blank line, the message framed by lines of spaces (the box,
 * white on red when decorated), a blank line, then the command's synopsis (green when decorated)
 * and a blank line.
 * @param message - the error message (trimmed; each line split to the terminal width minus 5)
 * @param synopsis - the running command's synopsis, e.g. `debug:router [--format FORMAT] [--] [<name>]`
 * @param width - the terminal width @default 80
 * @param palette - the colours of the error output @default PLAIN
 * @returns the text Symfony writes to stderr
 */
export function renderThrowable(
  message: string,
  synopsis: string,
  width: number = DEFAULT_TERMINAL_WIDTH,
  palette: Palette = PLAIN,
): string {
  const lines = message.trim().split(/\r?\n/).flatMap((l) => splitByWidth(l, width - 1 - 4));
  const len = Math.max(0, ...lines.map((l) => stringWidth(l) + 4));
  const empty = palette.error(' '.repeat(len));
  const body = lines.map((l) => palette.error(`  ${l}  ${' '.repeat(len - stringWidth(l) - 4)}`));
  return ['', empty, ...body, empty, '', palette.info(synopsis), ''].map((l) => `${l}\n`).join('');
}
