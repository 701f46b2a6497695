import fs from 'node:fs';
import path from 'node:path';
import { due } from '../support/due';
import type { SourceExcerpt, StackFrame } from '../support/stackTrace';

export { isVendorFile, parseStack } from '../support/stackTrace';
export type { SourceExcerpt, StackFrame, StackOptions } from '../support/stackTrace';

/** Options of {@link withExcerpts}. */
export interface ExcerptOptions {
  /** How many frames (application frames first) get a source excerpt. @default 10 */
  maxExcerpts?: number;
  /** Lines of context each side of the frame's line. @default 3 */
  context?: number;
  /**
   * The application's root folder: only files under it (its `node_modules` included) or in a
   * `node_modules` folder are read, symbolic links resolved first. @default process.cwd()
   */
  root?: string;
}

const SOURCE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const CACHE_SIZE = 64;
/** How long a cached file is trusted before its modification time is checked again (ms). */
const RECHECK_MS = 1000;
const cache = new Map<string, { mtimeMs: number; checkedAt: number; lines: string[] }>();

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/**
 * Whether the exception panel may read a file a (stored, so possibly forged) frame names: an
 * absolute, normalised path of a `.js`/`.ts`-like file that, symbolic links resolved, lies under
 * `root` or in a `node_modules` folder.
 * @param file - the frame's path
 * @param root - the application's root folder, absolute
 */
export function isProjectSourceFile(file: string, root: string): boolean {
  if (!path.isAbsolute(file) || path.normalize(file) !== file || file.includes('\0')) return false;
  if (!SOURCE_FILE.test(file)) return false;
  let real: string;
  try { real = fs.realpathSync(file); } catch { return false; }
  if (!SOURCE_FILE.test(real)) return false;
  let base = root;
  try { base = fs.realpathSync(root); } catch { /* compare with the path as given */ }
  return real.startsWith(base.endsWith(path.sep) ? base : base + path.sep) || real.includes(NODE_MODULES);
}

/**
 * The lines of a source file, or undefined when it is not a regular `.js`/`.ts`-like file under
 * 2 MiB in the project ({@link isProjectSourceFile}). Files are cached by path and modification
 * time, the time checked at most once a second.
 */
function linesOf(file: string, root: string): string[] | undefined {
  if (!isProjectSourceFile(file, root)) return undefined;
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
 * @param root - see {@link ExcerptOptions.root}
 * @returns undefined when the file cannot be read, is outside the project or has no such line
 */
export function sourceExcerpt(
  file: string, line: number, context = 3, root = process.cwd(),
): SourceExcerpt | undefined {
  const lines = linesOf(file, root);
  if (lines === undefined || line < 1 || line > lines.length) return undefined;
  const first = Math.max(1, line - context);
  const shown = lines.slice(first - 1, Math.min(lines.length, line + context));
  return { firstLine: first, lines: shown.map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l)) };
}

/**
 * Copies of the frames with source excerpts read from the files they name, application frames
 * first, as Symfony's exception panel reads them when it is rendered (the `file_excerpt` Twig
 * filter of `CodeExtension`): profiles stay small, and a file edited since shows its current
 * lines. Only `.js`/`.ts`-like files under 2 MiB in the application's root or a `node_modules`
 * folder are read ({@link isProjectSourceFile}), so a forged frame in a shared store reads nothing.
 * @param frames - frames from `parseStack` (or a stored profile); malformed entries are kept as they are
 * @returns new frame objects; the given ones are not changed
 */
export function withExcerpts(frames: readonly StackFrame[], options: ExcerptOptions = {}): StackFrame[] {
  const { maxExcerpts = 10, context = 3, root = process.cwd() } = options;
  const copies = frames.map((f) => ({ ...f }));
  const order = [...copies.filter((f) => !f.vendor), ...copies.filter((f) => f.vendor)];
  let excerpts = 0;
  for (const f of order) {
    if (excerpts >= maxExcerpts) break;
    if (typeof f.file !== 'string' || !Number.isInteger(f.line)) continue;
    f.excerpt = sourceExcerpt(f.file, f.line as number, context, root);
    if (f.excerpt !== undefined) excerpts++;
  }
  return copies;
}
