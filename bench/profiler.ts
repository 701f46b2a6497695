/**
 * Profiler section (issue 4 §7): what the web profiler costs, and whether a flood keeps memory
 * and the store within bounds. autocannon in this process; the servers forked
 * (`bench/servers/server.ts`), on 127.0.0.1.
 *
 * 1. Overhead: the demo kernel in debug mode with the profiler off (`createKernel` as
 *    `createDemoKernel` builds it, with `profiler: { enabled: false }`) vs on, storing in SQLite
 *    (`createDemoKernel({ profilerStorage: createProfilerStorage({ sqlitePath: tmp, caps }) })`),
 *    on the 404 path (`GET /nope`) and on a JSON route (`GET /api`): req/s, p99, ratio on/off.
 * 2. Flood: a fresh profiler-on server (forked with `--expose-gc`) takes 100,000 requests to
 *    distinct 404 paths (`/nope/<n>`, autocannon `amount`). Its RSS is read over IPC (after a
 *    full GC) before and after, and sampled during the flood; the verdict is on the RSS once it
 *    settles (a GC each second until it stops falling, 10 s at most: V8 returns freed pages a
 *    few seconds after the load stops), the reading right after the flood's GC printed beside
 *    it. Then the SQLite file is opened read-only here for the store's profile count and total
 *    bytes, checked against its caps.
 *
 * Options (after `npm run bench -- profiler`):
 *   --connections=50      autocannon connections
 *   --duration=3          measured seconds per overhead cell
 *   --warmup=1.5          warm-up seconds per overhead cell
 *   --rounds=5            overhead rounds (servers forked anew each round; median reported; the
 *                         verdicts are on the median of per-round on/off ratios, see pairedRatios)
 *   --flood=100000        requests in the flood (0: no flood)
 *   --max-profiles=1000   the store's maxProfiles
 *   --max-bytes=10485760  the store's maxBytes
 *   --cpu-prof[=DIR]      fork the servers under `node --cpu-prof` and print profile summaries
 */
import Database from 'better-sqlite3';
import * as fs from 'node:fs';
import {
  checkStatuses, recordRound, expectJson, expectStatus, forkOptionsFrom, load, loadavg, medianOf, mib, pairedRatios,
  printTable,
  startServer, tempFolder, type BenchServer, type LoadResult,
} from './httpHarness';
import { printCpuProfiles } from './httpCpuProfile';
import { option } from './harness';
import type { BenchSection } from './run';
import type { BenchCaps, ServerConfig } from './servers/config';

/** Targets (informational). */
const TARGET_ON_OFF = 0.6;
const TARGET_RSS_GROWTH_MB = 64;

const PATHS = [
  { id: '404', path: '/nope', status: 404 as const },
  { id: 'json', path: '/api', status: 200 as const },
];

async function run(args: readonly string[]): Promise<void> {
  const connections = Number(option(args, 'connections') ?? 50);
  const duration = Number(option(args, 'duration') ?? 3);
  const warmup = Number(option(args, 'warmup') ?? 1.5);
  const rounds = Number(option(args, 'rounds') ?? 5);
  const flood = Number(option(args, 'flood') ?? 100_000);
  const caps: BenchCaps = {
    maxProfiles: Number(option(args, 'max-profiles') ?? 1000),
    maxBytes: Number(option(args, 'max-bytes') ?? 10 * 1024 * 1024),
  };
  const fork = forkOptionsFrom(args, 'profiler');
  const tmp = tempFolder('profiler');

  console.log(`demo kernel, debug on (environment dev); profiler off vs on (SQLite store, maxProfiles ${caps.maxProfiles}, maxBytes ${caps.maxBytes.toLocaleString('en-US')})`);
  console.log(`autocannon 9 in this process → forked server on 127.0.0.1; -c ${connections}, ${warmup} s warm-up + ${duration} s measured per cell, ${rounds} round(s) (median)`);
  if (fork.cpuProfDir !== undefined) console.log(`servers run under --cpu-prof (slower): profiles in ${fork.cpuProfDir}`);
  console.log(`load average at start: ${loadavg()}\n`);

  const configs: Record<'off' | 'on', (cell: string) => ServerConfig> = {
    off: (cell) => ({ kind: 'demo-profiler-off', sqlitePath: tmp.file(`off-${cell}.sqlite`) }),
    on: (cell) => ({ kind: 'demo', debug: true, sqlitePath: tmp.file(`on-${cell}.sqlite`), profilerSqlite: tmp.file(`profiles-${cell}.sqlite`), caps }),
  };
  const results = new Map<string, LoadResult[]>();
  const key = (mode: string, id: string): string => `${mode}|${id}`;
  try {
    for (let round = 0; round < rounds; round++) {
      for (const p of PATHS) {
        for (const mode of ['off', 'on'] as const) {
          // A fresh server per cell, so a --cpu-prof profile covers one path.
          const label = `profiler-${mode}-${p.id}${rounds > 1 ? `-r${round + 1}` : ''}`;
          const server = await startServer(label, configs[mode](`${round}-${p.id}`), fork);
          try {
            const r0 = p.status === 200
              ? await expectJson(server, p.path, 200)
              : await expectStatus(server, p.path, p.status);
            const token = r0.headers['x-debug-token'];
            if ((mode === 'on') !== (token !== undefined)) throw new Error(`profiler ${mode}: GET ${p.path} ${token === undefined ? 'has no' : 'has an'} X-Debug-Token`);
            if (warmup > 0) checkStatuses(`${mode} ${p.path}`, await load(server, { path: p.path, connections, duration: warmup, warmup: true }), p.status);
            const r = await load(server, { path: p.path, connections, duration });
            checkStatuses(`${mode} ${p.path}`, r, p.status);
            recordRound(results, key(mode, p.id), round, `profiler ${mode.padEnd(3)} GET ${p.path.padEnd(6)}`, r);
          } finally {
            await server.stop();
          }
        }
      }
    }

    const rps = (mode: string, id: string): number => medianOf(results.get(key(mode, id))?.map((r) => r.rps) ?? [NaN]);
    const p99 = (mode: string, id: string): number => medianOf(results.get(key(mode, id))?.map((r) => r.p99) ?? [NaN]);
    const cpu = (mode: string, id: string): number =>
      medianOf(results.get(key(mode, id))?.map((r) => r.cpuMicrosPerRequest) ?? [NaN]);
    console.log(`\nload average after the overhead runs: ${loadavg()}`);
    console.log('req/s and p99: medians over rounds; CPU: the server process\'s user+system CPU µs per response (robust to other load on the machine)\n');
    printTable(
      ['path', 'off req/s', 'off p99 ms', 'on req/s', 'on p99 ms', 'on/off', 'off CPU µs', 'on CPU µs', 'on/off (CPU)'],
      PATHS.map((p) => [
        `GET ${p.path} (${p.status})`,
        Math.round(rps('off', p.id)).toLocaleString('en-US'),
        String(p99('off', p.id)),
        Math.round(rps('on', p.id)).toLocaleString('en-US'),
        String(p99('on', p.id)),
        (rps('on', p.id) / rps('off', p.id)).toFixed(2),
        cpu('off', p.id).toFixed(0),
        cpu('on', p.id).toFixed(0),
        (cpu('off', p.id) / cpu('on', p.id)).toFixed(2),
      ]),
    );

    const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
    console.log('\ntargets (informational; verdict on the median of per-round on/off req/s ratios, off and on run back to back):');
    for (const p of PATHS) {
      const list = (mode: string, f: (r: LoadResult) => number): number[] => results.get(key(mode, p.id))?.map(f) ?? [];
      const paired = pairedRatios(list('on', (r) => r.rps), list('off', (r) => r.rps));
      const pairedCpu = pairedRatios(list('off', (r) => r.cpuMicrosPerRequest), list('on', (r) => r.cpuMicrosPerRequest));
      console.log(`  [${verdict(paired.median >= TARGET_ON_OFF)}] profiler on/off, GET ${p.path}: ${paired.median.toFixed(2)} (≥ ${TARGET_ON_OFF}; rounds ${paired.min.toFixed(2)}–${paired.max.toFixed(2)}); ratio of medians ${(rps('on', p.id) / rps('off', p.id)).toFixed(2)}; by server CPU time ${pairedCpu.median.toFixed(2)} (ratio of medians ${(cpu('off', p.id) / cpu('on', p.id)).toFixed(2)})`);
    }

    if (flood > 0) await runFlood(flood, connections, caps, tmp.file('flood-profiles.sqlite'), tmp.file('flood.sqlite'), fork, verdict);
  } finally {
    tmp.cleanup();
  }
  if (fork.cpuProfDir !== undefined) printCpuProfiles(fork.cpuProfDir);
}

async function runFlood(
  amount: number,
  connections: number,
  caps: BenchCaps,
  profilesFile: string,
  sqlitePath: string,
  fork: ReturnType<typeof forkOptionsFrom>,
  verdict: (ok: boolean) => string,
): Promise<void> {
  console.log(`\nflood: ${amount.toLocaleString('en-US')} requests to distinct 404 paths (/nope/<n>), -c ${connections}, against a fresh profiler-on server (forked with --expose-gc)`);
  const server: BenchServer = await startServer('profiler-flood', { kind: 'demo', debug: true, sqlitePath, profilerSqlite: profilesFile, caps }, { ...fork, exposeGc: true });
  let r: LoadResult;
  let before: Awaited<ReturnType<BenchServer['memory']>>;
  let after: Awaited<ReturnType<BenchServer['memory']>>;
  let afterNoGc: Awaited<ReturnType<BenchServer['memory']>>;
  let settled: Awaited<ReturnType<BenchServer['memory']>>;
  let peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 };
  try {
    before = await server.memory(true);
    let n = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const m = await server.memory(false);
        if (m.rss > peak.rss) peak = m;
        await new Promise((res) => setTimeout(res, 500));
      }
    })();
    const t0 = Date.now();
    r = await load(server, { path: () => `/nope/${++n}`, connections, amount });
    const seconds = (Date.now() - t0) / 1000;
    sampling = false;
    await sampler;
    checkStatuses('flood', r, 404);
    await new Promise((res) => setTimeout(res, 500)); // let the last profiles be written
    afterNoGc = await server.memory(false);
    if (afterNoGc.rss > peak.rss) peak = afterNoGc;
    after = await server.memory(true);
    // V8 gives freed heap pages back to the system a few seconds after the load stops (its
    // memory reducer): read again, after a GC each second, until RSS stops falling (10 s at most)
    settled = after;
    for (let i = 0; i < 10; i++) {
      await new Promise((res) => setTimeout(res, 1000));
      const m = await server.memory(true);
      const falling = m.rss < settled.rss - 1024 * 1024;
      if (m.rss < settled.rss) settled = m;
      if (!falling && i >= 2) break;
    }
    console.log(`  ${r.total.toLocaleString('en-US')} responses (${r.status4xx.toLocaleString('en-US')} 4xx) in ${seconds.toFixed(1)} s: ${Math.round(r.total / seconds).toLocaleString('en-US')} req/s, p99 ${r.p99} ms`);
  } finally {
    await server.stop();
  }

  // The store, as a reader sees it: the server has closed it (WAL checkpointed).
  const db = new Database(profilesFile, { readonly: true, fileMustExist: true });
  let count: number;
  let bytes: number;
  try {
    const row = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(size_bytes), 0) AS bytes, COALESCE(SUM(LENGTH(CAST(profile AS BLOB))), 0) AS json FROM profiler_profiles').get() as { n: number; bytes: number; json: number };
    count = row.n;
    bytes = row.bytes;
    if (row.json !== row.bytes) console.log(`  note: size_bytes total ${row.bytes} ≠ the profiles' UTF-8 JSON length ${row.json}`);
  } finally {
    db.close();
  }
  const fileBytes = ['', '-wal', '-shm'].reduce((s, ext) => s + (fs.existsSync(profilesFile + ext) ? fs.statSync(profilesFile + ext).size : 0), 0);

  const growth = settled.rss - before.rss;
  console.log('');
  printTable(
    ['server memory', 'RSS MiB', 'V8 heap total MiB', 'heap used MiB', 'external MiB'],
    [
      ['before the flood (fresh, after GC)', mib(before.rss), mib(before.heapTotal), mib(before.heapUsed), mib(before.external)],
      ['after the flood, no GC', mib(afterNoGc.rss), mib(afterNoGc.heapTotal), mib(afterNoGc.heapUsed), mib(afterNoGc.external)],
      ['after the flood, after GC', mib(after.rss), mib(after.heapTotal), mib(after.heapUsed), mib(after.external)],
      ['after the flood, settled (GC each second, ≤ 10 s idle)', mib(settled.rss), mib(settled.heapTotal), mib(settled.heapUsed), mib(settled.external)],
      ['peak RSS sampled (every 0.5 s) during the flood', mib(peak.rss), mib(peak.heapTotal), mib(peak.heapUsed), mib(peak.external)],
    ],
  );
  console.log('');
  printTable(
    ['profiler store (SQLite, read-only)', 'value', 'cap'],
    [
      ['profiles', count.toLocaleString('en-US'), caps.maxProfiles.toLocaleString('en-US')],
      ['bytes (sum of size_bytes)', bytes.toLocaleString('en-US'), caps.maxBytes.toLocaleString('en-US')],
      ['file on disk (db + wal + shm)', fileBytes.toLocaleString('en-US'), '-'],
    ],
  );
  const growthMb = growth / (1024 * 1024);
  const peakGrowthMb = (peak.rss - before.rss) / (1024 * 1024);
  console.log('\nflood targets (informational):');
  console.log(`  [${verdict(growthMb < TARGET_RSS_GROWTH_MB)}] RSS growth over the flood (settled): ${growthMb.toFixed(1)} MiB (< ${TARGET_RSS_GROWTH_MB}); right after a GC: +${((after.rss - before.rss) / (1024 * 1024)).toFixed(1)} MiB; without GC: +${((afterNoGc.rss - before.rss) / (1024 * 1024)).toFixed(1)} MiB; peak during the flood: +${peakGrowthMb.toFixed(1)} MiB`);
  console.log(`  [${verdict(count <= caps.maxProfiles && bytes <= caps.maxBytes)}] store within its caps: ${count.toLocaleString('en-US')} ≤ ${caps.maxProfiles.toLocaleString('en-US')} profiles, ${bytes.toLocaleString('en-US')} ≤ ${caps.maxBytes.toLocaleString('en-US')} bytes`);
}

export const profilerSection: BenchSection = {
  name: 'profiler',
  description: 'web profiler on (SQLite) vs off on 404 and JSON routes, then a 100k-request 404 flood: RSS growth and store caps',
  run,
};
