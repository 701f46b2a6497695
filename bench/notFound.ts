/**
 * Not-found section (issue 15): the demo service's answer to a request whose path has no route,
 * side by side with bare Express's, in interleaved rounds (each round runs every cell once, back
 * to back, on freshly forked servers), autocannon in this process against servers forked
 * into their own processes (`bench/servers/server.ts`), on 127.0.0.1.
 *
 * Cells:
 * - express 404: Express 5 with one route (`GET /plain`), `GET /nope/<n>` → its final handler's 404;
 * - kernel 404: `createDemoKernel({ debug: false, environment: 'bench' })`, `GET /nope/<n>`;
 * - kernel 405: the same kernel, `POST /plain?n=<n>` (the route allows GET) → 405 with `Allow`;
 *   the query counts up as the 404's path does, so both cells drive autocannon the same way
 *   (built per request: a fixed request alone lowered the ratio by 2–3%, docs/benchmarks/not-found.md);
 * - kernel 404 debug: `createDemoKernel({ debug: true })` with its profiles in SQLite,
 *   `GET /nope/<n>` (the debug exception page, its profile stored);
 * - express plain: the same Express app, `GET /plain` → `res.type('text/plain').send('plain')`;
 * - kernel plain: the debug-off demo kernel (every layer on), `GET /plain`, the same answer.
 * `<n>` counts up, so every 404 path (and 405 URL) is new (no cache of the previous answer helps).
 *
 * Targets, each on the median of per-round req/s ratios (two cells of one round run minutes
 * apart at most; the machine is shared, so ratios of one round are steadier than absolutes):
 * - kernel 404 / express 404 ≥ 1.0; kernel plain / express plain ≥ 1.0;
 * - kernel 404 debug / express 404 ≥ 0.5;
 * - kernel 405 / kernel 404 ≥ 0.95 (a 405 costs no more than a 404, within a round's noise).
 *
 * Options (after `npm run bench -- notfound`):
 *   --connections=50    autocannon connections
 *   --duration=3        measured seconds per cell
 *   --warmup=1.5        warm-up seconds per cell (same load, not measured)
 *   --rounds=5          rounds
 *   --cells=a,b         only these cells (ids: express-404, kernel-404, kernel-405,
 *                       kernel-404-debug, express-plain, kernel-plain)
 *   --cpu-prof[=DIR]    fork the servers under `node --cpu-prof` and print a summary of each profile
 */
import {
  checkStatuses, recordRound, expectStatus, forkOptionsFrom, load, loadavg, medianOf, pairedRatios, printTable,
  startServer, tempFolder, type LoadResult,
} from './httpHarness';
import { printCpuProfiles } from './httpCpuProfile';
import { option } from './harness';
import type { BenchSection } from './run';
import type { ServerConfig } from './servers/config';

interface Cell {
  readonly id: string;
  readonly label: string;
  readonly method: 'GET' | 'POST';
  /** A fixed path, or a prefix to which a counter is appended. */
  readonly path: string;
  readonly counted: boolean;
  readonly status: 200 | 404 | 405;
  config(tmp: (name: string) => string): ServerConfig;
}

const CAPS = { maxProfiles: 1000, maxBytes: 10 * 1024 * 1024 };
const debugOff = (tmp: (name: string) => string, id: string): ServerConfig =>
  ({ kind: 'demo', debug: false, environment: 'bench', sqlitePath: tmp(`${id}.sqlite`) });

const CELLS: readonly Cell[] = [
  { id: 'express-404', label: 'express 404 (final handler)', method: 'GET', path: '/nope/', counted: true, status: 404, config: () => ({ kind: 'express-plain' }) },
  { id: 'kernel-404', label: 'kernel 404, debug off', method: 'GET', path: '/nope/', counted: true, status: 404, config: (tmp) => debugOff(tmp, 'k404') },
  { id: 'kernel-405', label: 'kernel 405, debug off (POST /plain?n=N)', method: 'POST', path: '/plain?n=', counted: true, status: 405, config: (tmp) => debugOff(tmp, 'k405') },
  {
    id: 'kernel-404-debug',
    label: 'kernel 404, debug on, profiles in SQLite',
    method: 'GET',
    path: '/nope/',
    counted: true,
    status: 404,
    config: (tmp) => ({ kind: 'demo', debug: true, sqlitePath: tmp('kdebug.sqlite'), profilerSqlite: tmp('kdebug-profiles.sqlite'), caps: CAPS }),
  },
  { id: 'express-plain', label: 'express GET /plain (res.send)', method: 'GET', path: '/plain', counted: false, status: 200, config: () => ({ kind: 'express-plain' }) },
  { id: 'kernel-plain', label: 'kernel GET /plain, debug off', method: 'GET', path: '/plain', counted: false, status: 200, config: (tmp) => debugOff(tmp, 'kplain') },
];

/** The targets: numerator cell, denominator cell, the least ratio. */
const TARGETS: ReadonlyArray<{ name: string; num: string; den: string; min: number }> = [
  { name: 'debug off: kernel 404 / express 404', num: 'kernel-404', den: 'express-404', min: 1.0 },
  { name: 'debug off: kernel GET /plain / express GET /plain', num: 'kernel-plain', den: 'express-plain', min: 1.0 },
  { name: 'debug on: kernel 404 (profile in SQLite) / express 404', num: 'kernel-404-debug', den: 'express-404', min: 0.5 },
  { name: 'a 405 costs no more than a 404: kernel 405 / kernel 404', num: 'kernel-405', den: 'kernel-404', min: 0.95 },
];

async function run(args: readonly string[]): Promise<void> {
  const connections = Number(option(args, 'connections') ?? 50);
  const duration = Number(option(args, 'duration') ?? 3);
  const warmup = Number(option(args, 'warmup') ?? 1.5);
  const rounds = Number(option(args, 'rounds') ?? 5);
  const only = option(args, 'cells')?.split(',');
  const cells = only === undefined ? CELLS : CELLS.filter((c) => only.includes(c.id));
  const fork = forkOptionsFrom(args, 'notfound');
  const tmp = tempFolder('notfound');

  console.log(`autocannon 9 in this process → one forked server per cell on 127.0.0.1; -c ${connections}, ${warmup} s warm-up + ${duration} s measured per cell, ${rounds} interleaved round(s)`);
  console.log('requests: keep-alive, no cookie / Origin / credentials / Accept (HTML error pages); every response\'s status checked');
  if (fork.cpuProfDir !== undefined) console.log(`servers run under --cpu-prof (slower): profiles in ${fork.cpuProfDir}`);
  console.log(`load average at start: ${loadavg()}\n`);

  const results = new Map<string, LoadResult[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const cell of cells) {
        const label = `notfound-${cell.id}${rounds > 1 ? `-r${round + 1}` : ''}`;
        const server = await startServer(label, cell.config(tmp.file), fork);
        try {
          if (cell.method === 'GET') await expectStatus(server, cell.counted ? `${cell.path}0` : cell.path, cell.status);
          let n = 0;
          const path = cell.counted ? () => `${cell.path}${++n}` : cell.path;
          const common = { path, connections, method: cell.method };
          if (warmup > 0) {
            checkStatuses(cell.label, await load(server, { ...common, duration: warmup, warmup: true }), cell.status);
          }
          const r = await load(server, { ...common, duration });
          checkStatuses(cell.label, r, cell.status);
          recordRound(results, cell.id, round, cell.label.padEnd(42), r);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    tmp.cleanup();
  }

  const of = (id: string, f: (r: LoadResult) => number): number[] => results.get(id)?.map(f) ?? [];
  const med = (id: string, f: (r: LoadResult) => number): number => medianOf(of(id, f).length > 0 ? of(id, f) : [NaN]);
  console.log(`\nload average at end: ${loadavg()}`);
  console.log('req/s and p99: medians over rounds; server CPU: the server process\'s user+system CPU time per response\n');
  printTable(
    ['cell', 'req/s', 'p99 ms', 'server CPU µs/req'],
    cells.map((c) => [c.label, Math.round(med(c.id, (r) => r.rps)).toLocaleString('en-US'), String(med(c.id, (r) => r.p99)), med(c.id, (r) => r.cpuMicrosPerRequest).toFixed(0)]),
  );

  console.log('\ntargets (verdict on the median of per-round req/s ratios; the cells of a round run back to back):');
  for (const t of TARGETS) {
    const paired = pairedRatios(of(t.num, (r) => r.rps), of(t.den, (r) => r.rps));
    const byCpu = pairedRatios(of(t.den, (r) => r.cpuMicrosPerRequest), of(t.num, (r) => r.cpuMicrosPerRequest));
    if (!Number.isFinite(paired.median)) continue;
    const verdict = paired.median >= t.min ? 'PASS' : 'MISS';
    console.log(`  [${verdict}] ${t.name} = ${paired.median.toFixed(2)} (≥ ${t.min.toFixed(2)}; rounds ${paired.min.toFixed(2)}–${paired.max.toFixed(2)}); by server CPU time ${byCpu.median.toFixed(2)}`);
  }
  if (fork.cpuProfDir !== undefined) printCpuProfiles(fork.cpuProfDir);
}

export const notFoundSection: BenchSection = {
  name: 'notfound',
  description: 'the 404 path (debug off, debug on with SQLite profiles), a 405 and a plain route vs bare Express (forked servers, loopback)',
  run,
};
