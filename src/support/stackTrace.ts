import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';

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
   * the profiler's `withExcerpts` adds them when the exception panel is rendered.
   */
  excerpt?: SourceExcerpt;
}

/** Options of {@link parseStack}. */
export interface StackOptions {
  /** How many frames to keep. @default 50 */
  maxFrames?: number;
}

const FRAME = /^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/;

/** The package's root: `src/support` or `dist/support` is two folders down. */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
const KERNEL_DIRS = ['dist', 'src'].map((d) => path.join(PACKAGE_ROOT, d) + path.sep);
/** The demo is an application built on the kernel: its frames are the application's. */
const DEMO_DIRS = KERNEL_DIRS.map((d) => path.join(d, 'demo') + path.sep);

/**
 * Whether a frame's file is not the application's: Node's own, a dependency's, the kernel's
 * own (its `dist/` or `src/`, not the demo), or not a file path at all.
 */
export function isVendorFile(file: string): boolean {
  if (file.startsWith('node:') || !path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) {
    return true;
  }
  return KERNEL_DIRS.some((d) => file.startsWith(d)) && !DEMO_DIRS.some((d) => file.startsWith(d));
}

function fileOf(location: string): string {
  if (location.startsWith('file://')) {
    try { return fileURLToPath(location); } catch { return location; }
  }
  return location;
}

/** Frames already parsed, by the stack's text after the message (see {@link parseStack}). */
const parsed = new LRUCache<string, readonly StackFrame[]>({ max: 256 });

/**
 * Parses the frames of an error's stack. Only the part after the message is read, so a message
 * that contains `\n    at x (/etc/passwd:1:1)` adds no frame. No file is read (the profiler's
 * `withExcerpts` reads excerpts when a panel shows them).
 *
 * The errors of one code path (every 404 of a router) share their frames: the frames of a stack
 * text are parsed once (at most 256 remembered) and the same frozen array returned after.
 * @param stack - `error.stack`
 * @param message - `error.message`, skipped at the start of the stack
 * @returns the frames, outermost call last, at most `maxFrames`; frozen and shared, do not change them
 */
export function parseStack(stack: string, message: string, options: StackOptions = {}): readonly StackFrame[] {
  const { maxFrames = 50 } = options;
  const at = message === '' ? -1 : stack.indexOf(message);
  const body = at < 0 ? stack.slice(stack.indexOf('\n') + 1 || stack.length) : stack.slice(at + message.length);
  let frames = parsed.get(body);
  if (frames === undefined) {
    frames = parseFrames(body);
    parsed.set(body, frames);
  }
  return frames.length <= maxFrames ? frames : Object.freeze(frames.slice(0, Math.max(0, maxFrames)));
}

function parseFrames(body: string): readonly StackFrame[] {
  const frames: StackFrame[] = [];
  for (const raw of body.split('\n')) {
    if (!/^\s+at /.test(raw)) continue;
    const m = FRAME.exec(raw);
    if (m === null) { frames.push(Object.freeze({ text: raw.trim().slice(3), vendor: true })); continue; }
    const file = fileOf(m[2]);
    const vendor = isVendorFile(file);
    frames.push(Object.freeze(m[1] === undefined
      ? { file, line: Number(m[3]), column: Number(m[4]), vendor }
      : { function: m[1], file, line: Number(m[3]), column: Number(m[4]), vendor }));
  }
  return Object.freeze(frames);
}

/**
 * Runs `build` with V8's stack capture off (`Error.stackTraceLimit = 0`, restored after): the
 * errors it makes carry no frames (`stack` is their `Name: message` line only) and cost neither
 * the capture nor, later, the formatting. For a client's mistake (a 404, a 405) outside debug
 * mode, where no one reads a stack.
 * @param build - makes the error(s)
 * @returns what `build` returns
 */
export function withoutStackTrace<T>(build: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return build();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
