/**
 * Router section: express-kernel's `UrlMatcher.match` against find-my-way 9 and Express 5's
 * router, on the same GitHub-like tables (10, 100 and 1,000 routes) and the same requests.
 *
 * Options (after `npm run bench -- router`):
 *   --size=10,100,1000        table sizes to run
 *   --set=hit,405,miss        request sets to run
 *   --peer=ek,fmw,express,ek-try  peers to run (ek = express-kernel `match`, fmw = find-my-way,
 *                             ek-try = `tryMatch`, only when the matcher has it)
 *   --runs=5                  measured runs per cell (the median is reported)
 *   --time=200                minimum milliseconds per run (and at least 40k operations,
 *                             at most 5× that time for slow cells)
 *   --loop=SECONDS            profiling aid: no table, just run each selected peer on each
 *                             selected cell for that long, e.g.
 *                             `node --cpu-prof build/bench/run.js router --size=1000 --set=miss --peer=ek --loop=10`
 *
 * What each peer does per operation:
 * - express-kernel: `matcher.match(path, context)`; misses and 405s throw
 *   `ResourceNotFoundError` / `MethodNotAllowedError`, caught (`instanceof RoutingError`) as an
 *   application would. The matcher is the default (redirectable) one, so a GET miss also tries
 *   the trailing-slash-toggled path, as Symfony does.
 * - find-my-way: `router.find(method, path)` (tree walk, default options); null for a miss or a
 *   405 (it does not tell them apart, nor compute Allow).
 * - express: `router.handle(req, res, done)` on a fresh `{ method, url, headers: {} }`. A hit
 *   calls the route handler synchronously; a miss or a 405 (Express has no 405: it falls through
 *   every layer) calls `done` through `setImmediate`. So each run dispatches a chunk of requests
 *   and waits until every one has reached its handler or `done`: ns/op is CPU time per request
 *   including the deferral, amortised over the chunk (throughput, not latency).
 */
import express from 'express';
import FindMyWay from 'find-my-way';
import { MethodNotAllowedError, ResourceNotFoundError, Route, RouteCollection, RoutingError, UrlMatcher } from '../src/routing';
import type { MatchContext } from '../src/routing';
import type { BenchSection } from './run';
import * as os from 'os';
import { checksum, formatNs, formatRatio, measure, median, option, padLeft, padRight, prng, Runner } from './harness';
import { BenchRoute, githubTable, handWrittenCount, TOTAL_ROUTES } from './routes/github';

const SIZES = [10, 100, 1000] as const;
/** `hit*`: hits on the routes of the 10-route table, which every larger table contains (tables are
 * nested slices): the same requests at every size, so ek@1000/ek@10 on it isolates table growth. */
const SETS = ['hit', '405', 'miss', 'hit*'] as const;
type SetName = (typeof SETS)[number];
/** `ek-try`: `UrlMatcher.tryMatch` (misses returned, not thrown), measured only when the matcher has it. */
const PEERS = ['ek', 'fmw', 'express', 'ek-try'] as const;
type PeerName = (typeof PEERS)[number];
const PEER_LABEL: Record<PeerName, string> = { ek: 'express-kernel', fmw: 'find-my-way', express: 'express', 'ek-try': 'ek tryMatch' };

/** Requests per set (cycled through by the runners). */
const REQUESTS_PER_SET = 1000;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Targets (informational). */
const TARGET_EK_VS_FMW = 1.5;
const TARGET_FLAT = 1.5;
const TARGET_EXPRESS_VS_EK = 10;

export interface BenchRequest {
  readonly method: string;
  readonly path: string;
  readonly context: MatchContext;
}

// ---------------------------------------------------------------------------------------------
// Peers

export function buildEk(table: readonly BenchRoute[]): UrlMatcher {
  const c = new RouteCollection();
  for (const r of table) c.add(r.name, new Route(r.path, { methods: [r.method], requirements: { ...r.requirements } }));
  return new UrlMatcher(c);
}

/** The non-throwing variant, when this version of the matcher has it (detected at run time). */
interface TryMatcher { tryMatch(path: string, context: MatchContext): { route: string } | { failure: string } }
function hasTryMatch(m: unknown): m is TryMatcher {
  return typeof (m as Partial<TryMatcher>).tryMatch === 'function';
}

function ekTryRunner(matcher: TryMatcher, reqs: readonly BenchRequest[]): Runner {
  let k = 0;
  return (ops) => {
    let s = 0;
    for (let i = 0; i < ops; i++) {
      const r = reqs[k];
      if (++k === reqs.length) k = 0;
      const o = matcher.tryMatch(r.path, r.context);
      s += 'route' in o ? o.route.length : 1;
    }
    return s;
  };
}

function ekRunner(matcher: UrlMatcher, reqs: readonly BenchRequest[]): Runner {
  let k = 0;
  return (ops) => {
    let s = 0;
    for (let i = 0; i < ops; i++) {
      const r = reqs[k];
      if (++k === reqs.length) k = 0;
      try {
        s += matcher.match(r.path, r.context).route.length;
      } catch (e) {
        if (e instanceof RoutingError) s += 1;
        else throw e;
      }
    }
    return s;
  };
}

/** find-my-way path: `{x}` → `:x`, `\d+` → `:x(^\d+)`, a trailing `.+` → `*`. */
function fmwPath(r: BenchRoute): string {
  return r.path.replace(/\{(\w+)\}/g, (_m, name: string, offset: number) => {
    const req = r.requirements[name];
    if (req === undefined) return `:${name}`;
    if (req === '.+') {
      if (offset + name.length + 2 !== r.path.length) throw new Error(`fmw: .+ only supported last (${r.path})`);
      return '*';
    }
    return `:${name}(^${req})`;
  });
}

/** Express 5 path: `{x}` → `:x`, a trailing `.+` → `*x`; other requirements are left out. */
function expressPath(r: BenchRoute): string {
  return r.path.replace(/\{(\w+)\}/g, (_m, name: string) => (r.requirements[name] === '.+' ? `*${name}` : `:${name}`));
}

export type FmwRouter = ReturnType<typeof FindMyWay>;
type FmwMethod = Parameters<FmwRouter['find']>[0];

export function buildFmw(table: readonly BenchRoute[]): FmwRouter {
  const router = FindMyWay();
  const handler = (): void => {};
  for (const r of table) router.on(r.method as FmwMethod, fmwPath(r), handler);
  return router;
}

function fmwRunner(router: FmwRouter, reqs: readonly BenchRequest[]): Runner {
  let k = 0;
  return (ops) => {
    let s = 0;
    for (let i = 0; i < ops; i++) {
      const r = reqs[k];
      if (++k === reqs.length) k = 0;
      const found = router.find(r.method as FmwMethod, r.path);
      s += found === null ? 1 : 2;
    }
    return s;
  };
}

interface FakeReq { method: string; url: string; headers: Record<string, string> }
type Done = (err?: unknown) => void;
export interface ExpressRouter { handle(req: FakeReq, res: object, done: Done): void }

/** Completion bookkeeping shared by the Express handler and `done`. */
const expressState = {
  pending: 0,
  hits: 0,
  errors: 0,
  resolve: null as null | (() => void),
};
function expressComplete(): void {
  if (--expressState.pending === 0 && expressState.resolve !== null) {
    const r = expressState.resolve;
    expressState.resolve = null;
    r();
  }
}
function expressHandler(): void {
  expressState.hits++;
  expressComplete();
}
function expressDone(err?: unknown): void {
  if (err !== undefined && err !== null) expressState.errors++;
  expressComplete();
}

/** Routes sharing a path share one `router.route(path)` layer (one layer per path, as idiomatic). */
export function buildExpress(table: readonly BenchRoute[]): ExpressRouter {
  const router = express.Router();
  const byPath = new Map<string, BenchRoute[]>();
  for (const r of table) {
    const list = byPath.get(r.path);
    if (list === undefined) byPath.set(r.path, [r]);
    else list.push(r);
  }
  for (const [, routes] of byPath) {
    const route = router.route(expressPath(routes[0])) as unknown as Record<string, (h: () => void) => unknown>;
    for (const r of routes) route[r.method.toLowerCase()](expressHandler);
  }
  return router as unknown as ExpressRouter;
}

const RES = {};

function expressRunner(router: ExpressRouter, reqs: readonly BenchRequest[]): Runner {
  let k = 0;
  return (ops) => {
    const hitsBefore = expressState.hits;
    const promise = new Promise<void>((resolve) => { expressState.resolve = resolve; });
    expressState.pending = ops + 1; // +1: released after the loop, so a synchronous finish cannot resolve early
    for (let i = 0; i < ops; i++) {
      const r = reqs[k];
      if (++k === reqs.length) k = 0;
      router.handle({ method: r.method, url: r.path, headers: {} }, RES, expressDone);
    }
    expressComplete();
    return promise.then(() => expressState.hits - hitsBefore);
  };
}

/** How Express classifies one request: `hit` (handler ran), `none` (fell through), `error`. */
async function expressClassify(router: ExpressRouter, r: BenchRequest): Promise<'hit' | 'none' | 'error'> {
  const hits = expressState.hits;
  const errors = expressState.errors;
  await expressRunner(router, [r])(1);
  if (expressState.errors !== errors) return 'error';
  return expressState.hits !== hits ? 'hit' : 'none';
}

function ekClassify(matcher: UrlMatcher, r: BenchRequest): SetName | 'redirect' | 'other' {
  try {
    const m = matcher.match(r.path, r.context);
    return m.redirect === undefined ? 'hit' : 'redirect';
  } catch (e) {
    if (e instanceof MethodNotAllowedError) return '405';
    if (e instanceof ResourceNotFoundError) return 'miss';
    return 'other';
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

const VALUES: Record<string, readonly string[]> = {
  owner: ['octocat', 'torvalds', 'facebook', 'rust-lang'],
  repo: ['hello-world', 'linux', 'react', 'rust'],
  username: ['mona', 'hubot', 'defunkt'],
  target_user: ['mojombo', 'pjhyett'],
  assignee: ['mona', 'hubot'],
  org: ['github', 'nodejs', 'expressjs'],
  enterprise: ['acme', 'globex'],
  app_slug: ['dependabot', 'renovate'],
  team_slug: ['core', 'security-team'],
  basehead: ['main...feature-x', 'v1.0.0...v1.1.0'],
  gist_id: ['aa5a315d61ae9438b18d', '9e3e4f2c1b'],
  sha: ['6dcb09b5b57875f334f61aebed695e2e4193db5e', 'deadbeef'],
  commit_sha: ['6dcb09b5b57875f334f61aebed695e2e4193db5e'],
  ref: ['main', 'v2.1.0', '6dcb09b5'],
};
const GENERIC = ['main', 'v1-2-3', 'feature-x', 'deadbeef', 'stable', 'bug-fix'];
const MULTI_SEGMENT = ['src/lib/index.ts', 'README.md', 'heads/main', 'docs/guide/intro.md'];

function concretePath(r: BenchRoute, rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  return r.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const req = r.requirements[name];
    if (req === '\\d+') return String(1 + Math.floor(rand() * 99999));
    if (req === '.+') return pick(MULTI_SEGMENT);
    return pick(VALUES[name] ?? GENERIC);
  });
}

function randomGarbage(rand: () => number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789-_';
  const depth = 1 + Math.floor(rand() * 5);
  let p = '';
  for (let d = 0; d < depth; d++) {
    const len = 3 + Math.floor(rand() * 8);
    p += '/';
    for (let i = 0; i < len; i++) p += chars[Math.floor(rand() * chars.length)];
  }
  return p;
}

const CONTEXTS = new Map<string, MatchContext>();
function request(method: string, path: string): BenchRequest {
  let context = CONTEXTS.get(method);
  if (context === undefined) CONTEXTS.set(method, (context = { method, host: 'localhost', scheme: 'http' }));
  return { method, path, context };
}

export interface Peers { ek: UrlMatcher; fmw: FmwRouter; express: ExpressRouter }

/**
 * Builds a request set for a table and keeps only requests every peer classifies as intended
 * (ek: hit / 405 / 404; find-my-way and Express: found or not). Returns the set and the number
 * of candidates rejected.
 */
export async function buildSet(
  set: SetName,
  table: readonly BenchRoute[],
  peers: Peers,
  seed: number,
): Promise<{ reqs: BenchRequest[]; rejected: number }> {
  const rand = prng(seed);
  const source = set === 'hit*' ? githubTable(Math.min(SIZES[0], table.length)) : table;
  const methodsByPath = new Map<string, Set<string>>();
  for (const r of table) {
    let s = methodsByPath.get(r.path);
    if (s === undefined) methodsByPath.set(r.path, (s = new Set()));
    s.add(r.method);
  }
  const reqs: BenchRequest[] = [];
  let rejected = 0;
  let attempts = 0;
  while (reqs.length < REQUESTS_PER_SET) {
    if (++attempts > REQUESTS_PER_SET * 20) throw new Error(`router bench: cannot build the ${set} set for ${table.length} routes`);
    const route = source[Math.floor(rand() * source.length)];
    let candidate: BenchRequest;
    if (set === 'hit' || set === 'hit*') {
      candidate = request(route.method, concretePath(route, rand));
    } else if (set === '405') {
      const declared = methodsByPath.get(route.path)!;
      const others = METHODS.filter((m) => !declared.has(m));
      if (others.length === 0) continue;
      candidate = request(others[Math.floor(rand() * others.length)], concretePath(route, rand));
    } else if (reqs.length % 2 === 0) {
      // a real path with a bogus last segment: replaced when static, appended when a parameter
      const path = concretePath(route, rand);
      const lastIsParam = /\}$/.test(route.path);
      const bogus = 'no-such-thing';
      candidate = request('GET', route.path === '/' || lastIsParam ? `${path === '/' ? '' : path}/${bogus}` : path.replace(/[^/]+$/, bogus));
    } else {
      candidate = request('GET', randomGarbage(rand));
    }
    const ek = ekClassify(peers.ek, candidate);
    const fmw = peers.fmw.find(candidate.method as FmwMethod, candidate.path) !== null ? 'hit' : 'none';
    const ex = await expressClassify(peers.express, candidate);
    const wantFound = set === 'hit' || set === 'hit*' ? 'hit' : 'none';
    if (ek !== (set === 'hit*' ? 'hit' : set) || fmw !== wantFound || ex !== wantFound) {
      rejected++;
      continue;
    }
    reqs.push(candidate);
  }
  return { reqs, rejected };
}

// ---------------------------------------------------------------------------------------------
// Section

function loadavg(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}

function parseList<T extends string | number>(args: readonly string[], name: string, all: readonly T[]): T[] {
  const raw = option(args, name);
  if (raw === undefined) return [...all];
  const wanted = raw.split(',').map((s) => s.trim());
  const picked = all.filter((v) => wanted.includes(String(v)));
  if (picked.length === 0) throw new Error(`--${name}: none of ${raw} is one of ${all.join(', ')}`);
  return picked;
}

async function run(args: readonly string[]): Promise<void> {
  const sizes = parseList(args, 'size', SIZES);
  const sets = parseList(args, 'set', SETS);
  const peers = parseList(args, 'peer', PEERS).filter((p) => p !== 'ek-try' || hasTryMatch(buildEk([])));
  const runs = Number(option(args, 'runs') ?? 5);
  const minTimeNs = Number(option(args, 'time') ?? 200) * 1e6;
  const loopSeconds = Number(option(args, 'loop') ?? 0);
  const measureOptions = { minTimeNs, minOps: 40_000, maxTimeNs: minTimeNs * 5 };
  const warmOptions = { minTimeNs: minTimeNs / 2, minOps: 20_000, maxTimeNs: minTimeNs * 2 };

  console.log(`table: GitHub-like, ${TOTAL_ROUTES} routes (${handWrittenCount()} hand-written + ${TOTAL_ROUTES - handWrittenCount()} under /api/v3, /enterprises/{enterprise}, /apps/{app_slug}, /v2); sizes are evenly spaced slices`);
  console.log(`requests: ${REQUESTS_PER_SET} per set, cross-checked on all peers; ${runs} runs per cell (≥${minTimeNs / 1e6} ms and ≥40k ops each, ≤${(minTimeNs * 5) / 1e6} ms), median reported`);
  console.log('find-my-way: \\d+ as :x(^\\d+), .+ as *; express: no requirements (path-to-regexp 8 has no inline regex), .+ as *x, one route() layer per path');
  console.log('405: ek throws MethodNotAllowedError (with Allow); find-my-way returns null; express falls through to done() (no 405)');
  console.log("hit*: hits on the 10-route table's routes (contained in every table): same requests at every size");
  console.log(`load average at start: ${loadavg()} (${os.cpus().length} CPUs; other processes share them, so absolute ns/op drift: compare columns, which are measured interleaved)\n`);

  const results = new Map<string, number>(); // `${size}|${set}|${peer}` → ns/op
  const key = (size: number, set: string, peer: string): string => `${size}|${set}|${peer}`;

  for (const size of sizes) {
    const table = githubTable(size);
    const built: Peers = { ek: buildEk(table), fmw: buildFmw(table), express: buildExpress(table) };
    for (const set of sets) {
      const { reqs, rejected } = await buildSet(set, table, built, set === 'hit*' ? 7 : size * 31 + SETS.indexOf(set));
      const runners: Record<PeerName, Runner> = {
        ek: ekRunner(built.ek, reqs),
        'ek-try': hasTryMatch(built.ek) ? ekTryRunner(built.ek, reqs) : () => 0,
        fmw: fmwRunner(built.fmw, reqs),
        express: expressRunner(built.express, reqs),
      };
      if (loopSeconds > 0) {
        for (const p of peers) {
          const sample = await measure(runners[p], {
            minTimeNs: loopSeconds * 1e9, minOps: 0, maxTimeNs: loopSeconds * 1e9,
          });
          console.log(`  loop ${size} routes, ${set}, ${PEER_LABEL[p]}: ${formatNs(sample.nsPerOp)} ns/op over ${sample.ops} ops`);
        }
        continue;
      }
      for (const p of peers) await measure(runners[p], warmOptions);
      const samples: Record<PeerName, number[]> = { ek: [], fmw: [], express: [], 'ek-try': [] };
      for (let i = 0; i < runs; i++) {
        // rotate the order so drift (thermal, GC, JIT) is not charged to one peer
        for (let j = 0; j < peers.length; j++) {
          const p = peers[(i + j) % peers.length];
          samples[p].push((await measure(runners[p], measureOptions)).nsPerOp);
        }
      }
      const line = peers.map((p) => {
        const m = median(samples[p]);
        results.set(key(size, set, p), m);
        const spread = (Math.max(...samples[p]) - Math.min(...samples[p])) / m;
        return `${PEER_LABEL[p]} ${formatNs(m)} (±${Math.round(spread * 50)}%)`;
      });
      console.log(`  ${String(size).padStart(4)} routes, ${set.padEnd(4)}: ${line.join(' · ')} ns/op; ${rejected} candidate requests rejected by the cross-check`);
    }
  }

  if (loopSeconds > 0) return;
  console.log(`\nload average at end: ${loadavg()}`);
  const get = (size: number, set: string, peer: PeerName): number => results.get(key(size, set, peer)) ?? NaN;
  const withTry = peers.includes('ek-try');
  const cols: Array<[string, number]> = [
    ['routes', 6], ['set', 4], ['express-kernel', 14], ['find-my-way', 11], ['express', 10], ['ek/fmw', 7], ['express/ek', 10],
  ];
  if (withTry) cols.push(['ek tryMatch', 11], ['try/fmw', 7]);
  const header = cols.map(([n, w], i) => (i < 2 ? padRight(n, w) : padLeft(n, w))).join('  ');
  console.log('\nns/op (median of runs; lower is better)' + (withTry ? '; ek tryMatch = the matcher\'s non-throwing variant, informational' : '') + '\n');
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const size of sizes) {
    for (const set of sets) {
      const ek = get(size, set, 'ek');
      const fmw = get(size, set, 'fmw');
      const ex = get(size, set, 'express');
      const cells = [
        String(size), set, formatNs(ek), formatNs(fmw), formatNs(ex), formatRatio(ek / fmw), formatRatio(ex / ek),
      ];
      if (withTry) {
        const t = get(size, set, 'ek-try');
        cells.push(formatNs(t), formatRatio(t / fmw));
      }
      console.log(cells.map((c, i) => (i < 2 ? padRight(c, cols[i][1]) : padLeft(c, cols[i][1]))).join('  '));
    }
  }

  console.log('\ntargets (informational):');
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'MISS');
  const largest = Math.max(...sizes);
  const smallest = Math.min(...sizes);
  for (const set of sets) {
    const r = get(largest, set, 'ek') / get(largest, set, 'fmw');
    if (Number.isFinite(r)) console.log(`  [${verdict(r <= TARGET_EK_VS_FMW)}] ${set.padEnd(4)} ek within ${TARGET_EK_VS_FMW}× of find-my-way at ${largest} routes: ek/fmw = ${r.toFixed(2)}`);
  }
  if (largest !== smallest) {
    for (const set of sets) {
      const r = get(largest, set, 'ek') / get(smallest, set, 'ek');
      const f = get(largest, set, 'fmw') / get(smallest, set, 'fmw');
      if (Number.isFinite(r)) {
        console.log(`  [${verdict(r <= TARGET_FLAT)}] ${set.padEnd(4)} flat as the table grows: ek@${largest} / ek@${smallest} = ${r.toFixed(2)} (≤ ${TARGET_FLAT}; find-my-way: ${Number.isFinite(f) ? f.toFixed(2) : '-'})`);
      }
    }
  }
  for (const set of sets) {
    const ratios = sizes.map((s) => [s, get(s, set, 'express') / get(s, set, 'ek')] as const).filter(([, r]) => Number.isFinite(r));
    if (ratios.length > 0) {
      const ok = ratios.every(([, r]) => r >= TARGET_EXPRESS_VS_EK);
      const detail = ratios.map(([s, r]) => `@${s} ${r.toFixed(1)}×${r >= TARGET_EXPRESS_VS_EK ? '' : ' (miss)'}`).join(', ');
      console.log(`  [${verdict(ok)}] ${set.padEnd(4)} ≥ ${TARGET_EXPRESS_VS_EK}× faster than Express's router at every size: express/ek ${detail}`);
    }
  }
  if (withTry) {
    for (const set of sets) {
      const r = get(largest, set, 'ek-try') / get(largest, set, 'fmw');
      if (Number.isFinite(r)) console.log(`  (info) ${set.padEnd(4)} tryMatch within ${TARGET_EK_VS_FMW}× of find-my-way at ${largest} routes: try/fmw = ${r.toFixed(2)} → ${verdict(r <= TARGET_EK_VS_FMW)}`);
    }
  }
  console.log(`  (checksum ${checksum()})`);
}

export const routerSection: BenchSection = {
  name: 'router',
  description: 'UrlMatcher.match vs find-my-way 9 vs Express 5 router on 10/100/1,000 GitHub-like routes',
  run,
};
