/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): the functions with the most self time,
 * the functions of this project (`src/`) with the most inclusive time, and self time by package
 * or file. Compiled positions under `build/` are mapped back to the TypeScript sources through
 * their source maps.
 *
 * The `http` and `profiler` sections print this for each forked server when run with
 * `--cpu-prof[=DIR]`; on its own: `node build/bench/httpCpuProfile.js FILE.cpuprofile [TOP]`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROOT = process.cwd();
const maps = new Map<string, SourceMap | null>();

function sourceMapFor(file: string): SourceMap | null {
  let m = maps.get(file);
  if (m === undefined) {
    try {
      m = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      m = null;
    }
    maps.set(file, m);
  }
  return m;
}

/** `file:line` of a frame, relative to the project, mapped to TypeScript when there is a source map. */
function where(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return '';
  let file = url.startsWith('file://') ? fileURLToPath(url) : url;
  let line = frame.lineNumber + 1;
  if (path.isAbsolute(file)) {
    const map = file.endsWith('.js') ? sourceMapFor(file) : null;
    const entry: { originalSource?: string; originalLine?: number } | undefined =
      map?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry?.originalSource !== undefined && entry.originalLine !== undefined) {
      const src = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : path.resolve(path.dirname(file), entry.originalSource);
      file = src;
      line = entry.originalLine + 1;
    }
    file = path.relative(ROOT, file);
  }
  return `${file}:${line}`;
}

/** Where self time is grouped: a package, a project file, node internals or a V8 pseudo-node. */
function group(frame: CallFrame, at: string): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (frame.url.startsWith('node:')) return 'node: internals';
  const nm = at.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = at.slice(nm + 'node_modules/'.length).split('/');
    return `pkg ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  return at.replace(/:\d+$/, '');
}

export interface CpuSummary {
  /** Milliseconds sampled. */
  totalMs: number;
  /** Milliseconds not idle. */
  busyMs: number;
  text: string;
}

/**
 * Summarises one `.cpuprofile`. When `<name>.windows.json` lies beside it (measured windows as
 * `[startµs, endµs, requests]` on the profile's clock, written by the benchmark harness), only
 * samples inside those windows count, and times are also given in µs per request.
 */
export function summariseCpuProfile(file: string, top = 25): CpuSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const windowsFile = file.replace(/\.cpuprofile$/, '.windows.json');
  const windows = fs.existsSync(windowsFile) ? (JSON.parse(fs.readFileSync(windowsFile, 'utf8')) as Array<[number, number, number]>) : undefined;
  const requests = windows?.reduce((n, w) => n + w[2], 0) ?? 0;
  const inWindow = (t: number): boolean => windows === undefined || windows.some(([a, b]) => t >= a && t <= b);
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const keyOf = new Map<number, { key: string; name: string; at: string; group: string }>();
  for (const n of profile.nodes) {
    const at = where(n.callFrame);
    const name = n.callFrame.functionName === '' ? '(anonymous)' : n.callFrame.functionName;
    keyOf.set(n.id, { key: `${at} ${name}`, name, at, group: group(n.callFrame, at) });
  }
  // Each sample's duration: the time to the next sample (the last one gets the mean).
  const deltas = profile.timeDeltas;
  const total = profile.samples.length;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const groups = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  let t = profile.startTime;
  for (let i = 0; i < total; i++) {
    t += deltas[i] ?? 0;
    const us = i + 1 < deltas.length
      ? Math.max(0, deltas[i + 1])
      : (profile.endTime - profile.startTime) / Math.max(1, total);
    if (!inWindow(t)) continue;
    totalUs += us;
    const id = profile.samples[i];
    const k = keyOf.get(id)!;
    if (k.name === '(idle)') idleUs += us;
    self.set(k.key, (self.get(k.key) ?? 0) + us);
    groups.set(k.group, (groups.get(k.group) ?? 0) + us);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const key = keyOf.get(n)!.key;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const busyUs = totalUs - idleUs;
  const pct = (us: number): string => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%` + (requests > 0 ? `  ${(us / requests).toFixed(1).padStart(6)} µs/req` : '');
  const lines: string[] = [];
  const scope = windows === undefined ? 'whole process lifetime' : `measured windows only, ${requests.toLocaleString('en-US')} requests: ${(busyUs / requests).toFixed(0)} busy µs/req (under the profiler)`;
  lines.push(`${path.basename(file)}: ${(totalUs / 1000).toFixed(0)} ms sampled, ${(busyUs / 1000).toFixed(0)} ms busy; ${scope}; percentages are of busy time`);
  lines.push('  top self time:');
  for (const [key, us] of [...self].filter(([k]) => !k.endsWith(' (idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`    ${pct(us)}  ${key}`);
  }
  lines.push('  self time by package / file:');
  for (const [g, us] of [...groups].filter(([g]) => g !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    lines.push(`    ${pct(us)}  ${g}`);
  }
  lines.push('  inclusive time, project functions (src/):');
  for (const [key, us] of [...inclusive].filter(([k]) => k.startsWith('src/')).sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`    ${pct(us)}  ${key}`);
  }
  return { totalMs: totalUs / 1000, busyMs: busyUs / 1000, text: lines.join('\n') };
}

/** Prints the summary of every `.cpuprofile` in a folder. */
export function printCpuProfiles(dir: string, top = 25): void {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  console.log(`\nCPU profiles of the servers (${dir}):`);
  for (const f of files) console.log(`\n${summariseCpuProfile(path.join(dir, f), top).text}`);
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (file === undefined) {
    console.error('usage: node build/bench/httpCpuProfile.js FILE.cpuprofile|DIR [TOP]');
    process.exitCode = 2;
  } else if (fs.statSync(file).isDirectory()) {
    printCpuProfiles(file, Number(top ?? 25));
  } else {
    console.log(summariseCpuProfile(file, Number(top ?? 25)).text);
  }
}
