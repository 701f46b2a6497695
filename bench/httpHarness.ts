/**
 * Shared by the `http` and `profiler` sections: forks a benchmark server
 * (`bench/servers/server.ts`) in its own process, drives it with autocannon from this one (the
 * load generator), and formats the results.
 *
 * Every request goes to 127.0.0.1 (loopback) on the port the server reports; load runs are
 * bounded by a duration or a request count.
 */
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import autocannon from 'autocannon';
import type { FromServer, ServerConfig, ToServer } from './servers/config';
import { option } from './harness';

const SERVER_SCRIPT = path.join(__dirname, 'servers', 'server.js');
const HOST = '127.0.0.1';

/** A forked server. */
export interface BenchServer {
  readonly label: string;
  readonly port: number;
  readonly pid: number;
  /**
   * The server's memory usage (bytes) and CPU time so far (µs); `gc` runs a full GC first (when
   * forked with `--expose-gc`).
   */
  memory(gc?: boolean): Promise<{
    rss: number; heapTotal: number; heapUsed: number; external: number; cpuMicros: number; hrMicros: number;
  }>;
  /**
   * Adds a measured window (server clock, µs): with `--cpu-prof`, the profile summary counts only
   * samples inside the windows (no start-up, warm-up or idle time).
   */
  addWindow(start: number, end: number, requests: number): void;
  /** Closes the server and waits for its process to exit (it writes its CPU profile then). */
  stop(): Promise<void>;
}

/** Options shared by the sections: `--cpu-prof[=DIR]` forks the servers under `node --cpu-prof`. */
export interface ForkOptions {
  /** A folder for the servers' `.cpuprofile` files; undefined: no profiling. */
  cpuProfDir?: string;
  /** Fork with `--expose-gc` (memory readings after a full GC). */
  exposeGc?: boolean;
  /** Another build's `bench/servers/server.js` (the `tricks` section's A/B); @default this build's */
  serverScript?: string;
  /** A command the server's node runs under, e.g. `['valgrind', '--tool=callgrind']`. */
  wrapper?: readonly string[];
}

/** Reads `--cpu-prof` / `--cpu-prof=DIR` from the section's arguments. */
export function forkOptionsFrom(args: readonly string[], section: string): ForkOptions {
  if (args.includes('--cpu-prof')) return { cpuProfDir: fs.mkdtempSync(path.join(os.tmpdir(), `ek-bench-${section}-prof-`)) };
  const dir = option(args, 'cpu-prof');
  if (dir !== undefined) {
    fs.mkdirSync(dir, { recursive: true });
    return { cpuProfDir: path.resolve(dir) };
  }
  return {};
}

/** Forks a server, waits until it listens. */
export function startServer(label: string, config: ServerConfig, options: ForkOptions = {}): Promise<BenchServer> {
  const execArgv: string[] = [];
  const name = label.replace(/[^A-Za-z0-9_.-]+/g, '_');
  const windows: Array<[number, number, number]> = [];
  if (options.cpuProfDir !== undefined) {
    execArgv.push('--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`, `--cpu-prof-name=${name}.cpuprofile`);
  }
  if (options.exposeGc === true) execArgv.push('--expose-gc');
  const wrapped = options.wrapper !== undefined && options.wrapper.length > 0
    ? { execPath: options.wrapper[0], execArgv: [...options.wrapper.slice(1), process.execPath, ...execArgv] }
    : { execArgv };
  const script = options.serverScript ?? SERVER_SCRIPT;
  const child: ChildProcess = fork(script, [JSON.stringify(config)], { ...wrapped, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`bench server "${label}" exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('message', (m: FromServer) => {
      child.off('exit', onExit);
      if (m.type !== 'ready') {
        child.kill();
        reject(new Error(`bench server "${label}": ${m.type === 'error' ? m.message : JSON.stringify(m)}`));
        return;
      }
      const request = (msg: ToServer): void => { child.send(msg); };
      let nextId = 0;
      resolve({
        label,
        port: m.port,
        pid: child.pid ?? -1,
        memory: (gc = false) => new Promise((res) => {
          const id = ++nextId;
          const onMessage = (reply: FromServer): void => {
            if (reply.type !== 'rss' || reply.id !== id) return;
            child.off('message', onMessage);
            res({
              rss: reply.rss, heapTotal: reply.heapTotal, heapUsed: reply.heapUsed,
              external: reply.external, cpuMicros: reply.cpuMicros, hrMicros: reply.hrMicros,
            });
          };
          child.on('message', onMessage);
          request({ type: 'rss', id, gc });
        }),
        addWindow: (start, end, requests) => { windows.push([start, end, requests]); },
        stop: async () => {
          if (child.exitCode === null && child.connected) request({ type: 'stop' });
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
          if (options.cpuProfDir !== undefined && windows.length > 0) {
            fs.writeFileSync(path.join(options.cpuProfDir, `${name}.windows.json`), JSON.stringify(windows));
          }
        },
      });
    });
  });
}

/** One GET on the loopback: status, content type and body. */
export function probe(
  port: number, urlPath: string, headers: Readonly<Record<string, string>> = {},
): Promise<{ status: number; type: string; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: HOST, port, path: urlPath, agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body, headers: res.headers }));
    });
    req.setTimeout(5000, () => req.destroy(new Error(`probe ${urlPath}: timeout`)));
    req.on('error', reject);
  });
}

/**
 * Fails unless `GET urlPath` answers `status` with a JSON body (`application/json` or a
 * `+json` type such as the API entrypoint's `application/ld+json`); returns the response.
 */
export async function expectJson(
  server: BenchServer,
  urlPath: string,
  status: number,
): Promise<Awaited<ReturnType<typeof probe>>> {
  const r = await expectStatus(server, urlPath, status);
  if (!/^application\/(?:[\w.-]+\+)?json\b/.test(r.type)) {
    throw new Error(`${server.label}: GET ${urlPath} answered ${r.type} (expected JSON): ${r.body.slice(0, 200)}`);
  }
  return r;
}

/** Fails unless `GET urlPath` answers `status` (with that content type, when given); returns the response. */
export async function expectStatus(
  server: BenchServer,
  urlPath: string,
  status: number,
  type?: string,
): Promise<Awaited<ReturnType<typeof probe>>> {
  const r = await probe(server.port, urlPath);
  if (r.status !== status || (type !== undefined && !r.type.startsWith(type))) {
    throw new Error(`${server.label}: GET ${urlPath} answered ${r.status} ${r.type} (expected ${status}${type === undefined ? '' : ` ${type}`}): ${r.body.slice(0, 200)}`);
  }
  return r;
}

/** How one load run goes. */
export interface LoadOptions {
  /** A fixed path, or a function giving each request's path. */
  path: string | (() => string);
  connections: number;
  /** Seconds (ignored when `amount` is set). */
  duration?: number;
  /** A fixed number of requests. */
  amount?: number;
  /** A warm-up: not a measured window for `--cpu-prof` summaries. */
  warmup?: boolean;
  /** The request method. @default 'GET' */
  method?: 'GET' | 'POST';
  /** Request headers (e.g. `Accept`). */
  headers?: Readonly<Record<string, string>>;
}

/** What one load run measured. */
export interface LoadResult {
  /** Mean requests per second (autocannon's per-second samples). */
  rps: number;
  /** Latency percentiles, ms. */
  p50: number;
  p99: number;
  /** Responses, by class. */
  total: number;
  status2xx: number;
  status4xx: number;
  other: number;
  errors: number;
  seconds: number;
  /** The server process's CPU time (user + system) per response, µs: robust to other load on the machine. */
  cpuMicrosPerRequest: number;
  /**
   * This process's CPU time (user + system) per response, µs: autocannon's cost as the client. On a
   * 2-core machine client and server share the cores, so a client that costs more per response
   * leaves the server less and lowers req/s without any change on the server.
   */
  clientMicrosPerRequest: number;
}

/**
 * Keeps one round's result of a cell (`results[id]`, in round order) and prints its line:
 * `  round N <label> <req/s> req/s  p99 <ms> ms  server CPU <µs> µs/req`.
 * @param label - already padded to the section's column width
 */
export function recordRound(
  results: Map<string, LoadResult[]>, id: string, round: number, label: string, r: LoadResult,
): void {
  const list = results.get(id) ?? [];
  list.push(r);
  results.set(id, list);
  const rps = Math.round(r.rps).toLocaleString('en-US').padStart(7);
  const cpu = r.cpuMicrosPerRequest.toFixed(0).padStart(4);
  const client = r.clientMicrosPerRequest.toFixed(0).padStart(3);
  console.log(`  round ${round + 1} ${label} ${rps} req/s  p99 ${String(r.p99).padStart(3)} ms  server CPU ${cpu} µs/req  client CPU ${client} µs/req`);
}

/** Runs autocannon against the server (on 127.0.0.1), from this process. */
export async function load(server: BenchServer, options: LoadOptions): Promise<LoadResult> {
  const fixed = typeof options.path === 'string' ? options.path : '/';
  const next = typeof options.path === 'function' ? options.path : undefined;
  const before = await server.memory();
  const clientBefore = process.cpuUsage();
  const result = await autocannon({
    url: `http://${HOST}:${server.port}${fixed}`,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 5 }),
    timeout: 10,
    method: options.method ?? 'GET',
    ...(options.headers !== undefined ? { headers: { ...options.headers } } : {}),
    ...(next !== undefined
      ? { requests: [{ method: options.method ?? 'GET', setupRequest: (req: autocannon.Request) => ({ ...req, path: next() }) }] }
      : {}),
  });
  const client = process.cpuUsage(clientBefore);
  const after = await server.memory();
  const s2 = result['2xx'];
  const s4 = result['4xx'];
  const total = s2 + s4 + result['1xx'] + result['3xx'] + result['5xx'];
  if (options.warmup !== true) server.addWindow(before.hrMicros, after.hrMicros, total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total,
    status2xx: s2,
    status4xx: s4,
    other: total - s2 - s4,
    errors: result.errors,
    seconds: result.duration,
    cpuMicrosPerRequest: total > 0 ? (after.cpuMicros - before.cpuMicros) / total : NaN,
    clientMicrosPerRequest: total > 0 ? (client.user + client.system) / total : NaN,
  };
}

/** Fails when a run got responses of the wrong class, or connection errors. */
export function checkStatuses(label: string, r: LoadResult, expected: 200 | 404 | 405): void {
  const good = expected === 200 ? r.status2xx : r.status4xx;
  if (r.errors > 0 || good !== r.total || r.total === 0) {
    throw new Error(`${label}: expected only ${expected}s, got ${r.status2xx} 2xx, ${r.status4xx} 4xx, ${r.other} other, ${r.errors} connection errors`);
  }
}

/**
 * Per-round ratios of two cells measured back to back in each round (`num[i] / den[i]`): the
 * machine's speed drifts between rounds (identical cells differ by up to 1.7× here), so a ratio
 * of two cells of the same round is steadier than a ratio of medians taken minutes apart.
 * @returns the median, smallest and largest ratio (NaN when a list is empty)
 */
export function pairedRatios(
  num: readonly number[],
  den: readonly number[],
): { median: number; min: number; max: number } {
  return ratioSpread(num.slice(0, den.length).map((n, i) => n / den[i]));
}

/** The median, least and greatest of ratios (non-finite ones left out); NaN for none. */
export function ratioSpread(ratios: readonly number[]): { median: number; min: number; max: number } {
  const finite = ratios.filter((r) => Number.isFinite(r));
  if (finite.length === 0) return { median: NaN, min: NaN, max: NaN };
  return { median: medianOf(finite), min: Math.min(...finite), max: Math.max(...finite) };
}

/** The median of a non-empty list. */
export function medianOf(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function mib(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(1);
}

/** Prints a table: the first column left-aligned, the others right-aligned. */
export function printTable(header: readonly string[], rows: readonly (readonly string[])[]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  const head = line(header);
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of rows) console.log(line(r));
}

/** A fresh temporary folder for one section's SQLite files, removed by `cleanup`. */
export function tempFolder(section: string): { dir: string; file: (name: string) => string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ek-bench-${section}-`));
  return {
    dir,
    file: (name) => path.join(dir, name),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export function loadavg(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}
