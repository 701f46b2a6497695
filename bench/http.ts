/**
 * HTTP section (issue 3 §9): whole-stack throughput and latency over the loopback, autocannon
 * (in this process) against servers forked into their own processes (`bench/servers/server.ts`),
 * so the load generator and the server each have a core.
 *
 * Cells, each answering a small JSON body:
 * - express: bare Express 5, `GET /` → `res.json({ ok: true })`;
 * - fastify: bare Fastify 5, `GET /` → `{ ok: true }` (the same body; a peer, for scale);
 * - express+helmet+cors+session: the same behind helmet(), cors() and express-session on our
 *   SqliteSessionStore (temp file; saveUninitialized false, resave false);
 * - kernel-full: `createDemoKernel({ debug: false, environment: 'bench', sqlitePath })`, `GET /api`;
 * - kernel ladder: `createKernel` with the demo routes and the layers switched on one by one
 *   (none with securityHeaders: false, + securityHeaders, + cors, + session, + security (the
 *   demo's firewall), + locale, + timeZone), `GET /api`.
 * Requests carry no cookie, no Origin and no credentials: the common anonymous API request.
 *
 * Options (after `npm run bench -- http`):
 *   --connections=50    autocannon connections
 *   --duration=3        measured seconds per cell
 *   --warmup=1.5        warm-up seconds per cell (same load, not measured)
 *   --rounds=5          rounds; each round forks every server anew, the median is reported; the
 *                       targets' verdicts are on the median of per-round ratios (see pairedRatios)
 *   --cells=a,b,c,d     which groups to run (a express and fastify, b express stack, c kernel-full, d ladder)
 *   --cpu-prof[=DIR]    fork the servers under `node --cpu-prof` and print a summary of each
 *                       profile (top self-time functions, src/ inclusive time)
 */
import {
  checkStatuses, recordRound, expectJson, forkOptionsFrom, load, loadavg, medianOf, pairedRatios, printTable,
  startServer, tempFolder, type LoadResult,
} from './httpHarness';
import { printCpuProfiles } from './httpCpuProfile';
import { option } from './harness';
import type { BenchSection } from './run';
import { LADDER, type ServerConfig } from './servers/config';

/** Targets (informational). */
const TARGET_VS_STACK = 1.4;
const TARGET_VS_BARE = 0.7;

interface Cell {
  readonly id: string;
  readonly group: 'a' | 'b' | 'c' | 'd';
  readonly label: string;
  readonly path: string;
  config(tmp: (name: string) => string): ServerConfig;
}

const LADDER_LABELS = ['none (securityHeaders: false)', ...LADDER.map((s) => `+ ${s}`)];

const CELLS: readonly Cell[] = [
  { id: 'express', group: 'a', label: 'express (bare)', path: '/', config: () => ({ kind: 'express-bare' }) },
  { id: 'fastify', group: 'a', label: 'fastify (bare)', path: '/', config: () => ({ kind: 'fastify-bare' }) },
  { id: 'stack', group: 'b', label: 'express+helmet+cors+session', path: '/', config: (tmp) => ({ kind: 'express-stack', sqlitePath: tmp('stack.sqlite') }) },
  { id: 'kernel-full', group: 'c', label: 'kernel-full (demo, debug off)', path: '/api', config: (tmp) => ({ kind: 'demo', debug: false, environment: 'bench', sqlitePath: tmp('demo.sqlite') }) },
  ...LADDER_LABELS.map((label, layers): Cell => ({
    id: `ladder-${layers}`,
    group: 'd',
    label: `kernel ${label}`,
    path: '/api',
    config: (tmp) => ({ kind: 'ladder', layers, sqlitePath: tmp(`ladder-${layers}.sqlite`) }),
  })),
];

async function run(args: readonly string[]): Promise<void> {
  const connections = Number(option(args, 'connections') ?? 50);
  const duration = Number(option(args, 'duration') ?? 3);
  const warmup = Number(option(args, 'warmup') ?? 1.5);
  const rounds = Number(option(args, 'rounds') ?? 5);
  const groups = (option(args, 'cells') ?? 'a,b,c,d').split(',');
  const fork = forkOptionsFrom(args, 'http');
  const cells = CELLS.filter((c) => groups.includes(c.group));
  const tmp = tempFolder('http');

  console.log(`autocannon 9 in this process → one forked server per cell on 127.0.0.1; -c ${connections}, ${warmup} s warm-up + ${duration} s measured per cell, ${rounds} round(s) (median)`);
  console.log('requests: GET, keep-alive, no cookie / Origin / credentials; every response checked (200 JSON)');
  if (fork.cpuProfDir !== undefined) console.log(`servers run under --cpu-prof (slower): profiles in ${fork.cpuProfDir}`);
  console.log(`load average at start: ${loadavg()}\n`);

  const results = new Map<string, LoadResult[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const cell of cells) {
        const label = rounds > 1 ? `${cell.id}-r${round + 1}` : cell.id;
        const server = await startServer(label, cell.config(tmp.file), fork);
        try {
          await expectJson(server, cell.path, 200);
          if (warmup > 0) {
            const warm = await load(server, { path: cell.path, connections, duration: warmup, warmup: true });
            checkStatuses(cell.label, warm, 200);
          }
          const r = await load(server, { path: cell.path, connections, duration });
          checkStatuses(cell.label, r, 200);
          recordRound(results, cell.id, round, cell.label.padEnd(38), r);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    tmp.cleanup();
  }

  const rps = (id: string): number => medianOf(results.get(id)?.map((r) => r.rps) ?? [NaN]);
  const p99 = (id: string): number => medianOf(results.get(id)?.map((r) => r.p99) ?? [NaN]);
  const cpu = (id: string): number => medianOf(results.get(id)?.map((r) => r.cpuMicrosPerRequest) ?? [NaN]);
  const bare = rps('express');
  const rows = cells.map((c) => [
    c.label,
    Math.round(rps(c.id)).toLocaleString('en-US'),
    String(p99(c.id)),
    Number.isFinite(bare) ? (rps(c.id) / bare).toFixed(2) : '-',
    cpu(c.id).toFixed(0),
    Number.isFinite(cpu('express')) ? (cpu('express') / cpu(c.id)).toFixed(2) : '-',
  ]);
  console.log(`\nload average at end: ${loadavg()}`);
  console.log('req/s and p99: medians over rounds; server CPU: the server process\'s user+system CPU time per response (robust to other load on the machine)\n');
  printTable(['server', 'req/s', 'p99 ms', 'vs express', 'server CPU µs/req', 'vs express (CPU)'], rows);

  const ladder = cells.filter((c) => c.group === 'd');
  if (ladder.length > 1) {
    console.log('\nkernel ladder: what each layer adds');
    const steps = ladder.slice(1).map((c, i) => {
      const before = ladder[i].id;
      return [
        c.label,
        Math.round(rps(c.id)).toLocaleString('en-US'),
        `${(100 * (rps(c.id) / rps(before) - 1)).toFixed(1)}%`,
        (1e6 / rps(c.id) - 1e6 / rps(before)).toFixed(1),
        (cpu(c.id) - cpu(before)).toFixed(1),
      ];
    });
    printTable(['step', 'req/s', 'Δ req/s', 'Δ µs/req (from req/s)', 'Δ server CPU µs/req'], steps);
  }

  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  console.log('\ntargets (informational; verdict on the median of per-round req/s ratios, the cells of a round run back to back):');
  /** `min` undefined: no target, the ratio is printed for scale. */
  const target = (name: string, num: string, den: string, min?: number): void => {
    const list = (id: string, f: (r: LoadResult) => number): number[] => results.get(id)?.map(f) ?? [];
    const paired = pairedRatios(list(num, (r) => r.rps), list(den, (r) => r.rps));
    const pairedCpu = pairedRatios(list(den, (r) => r.cpuMicrosPerRequest), list(num, (r) => r.cpuMicrosPerRequest));
    if (!Number.isFinite(paired.median)) return;
    const against = min === undefined ? '[info]' : `[${verdict(paired.median >= min)}]`;
    console.log(`  ${against} ${name} = ${paired.median.toFixed(2)} (${min === undefined ? 'no target' : `≥ ${min}`}; rounds ${paired.min.toFixed(2)}–${paired.max.toFixed(2)}); ratio of medians ${(rps(num) / rps(den)).toFixed(2)}; by server CPU time ${pairedCpu.median.toFixed(2)} (ratio of medians ${(cpu(den) / cpu(num)).toFixed(2)})`);
  };
  target('kernel-full / (express+helmet+cors+session)', 'kernel-full', 'stack', TARGET_VS_STACK);
  target('kernel-full / express (bare)', 'kernel-full', 'express', TARGET_VS_BARE);
  target('kernel-full / fastify (bare)', 'kernel-full', 'fastify');
  if (fork.cpuProfDir !== undefined) printCpuProfiles(fork.cpuProfDir);
}

export const httpSection: BenchSection = {
  name: 'http',
  description: 'autocannon: bare Express 5, bare Fastify 5, Express+helmet+cors+session, the demo kernel, and the kernel layer by layer (forked servers, loopback)',
  run,
};
