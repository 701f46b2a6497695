import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';

/** Generated files larger than this are not read for a `sourceMappingURL` (bytes). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** A stack line naming a position: `    at fn (/abs/file.js:12:5)` or `    at /abs/file.js:12:5`. */
const FRAME = /^(\s+at (?:.+? \()?)((?:file:\/\/)?\/[^()]*?\.[cm]?js):(\d+):(\d+)(\)?)$/;
const MAPPING_URL = /\/\/[#@] sourceMappingURL=(\S+)\s*$/;

interface LoadedMap {
  map: SourceMap;
  /** The folder the map's `sources` are relative to (its own folder plus `sourceRoot`). */
  root: string;
}

/** The source maps of the last 256 generated files read (`false`: the file has none). */
// reading the maps again: 1.9 ms a stack, 10 µs remembered (`npm run bench -- tricks --cases=sourcemaps`)
const maps = new LRUCache<string, LoadedMap | false>({ max: 256 });

function pathOf(location: string): string {
  return location.startsWith('file://') ? fileURLToPath(location) : location;
}

/** Reads the map a generated file names in its last `//# sourceMappingURL=` comment. */
function load(file: string): LoadedMap | null {
  try {
    if (fs.statSync(file).size > MAX_FILE_BYTES) return null;
    const code = fs.readFileSync(file, 'utf8');
    const url = MAPPING_URL.exec(code.slice(-4096))?.[1];
    if (url === undefined) return null;
    let json: string;
    let mapDir = path.dirname(file);
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const payload = url.slice(comma + 1);
      json = url.slice(0, comma).endsWith(';base64')
        ? Buffer.from(payload, 'base64').toString('utf8')
        : decodeURIComponent(payload);
    } else {
      const mapFile = url.startsWith('file://') ? fileURLToPath(url) : path.resolve(mapDir, decodeURIComponent(url));
      json = fs.readFileSync(mapFile, 'utf8');
      mapDir = path.dirname(mapFile);
    }
    const payload = JSON.parse(json) as { sourceRoot?: string };
    return {
      map: new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]),
      root: path.resolve(mapDir, payload.sourceRoot ?? ''),
    };
  } catch {
    return null;
  }
}

function mapOf(file: string): LoadedMap | null {
  let hit = maps.get(file);
  if (hit === undefined) maps.set(file, hit = load(file) ?? false);
  return hit === false ? null : hit;
}

/**
 * The original position of a generated one, through the source map the generated file names
 * (a `.js.map` file beside it, or inline), as Node's `--enable-source-maps` does, but also for
 * modules loaded before source maps were turned on.
 * @param file - an absolute path or `file://` URL of a `.js`/`.cjs`/`.mjs` file
 * @param line - 1-based line
 * @param column - 1-based column, as V8 prints it
 * @returns the absolute path of the source and its 1-based line and column, or undefined when the
 *   file has no readable source map
 */
export function originalPosition(
  file: string,
  line: number,
  column: number,
): { file: string; line: number; column: number } | undefined {
  const loaded = mapOf(pathOf(file));
  if (loaded === null) return undefined;
  const entry = loaded.map.findEntry(line - 1, column - 1) as {
    originalSource?: string; originalLine?: number; originalColumn?: number;
  };
  if (entry.originalSource === undefined || entry.originalLine === undefined) return undefined;
  const source = entry.originalSource.startsWith('file://')
    ? fileURLToPath(entry.originalSource)
    : path.resolve(loaded.root, entry.originalSource);
  return { file: source, line: entry.originalLine + 1, column: (entry.originalColumn ?? 0) + 1 };
}

/**
 * A V8 stack trace with each frame of a source-mapped file pointing at its source instead (the
 * `.ts` file, line and column). Frames without a map, and the message, are kept as they are; a
 * stack Node already mapped (`--enable-source-maps`) names `.ts` files and is left alone.
 * Maps are read from disk once per generated file, and the frames of a stack are mapped once (at
 * most 256 of each remembered).
 * @param stack - `error.stack`
 * @param message - `error.message`: only lines after it are read, so a message cannot fake a frame
 */
export function sourceMappedStack(stack: string, message: string): string {
  const at = message === '' ? -1 : stack.indexOf(message);
  const start = at < 0 ? 0 : at + message.length;
  const frames = stack.slice(start);
  let mapped = mappedFrames.get(frames);
  if (mapped === undefined) {
    mapped = mapFrames(frames);
    mappedFrames.set(frames, mapped);
  }
  return stack.slice(0, start) + mapped;
}

/**
 * The frame lines of stacks already mapped, by their text as V8 wrote it: the errors of one code
 * path (every 404 of a router) share their frames and differ in their message only.
 */
const mappedFrames = new LRUCache<string, string>({ max: 256 });

function mapFrames(frames: string): string {
  return frames.split('\n').map((line) => {
    const m = FRAME.exec(line);
    if (m === null) return line;
    const original = originalPosition(m[2], Number(m[3]), Number(m[4]));
    return original === undefined ? line : `${m[1]}${original.file}:${original.line}:${original.column}${m[5]}`;
  }).join('\n');
}
