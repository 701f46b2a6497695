import * as fs from 'node:fs';
import * as path from 'node:path';
import { RoutingArgumentError } from '../errors';

/** The characters that make a resource a glob (Symfony `FileLoader::import`: `strcspn($resource, '*?{[')`). */
const GLOB_CHARS = /[*?{[]/;

/**
 * PHP's `strnatcmp` (the order of `natsort`): runs of digits compare as numbers, the rest byte by
 * byte (case-sensitive).
 */
function naturalCompare(a: string, b: string): number {
  const chunks = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const x = chunks(a);
  const y = chunks(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    if (/^\d/.test(p) && /^\d/.test(q)) {
      const m = p.replace(/^0+/, '');
      const n = q.replace(/^0+/, '');
      if (m.length !== n.length) return m.length - n.length;
      if (m !== n) return m < n ? -1 : 1;
    }
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/**
 * `{a,b}` alternatives expanded, as Symfony's `GlobResource::expandGlob` does where PHP has no
 * `GLOB_BRACE` (nested braces included): `routes/{a,b}.yaml` gives `routes/a.yaml`, `routes/b.yaml`.
 */
function expandBraces(pattern: string): string[] {
  const open = pattern.search(/\{[^{}]*\}/);
  if (open === -1) return [pattern];
  const close = pattern.indexOf('}', open);
  const before = pattern.slice(0, open);
  const after = pattern.slice(close + 1);
  return pattern.slice(open + 1, close).split(',').flatMap((alt) => expandBraces(before + alt + after));
}

/** One path segment of a glob as a regex: `*`, `?`, `[…]` (`[!…]` negated); a leading `.` must be written. */
function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[' && segment.indexOf(']', i + 2) !== -1) {
      const end = segment.indexOf(']', i + 2);
      let body = segment.slice(i + 1, end);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]]/g, '\\$&')}]`;
      i = end;
    } else if (c === '\\' && i + 1 < segment.length) {
      source += segment[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/** The paths that exist and match an absolute pattern without braces (libc `glob`). */
function expand(pattern: string): string[] {
  let current = [path.parse(pattern).root];
  for (const segment of pattern.slice(current[0].length).split('/')) {
    if (segment === '') continue;
    if (!GLOB_CHARS.test(segment)) {
      current = current.map((dir) => path.join(dir, segment));
      continue;
    }
    const regex = segmentRegex(segment);
    const next: string[] = [];
    for (const dir of current) {
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.startsWith('.') && !segment.startsWith('.')) continue;
        if (regex.test(name)) next.push(path.join(dir, name));
      }
    }
    current = next;
  }
  return current.filter((p) => fs.existsSync(p));
}

const isFile = (p: string): boolean => {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
};

interface GlobOptions {
  /** A missing prefix folder gives nothing instead of an error. */
  readonly ignoreMissing: boolean;
  /** Give the folders that match too (for `exclude`), without looking into them. */
  readonly forExclusion: boolean;
  /** Paths (without trailing slash) to leave out, with everything under them. */
  readonly excluded: ReadonlySet<string>;
}

/**
 * Symfony `FileLoader::glob` then `GlobResource::getIterator`, not recursive: the pattern is
 * split into the folder before its first glob character (located from `dir`; `.` when the glob
 * starts in the first segment) and the rest, which is matched there; the paths are sorted as PHP's
 * `natsort` sorts them; folders are skipped (given as such for an exclusion).
 * @throws RoutingArgumentError when the prefix folder does not exist and `ignoreMissing` is false
 */
function glob(pattern: string, dir: string, options: GlobOptions): string[] {
  const i = pattern.search(GLOB_CHARS);
  let prefix: string;
  let rest: string;
  if (i === -1) {
    prefix = pattern;
    rest = '';
  } else if (i === 0 || !pattern.slice(0, i).includes('/')) {
    prefix = '.';
    rest = `/${pattern}`;
  } else {
    prefix = path.posix.dirname(pattern.slice(0, i + 1));
    rest = pattern.slice(prefix.length);
  }
  const located = path.isAbsolute(prefix) ? prefix : path.join(dir, prefix);
  if (!fs.existsSync(located)) {
    if (options.ignoreMissing) return [];
    throw new RoutingArgumentError(`The file "${prefix}" does not exist (in: "${dir}").`);
  }
  const root = fs.realpathSync(located);
  const paths = rest === '' ? [root] : [...new Set(expandBraces(root + rest).flatMap(expand))];
  paths.sort(naturalCompare);
  const out: string[] = [];
  for (const p of paths) {
    if (options.excluded.size > 0) {
      let d = p;
      let skip = false;
      for (;;) {
        if (options.excluded.has(d)) skip = true;
        const parent = path.dirname(d);
        if (skip || d === root || parent === d) break;
        d = parent;
      }
      if (skip) continue;
    }
    if (isFile(p) || options.forExclusion) out.push(p);
  }
  return out;
}

/**
 * The files a glob import names (Symfony `FileLoader::import` with a resource holding `*`, `?`,
 * `{` or `[`): `../controller/routing_*.yml`, `b?r.yml`, `routes/{admin,shop}.yaml`, resolved
 * from the importing file's folder and sorted naturally, less those under an `exclude` pattern.
 * As in Symfony, a glob whose wildcard comes after a `/` (`../controller/*.yml`) may match
 * nothing (an empty folder imports no route), but its folder must exist; a glob in the first
 * segment (`b?r.yml`) that matches nothing is imported as a plain file name (and so not found).
 * @param resource - the import's `resource`
 * @param dir - the folder of the importing file (absolute)
 * @param exclude - the import's `exclude` patterns (globs too, from the same folder)
 * @returns the absolute paths of the files to import, in order; undefined when the resource is to
 *   be imported as one plain file
 * @throws RoutingArgumentError when the folder before the wildcard, or an exclude pattern's, does
 *   not exist (Symfony's `FileLocator` message)
 */
export function globImport(resource: string, dir: string, exclude: readonly string[] = []): string[] | undefined {
  const i = resource.search(GLOB_CHARS);
  if (i === -1 || resource.includes('\n')) return undefined;
  const excluded = new Set<string>();
  for (const pattern of exclude) {
    const ignoreMissing = false;
    for (const p of glob(pattern, dir, { ignoreMissing, forExclusion: true, excluded: new Set() })) {
      excluded.add(p.replace(/\/+$/, ''));
    }
  }
  const isSubpath = i !== 0 && resource.slice(0, i).includes('/');
  const files = glob(resource, dir, { ignoreMissing: !isSubpath, forExclusion: false, excluded });
  return isSubpath || files.length > 0 ? files : undefined;
}
