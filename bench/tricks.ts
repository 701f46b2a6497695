/**
 * Tricks section (issue 12 §5): each speed trick of the code measured with and without it, in
 * one process, interleaved, so the machine's drift hits both sides alike.
 *
 * Micro part (default): the same function from up to three builds of the code, loaded side by
 * side (each build has its own module state, so its own caches):
 * - `with`: a build that still has every trick (`--with=DIR`, the `build` folder of a copy
 *   compiled before issue 12 §5, see docs/benchmarks/speed-tricks.md for the commands);
 * - `without`: a build with every trick taken out (`--without=DIR`), optional;
 * - `now`: this build (what the code does today: a trick kept, or taken out).
 * Each round measures every variant of a case, in a rotating order; the table gives the median
 * ns/op and the median of the per-round ratios to `with`.
 *
 * HTTP part (`--http`): the full kernel ladder (`createKernel` with every layer, debug off,
 * `GET /api`) forked from the `with` build as it is, and without one trick at a time (see
 * `TrickVariant` in bench/servers/config.ts), beside bare Express, interleaved per round; the
 * verdict is on the per-round ratio of server CPU time per request (robust to other load).
 *
 * Options (after `npm run bench -- tricks`):
 *   --with=DIR       build with the tricks @default /tmp/ek-tricks-base/build
 *   --without=DIR    build without them (optional)
 *   --cases=a,b      micro cases to run (names below) @default all
 *   --rounds=9       rounds (micro) / 5 (http)
 *   --time=150       minimum milliseconds per micro measurement
 *   --http           run the HTTP part instead (--duration=3 --warmup=1.5 --connections=50)
 *   --ops=N --variant=LABEL   run exactly N operations of one variant of --cases, untimed: under
 *                    `valgrind --tool=callgrind`, the instruction totals of N and 2N operations
 *                    differ by the cost of N (see docs/benchmarks/speed-tricks.md)
 *   --count          count the servers' instructions per request under callgrind instead
 *                    (--requests=2000 --warm=1000 --rounds=2 --cells=0,1,2,3), for a loaded machine
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { MemoryStore } from 'express-session';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { checksum, formatNs, measure, median, option, type Runner } from './harness';
import {
  checkStatuses, expectJson, load, loadavg, medianOf, pairedRatios, printTable, probe, startServer, tempFolder,
  type BenchServer, type LoadResult,
} from './httpHarness';
import type { BenchSection } from './run';
import type { ServerConfig, TrickVariant } from './servers/config';

type Build = 'with' | 'without' | 'now';
/** Loads a module of a build: `mod('src/http/RequestUri')`. */
type Loader = (module: string) => Record<string, unknown>;

/** One micro case: a runner per variant (a variant may be missing from a build). */
interface Case {
  readonly name: string;
  readonly trick: string;
  variants(load: (build: Build) => Loader | undefined): Map<string, Runner>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const requireFrom = (root: string): Loader => (module) => require(path.join(root, module)) as Record<string, unknown>;

type Fn = (...args: never[]) => unknown;
const fn = <T extends Fn>(m: Record<string, unknown>, name: string): T => m[name] as T;

/** A runner per build that has the module, made by `make` from that build's loader. */
function perBuild(
  load: (build: Build) => Loader | undefined,
  make: (mod: Loader) => Runner | undefined,
): Map<string, Runner> {
  const out = new Map<string, Runner>();
  for (const build of ['with', 'without', 'now'] as const) {
    const mod = load(build);
    if (mod === undefined) continue;
    try {
      const runner = make(mod);
      if (runner !== undefined) out.set(build, runner);
    } catch {
      // the build does not have this function: no variant
    }
  }
  return out;
}

function response(): Response {
  const req = new IncomingMessage(new Socket());
  return new ServerResponse(req) as unknown as Response;
}

const ADDRESSES = ['127.0.0.1', '10.1.2.3', '203.0.113.7', '::1', '198.51.100.20', '10.9.8.7'];
const LANGUAGES = ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.8', 'fr-FR,fr;q=0.9', 'es-ES,es;q=0.9,en;q=0.5'];
const HEADERS: ReadonlyArray<[string, string]> = [
  ['host', 'api.example.com'],
  ['accept', 'application/json, text/plain, */*'],
  ['user-agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'],
  ['accept-language', 'fr-CH, fr;q=0.9, en;q=0.8'],
  ['content-type', 'application/json; charset=utf-8'],
  ['strict-transport-security', 'max-age=31536000; includeSubDomains'],
  ['content-security-policy', "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline';upgrade-insecure-requests"],
  ['x-content-type-options', 'nosniff'],
  ['referer', 'https://app.example.com/books?page=2'],
];

const CASES: readonly Case[] = [
  {
    name: 'helmet',
    trick: 'helmet header recorder (securityHeaders) vs helmet() per request',
    variants: (load) => {
      const out = perBuild(load, (mod) => runHandler(fn<(o: object) => RequestHandler>(mod('src/http/securityHeaders'), 'securityHeaders')({})));
      out.set('helmet()', runHandler(helmet({})));
      return out;
    },
  },
  {
    name: 'trust',
    trick: 'compileTrust answer cache (trusted proxies set)',
    variants: (load) => {
      const out = perBuild(load, (mod) => {
        const trust = fn<(p: string[]) => (a: string, h: number) => boolean>(mod('src/http/RequestUri'), 'compileTrust')(['loopback', '10.0.0.0/8']);
        return sum((i) => (trust(ADDRESSES[i % ADDRESSES.length], 0) ? 1 : 0));
      });
      return out;
    },
  },
  {
    name: 'authority',
    trick: 'resolveRequestUri authority cache (Host header, no trusted proxy)',
    variants: (load) => perBuild(load, (mod) => {
      const m = mod('src/http/RequestUri');
      const resolve = fn<(r: unknown, t: unknown) => { port: number }>(m, 'resolveRequestUri');
      const trust = fn<(p: string[]) => unknown>(m, 'compileTrust')([]);
      const reqs = ['api.example.com', 'localhost:8080', 'www.example.org'].map((host) => ({
        socket: { remoteAddress: '203.0.113.7' }, headers: { host }, url: '/api/books/1?page=2', baseUrl: '',
      }));
      return sum((i) => resolve(reqs[i % reqs.length], trust).port);
    }),
  },
  {
    name: 'formatter',
    trick: 'formatInTimeZone Intl.DateTimeFormat cache',
    variants: (load) => perBuild(load, (mod) => {
      const format = fn<(d: number, r: unknown) => string>(mod('src/timezone/formatInTimeZone'), 'formatInTimeZone');
      const reqs = [{ locale: 'fr', timeZone: 'Europe/Paris' }, { locale: 'en', timeZone: 'America/New_York' }, { locale: 'de_DE', timeZone: 'UTC' }];
      return sum((i) => format(1_700_000_000_000 + i, reqs[i % reqs.length]).length);
    }),
  },
  {
    name: 'redaction',
    trick: 'redactHeader clean-pair cache (profiler)',
    variants: (load) => perBuild(load, (mod) => {
      const redact = fn<(n: string, v: string) => string>(mod('src/profiler/redaction'), 'redactHeader');
      return sum((i) => redact(...HEADERS[i % HEADERS.length]).length);
    }),
  },
  {
    name: 'negotiator',
    trick: 'createLocaleNegotiator result cache per Accept-Language value',
    variants: (load) => perBuild(load, (mod) => {
      const negotiate = fn<(l: string[]) => (h: string) => string | undefined>(mod('src/locale/acceptLanguage'), 'createLocaleNegotiator')(['en', 'fr', 'de']);
      return sum((i) => (negotiate(LANGUAGES[i % LANGUAGES.length]) ?? '').length);
    }),
  },
  {
    name: 'sourcemaps',
    trick: 'sourceMappedStack source map cache (debug exception pages)',
    variants: (load) => perBuild(load, (mod) => {
      const mapped = fn<(s: string, m: string) => string>(mod('src/support/sourceMaps'), 'sourceMappedStack');
      // a RangeError thrown through a compiled module (routing errors of a miss carry no stack)
      let error: Error | undefined;
      try { fn<(l: string) => string>(mod('src/locale/acceptLanguage'), 'toLanguageTag')('!!'); } catch (e) { error = e as Error; }
      if (error === undefined) return undefined;
      const { stack = '', message } = error;
      return sum(() => mapped(stack, message).length);
    }),
  },
  {
    name: 'router404',
    trick: 'router layer: tryMatch (no throw) vs match + catch, on a 404',
    variants: (load) => {
      const out = new Map<string, Runner>();
      const mod = load('with');
      if (mod === undefined) return out;
      const routing = mod('src/routing/index');
      const routes = new (routing.RouteCollection as new () => { add(n: string, r: object): unknown })();
      const RouteClass = routing.Route as new (p: string) => object;
      for (const p of ['/api', '/api/books', '/api/books/{id}', '/admin', '/login']) routes.add(p, new RouteClass(p));
      const matcher = new (routing.UrlMatcher as new (c: object) => { match(p: string, c: object): unknown })(routes);
      const layer = fn<(m: object, r: object) => RequestHandler>(mod('src/kernel/routerMiddleware'), 'routerMiddleware');
      out.set('tryMatch', runRouter(layer(matcher, routes)));
      out.set('match+catch', runRouter(layer({ match: (p: string, c: object) => matcher.match(p, c) }, routes)));
      return out;
    },
  },
  {
    name: 'createSession',
    trick: 'sessionLayer wraps store.createSession (a WeakSet of loaded sessions)',
    variants: () => {
      const data = { cookie: { originalMaxAge: null, expires: null, httpOnly: true, path: '/' }, user: 'admin' };
      const plain = new MemoryStore();
      const wrapped = new MemoryStore();
      const loaded = new WeakSet<object>();
      const create = wrapped.createSession.bind(wrapped);
      wrapped.createSession = (req, sess) => { loaded.add(req); return create(req, sess); };
      const run = (store: MemoryStore): Runner => (ops) => {
        let n = 0;
        for (let i = 0; i < ops; i++) {
          const req = { sessionID: 'abc', sessionStore: store } as unknown as Request;
          n += store.createSession(req, data as never).id.length;
        }
        return n;
      };
      return new Map([['wrapped', run(wrapped)], ['plain', run(plain)]]);
    },
  },
];

/** A runner adding up `f(i)` for each operation `i`. */
function sum(f: (i: number) => number): Runner {
  return (ops) => {
    let n = 0;
    for (let i = 0; i < ops; i++) n += f(i);
    return n;
  };
}

function runHandler(handler: RequestHandler): Runner {
  const res = response();
  const req = { headers: {}, method: 'GET', url: '/' } as Request;
  let calls = 0;
  const next: NextFunction = () => { calls++; };
  return (ops) => { for (let i = 0; i < ops; i++) void handler(req, res, next); return calls; };
}

function runRouter(handler: RequestHandler): Runner {
  let n = 0;
  const next: NextFunction = (err?: unknown) => { if (err !== undefined) n++; };
  return (ops) => {
    for (let i = 0; i < ops; i++) {
      const req = {
        headers: {},
        kernel: { method: 'GET', uri: { scheme: 'http', host: 'localhost', schemeAndHttpHost: 'http://localhost', baseUrl: '', pathInfo: `/missing/${i & 7}`, queryString: '' } },
      } as unknown as Request;
      void handler(req, {} as Response, next);
    }
    return n;
  };
}

async function runMicro(args: readonly string[]): Promise<void> {
  const rounds = Number(option(args, 'rounds') ?? 9);
  const minTimeNs = Number(option(args, 'time') ?? 150) * 1e6;
  const dirs: Partial<Record<Build, string>> = {
    with: path.resolve(option(args, 'with') ?? '/tmp/ek-tricks-base/build'),
    without: option(args, 'without') === undefined ? undefined : path.resolve(option(args, 'without')!),
    now: path.resolve(__dirname, '..'),
  };
  for (const [build, dir] of Object.entries(dirs)) {
    if (dir !== undefined && !fs.existsSync(path.join(dir, 'src'))) throw new Error(`--${build}: no compiled src/ in ${dir}`);
  }
  const loaders = new Map<Build, Loader>();
  for (const [build, dir] of Object.entries(dirs) as Array<[Build, string | undefined]>) {
    if (dir !== undefined) loaders.set(build, requireFrom(dir));
  }
  const wanted = option(args, 'cases')?.split(',');
  const cases = CASES.filter((c) => wanted === undefined || wanted.includes(c.name));
  const ops = option(args, 'ops');
  if (ops !== undefined) {
    // for callgrind: exactly `ops` operations of one variant, no clock (see --ops in the header)
    const only = option(args, 'variant');
    let total = 0;
    for (const c of cases) {
      for (const [label, run] of c.variants((b) => loaders.get(b))) if (label === only) total += await run(Number(ops));
    }
    console.log(`checksum ${total}`);
    return;
  }
  console.log(`builds: ${Object.entries(dirs).filter(([, d]) => d !== undefined).map(([b, d]) => `${b}=${d}`).join('  ')}`);
  console.log(`${rounds} rounds per case, each variant ≥ ${minTimeNs / 1e6} ms per round, order rotating; load average ${loadavg()}\n`);
  const rows: string[][] = [];
  for (const c of cases) {
    const variants = [...c.variants((b) => loaders.get(b)).entries()];
    const samples = new Map<string, number[]>(variants.map(([label]) => [label, []]));
    for (const [, run] of variants) await measure(run, { minTimeNs: 20e6, minOps: 1000, maxTimeNs: 200e6 });
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < variants.length; k++) {
        const [label, run] = variants[(k + r) % variants.length];
        samples.get(label)!.push((await measure(run, { minTimeNs, minOps: 200, maxTimeNs: 5 * minTimeNs })).nsPerOp);
      }
    }
    const [baseLabel] = variants[0];
    const base = samples.get(baseLabel)!;
    for (const [label] of variants) {
      const list = samples.get(label)!;
      const ratios = list.map((ns, i) => ns / base[i]);
      rows.push([c.name, label, formatNs(median(list)), `${formatNs(Math.min(...list))}–${formatNs(Math.max(...list))}`, label === baseLabel ? '1.00' : median(ratios).toFixed(2)]);
    }
    console.log(`  ${c.name}: ${c.trick}`);
  }
  console.log('');
  printTable(['case', 'variant', 'ns/op (median)', 'range', `ns/op ÷ first variant (median of rounds)`], rows);
  console.log(`\nchecksum ${checksum()}`);
}

async function runHttp(args: readonly string[]): Promise<void> {
  const connections = Number(option(args, 'connections') ?? 50);
  const duration = Number(option(args, 'duration') ?? 3);
  const warmup = Number(option(args, 'warmup') ?? 1.5);
  const rounds = Number(option(args, 'rounds') ?? 5);
  const root = path.resolve(option(args, 'with') ?? '/tmp/ek-tricks-base/build');
  const script = path.join(root, 'bench', 'servers', 'server.js');
  if (!fs.existsSync(script)) throw new Error(`--with: no ${script} (compile the copy with tsconfig.bench.json)`);
  const ladder = (without?: TrickVariant) => (tmp: (n: string) => string): ServerConfig => ({ kind: 'ladder', layers: 6, sqlitePath: tmp(`l-${without ?? 'all'}.sqlite`), without });
  type Tmp = (n: string) => string;
  const cells: Array<{ id: string; path: string; script?: string; config: (tmp: Tmp) => ServerConfig }> = [
    { id: 'express (bare)', path: '/', config: () => ({ kind: 'express-bare' }) },
    { id: 'kernel, every trick', path: '/api', script, config: ladder() },
    { id: 'kernel without request slots', path: '/api', script, config: ladder('request-slots') },
    { id: 'kernel without helmet recorder', path: '/api', script, config: ladder('helmet-recorder') },
    { id: 'kernel now (this build)', path: '/api', config: ladder() },
  ];
  console.log(`with = ${root}; -c ${connections}, ${warmup} s warm-up + ${duration} s per cell, ${rounds} rounds; load average ${loadavg()}\n`);
  const tmp = tempFolder('tricks');
  const results = new Map<string, LoadResult[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      const order = cells.map((_, i) => cells[(i + round) % cells.length]);
      for (const cell of order) {
        const server = await startServer(`${cell.id}-r${round + 1}`, cell.config(tmp.file), { serverScript: cell.script });
        try {
          await expectJson(server, cell.path, 200);
          const warm = await load(server, { path: cell.path, connections, duration: warmup, warmup: true });
          checkStatuses(cell.id, warm, 200);
          const r = await load(server, { path: cell.path, connections, duration });
          checkStatuses(cell.id, r, 200);
          results.set(cell.id, [...(results.get(cell.id) ?? []), r]);
          console.log(`  round ${round + 1} ${cell.id.padEnd(32)} ${Math.round(r.rps).toString().padStart(6)} req/s  server CPU ${r.cpuMicrosPerRequest.toFixed(1).padStart(6)} µs/req`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    tmp.cleanup();
  }
  const list = (id: string, f: (r: LoadResult) => number): number[] => results.get(id)?.map(f) ?? [];
  const ref = 'kernel, every trick';
  const rows = cells.map((c) => {
    const cpu = pairedRatios(list(c.id, (r) => r.cpuMicrosPerRequest), list(ref, (r) => r.cpuMicrosPerRequest));
    const rps = pairedRatios(list(c.id, (r) => r.rps), list('express (bare)', (r) => r.rps));
    return [
      c.id,
      Math.round(medianOf(list(c.id, (r) => r.rps))).toString(),
      rps.median.toFixed(3),
      medianOf(list(c.id, (r) => r.cpuMicrosPerRequest)).toFixed(1),
      `${cpu.median.toFixed(3)} (${cpu.min.toFixed(3)}–${cpu.max.toFixed(3)})`,
    ];
  });
  console.log(`\nload average at end: ${loadavg()}`);
  printTable(['server', 'req/s', 'req/s ÷ express (paired median)', 'server CPU µs/req', 'CPU ÷ every trick (paired median, range)'], rows);
}

/** Runs a command; resolves when it exits (it fails on a non-zero exit). */
function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], (err) => {
      if (err !== null) reject(new Error(`${command} failed: ${err.message}`));
      else resolve();
    });
  });
}

/**
 * Sends `callgrind_control <flag>` to a server under callgrind: callgrind reads commands only
 * while the program runs, so a trickle of requests keeps the idle server busy until it answers.
 * @returns how many trickle requests were sent
 */
async function callgrindControl(server: BenchServer, flag: string, urlPath: string): Promise<number> {
  let done = false;
  const control = run('callgrind_control', [flag, String(server.pid)]).finally(() => { done = true; });
  let sent = 0;
  while (!done) {
    await probe(server.port, urlPath);
    sent++;
    await new Promise((r) => setTimeout(r, 20));
  }
  await control;
  return sent;
}

/** The instruction total of the last dump callgrind wrote for `pid` in `dir`. */
function lastDumpTotal(dir: string, pid: number): number {
  const dumps = fs.readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.`)).sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  const text = fs.readFileSync(path.join(dir, dumps[dumps.length - 1]), 'utf8');
  const m = /^(?:summary|totals): (\d+)/m.exec(text);
  if (m === null) throw new Error(`no totals in callgrind dump ${dumps[dumps.length - 1]}`);
  return Number(m[1]);
}

/**
 * `--count`: each kernel variant forked under `valgrind --tool=callgrind`; after a warm-up the
 * counters are zeroed, `--requests` requests run on one connection, and the instructions the
 * server executed are dumped: instructions per request, repeatable on a loaded machine.
 */
async function runCount(args: readonly string[]): Promise<void> {
  const requests = Number(option(args, 'requests') ?? 2000);
  const warm = Number(option(args, 'warm') ?? 1000);
  const rounds = Number(option(args, 'rounds') ?? 2);
  const root = path.resolve(option(args, 'with') ?? '/tmp/ek-tricks-base/build');
  const script = path.join(root, 'bench', 'servers', 'server.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-bench-callgrind-'));
  const wrapper = ['valgrind', '--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${dir}/cg.%p`];
  const ladder = (without?: TrickVariant) => (tmp: (n: string) => string): ServerConfig => ({ kind: 'ladder', layers: 6, sqlitePath: tmp(`c-${without ?? 'all'}.sqlite`), without });
  const cells = [
    { id: 'kernel, every trick', script, config: ladder() },
    { id: 'kernel without request slots', script, config: ladder('request-slots') },
    { id: 'kernel without helmet recorder', script, config: ladder('helmet-recorder') },
    { id: 'kernel now (this build)', script: undefined, config: ladder() },
  ];
  const wanted = option(args, 'cells')?.split(',').map(Number);
  const selected = cells.filter((_, i) => wanted === undefined || wanted.includes(i));
  console.log(`callgrind, GET /api on 1 connection: ${warm} warm-up requests, counters zeroed, ${requests} counted; ${rounds} round(s)\n`);
  const tmp = tempFolder('tricks-count');
  const counts = new Map<string, number[]>();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const cell of selected) {
        const server = await startServer(`${cell.id}-c${round + 1}`, cell.config(tmp.file), { serverScript: cell.script, wrapper });
        try {
          await expectJson(server, '/api', 200);
          checkStatuses(cell.id, await load(server, { path: '/api', connections: 1, amount: warm, warmup: true }), 200);
          const before = await callgrindControl(server, '-z', '/api');
          const r = await load(server, { path: '/api', connections: 1, amount: requests });
          checkStatuses(cell.id, r, 200);
          const after = await callgrindControl(server, '-d', '/api');
          const perRequest = lastDumpTotal(dir, server.pid) / (r.total + after + 2);
          counts.set(cell.id, [...(counts.get(cell.id) ?? []), perRequest]);
          console.log(`  round ${round + 1} ${cell.id.padEnd(32)} ${Math.round(perRequest).toLocaleString('en-US').padStart(10)} instructions/request (${before} + ${after} trickle requests)`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    tmp.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const ref = medianOf(counts.get(cells[0].id) ?? [NaN]);
  printTable(['server', 'instructions/request (median)', '÷ every trick'], selected.map((c) => {
    const m = medianOf(counts.get(c.id) ?? [NaN]);
    return [c.id, Math.round(m).toLocaleString('en-US'), (m / ref).toFixed(3)];
  }));
}

export const tricksSection: BenchSection = {
  name: 'tricks',
  description: 'each speed trick with and without it: micro cases from two or three builds side by side, or --http (forked kernels)',
  run: (args) => {
    if (args.includes('--count')) return runCount(args);
    return args.includes('--http') ? runHttp(args) : runMicro(args);
  },
};
