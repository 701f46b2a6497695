import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { due } from '../support/due';

/** A few lines of source around a stack frame's line. */
export interface SourceExcerpt {
  /** The number of the first line shown (1-based). */
  firstLine: number;
  lines: string[];
}

/** One frame of a V8 stack trace. */
export interface StackFrame {
  /**
   * The frame line as V8 wrote it, without the leading `at `, for a frame that names no file,
   * line and column (`async Promise.all (index 0)`); the others are shown from their fields.
   */
  text?: string;
  /** The function, e.g. `Object.<anonymous>`, `async Promise.all`; absent for top-level code. */
  function?: string;
  file?: string;
  line?: number;
  column?: number;
  /**
   * Not the application's code: Node's own (`node:internal/…`), a dependency's (`node_modules`),
   * or the kernel's (its package's `dist/` or `src/`, the demo excepted). The exception panel
   * greys these out, as Symfony does `vendor/` frames.
   */
  vendor: boolean;
  /**
   * The frame's line ±3, when the file exists and is a source file. Stored profiles hold none:
   * {@link withExcerpts} adds them when the exception panel is rendered.
   */
  excerpt?: SourceExcerpt;
}

/** Options of {@link parseStack}. */
export interface StackOptions {
  /** How many frames to keep. @default 50 */
  maxFrames?: number;
}

/** Options of {@link withExcerpts}. */
export interface ExcerptOptions {
  /** How many frames (application frames first) get a source excerpt. @default 10 */
  maxExcerpts?: number;
  /** Lines of context each side of the frame's line. @default 3 */
  context?: number;
}

const FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;
const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const CACHE_SIZE = 64;
/** How long a cached file is trusted before its modification time is checked again (ms). */
const RECHECK_MS = 1000;
const cache = new Map<string, { mtimeMs: number; checkedAt: number; lines: string[] }>();

/**
 * The lines of a source file, or undefined when it is not a regular `.js`/`.ts`-like file under
 * 2 MiB. Files are cached by path and modification time, the time checked at most once a second.
 */
function linesOf(file: string): string[] | undefined {
  if (!path.isAbsolute(file) || !SOURCE_FILE.test(file)) return undefined;
  const now = Date.now();
  const hit = cache.get(file);
  if (hit !== undefined && !due(hit.checkedAt, now, RECHECK_MS)) return hit.lines;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    if (hit !== undefined && hit.mtimeMs === stat.mtimeMs) {
      hit.checkedAt = now;
      return hit.lines;
    }
    const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(file, { mtimeMs: stat.mtimeMs, checkedAt: now, lines });
    return lines;
  } catch {
    return undefined;
  }
}

/**
 * The source lines around `line` (1-based), `context` lines each side.
 * @returns undefined when the file cannot be read or has no such line
 */
export function sourceExcerpt(file: string, line: number, context = 3): SourceExcerpt | undefined {
  const lines = linesOf(file);
  if (lines === undefined || line < 1 || line > lines.length) return undefined;
  const first = Math.max(1, line - context);
  return { firstLine: first, lines: lines.slice(first - 1, Math.min(lines.length, line + context)).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l)) };
}

/** The package's root: `src/profiler` or `dist/profiler` is two folders down. */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
const KERNEL_DIRS = ['dist', 'src'].map((d) => path.join(PACKAGE_ROOT, d) + path.sep);
/** The demo is an application built on the kernel: its frames are the application's. */
const DEMO_DIRS = KERNEL_DIRS.map((d) => path.join(d, 'demo') + path.sep);

/**
 * Whether a frame's file is not the application's: Node's own, a dependency's, the kernel's
 * own (its `dist/` or `src/`, not the demo), or not a file path at all.
 */
export function isVendorFile(file: string): boolean {
  if (file.startsWith('node:') || !path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) return true;
  return KERNEL_DIRS.some((d) => file.startsWith(d)) && !DEMO_DIRS.some((d) => file.startsWith(d));
}

function fileOf(location: string): string {
  if (location.startsWith('file://')) {
    try { return fileURLToPath(location); } catch { return location; }
  }
  return location;
}

/**
 * Parses the frames of an error's stack. Only the part after the message is read, so a message
 * that contains `\n    at x (/etc/passwd:1:1)` adds no frame. No file is read: see
 * {@link withExcerpts}.
 * @param stack - `error.stack`
 * @param message - `error.message`, skipped at the start of the stack
 * @returns the frames, outermost call last, at most `maxFrames`
 */
export function parseStack(stack: string, message: string, options: StackOptions = {}): StackFrame[] {
  const { maxFrames = 50 } = options;
  const at = message === '' ? -1 : stack.indexOf(message);
  const body = at < 0 ? stack.slice(stack.indexOf('\n') + 1 || stack.length) : stack.slice(at + message.length);
  const frames: StackFrame[] = [];
  for (const raw of body.split('\n')) {
    if (frames.length >= maxFrames) break;
    if (!/^\s+at /.test(raw)) continue;
    const m = FRAME.exec(raw);
    if (m === null) { frames.push({ text: raw.trim().slice(3), vendor: true }); continue; }
    const file = fileOf(m[2]);
    const vendor = isVendorFile(file);
    frames.push(m[1] === undefined
      ? { file, line: Number(m[3]), column: Number(m[4]), vendor }
      : { function: m[1], file, line: Number(m[3]), column: Number(m[4]), vendor });
  }
  return frames;
}

/**
 * Copies of the frames with source excerpts read from the files they name, application frames
 * first, as Symfony's exception panel reads them when it is rendered (the `file_excerpt` Twig
 * filter of `CodeExtension`): profiles stay small, and a file edited since shows its current
 * lines. Only absolute paths of `.js`/`.ts`-like files under 2 MiB are read; nothing else.
 * @param frames - frames from {@link parseStack} (or a stored profile); malformed entries are kept as they are
 * @returns new frame objects; the given ones are not changed
 */
export function withExcerpts(frames: readonly StackFrame[], options: ExcerptOptions = {}): StackFrame[] {
  const { maxExcerpts = 10, context = 3 } = options;
  const copies = frames.map((f) => ({ ...f }));
  const order = [...copies.filter((f) => !f.vendor), ...copies.filter((f) => f.vendor)];
  let excerpts = 0;
  for (const f of order) {
    if (excerpts >= maxExcerpts) break;
    if (typeof f.file !== 'string' || !Number.isInteger(f.line)) continue;
    f.excerpt = sourceExcerpt(f.file, f.line as number, context);
    if (f.excerpt !== undefined) excerpts++;
  }
  return copies;
}
