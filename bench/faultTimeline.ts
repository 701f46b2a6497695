/**
 * A store fault under load, second by second: runs the demo server (`dist/demo/server.js`, so
 * `npm run build` first) as its own process against a real store, drives requests at it over
 * 127.0.0.1, injects the fault, lifts it, and prints how many answers of each status came in each
 * second before, during and after the fault, then what was acknowledged against what was stored.
 *
 *   npx tsx bench/faultTimeline.ts <fault> [--before=3] [--during=5] [--after=5] [--concurrency=8]
 *
 * Faults (issue 27, points 1–3):
 * - `pg-fast`, `pg-immediate`, `pg-kill`: books on a throwaway PostgreSQL (`DATABASE_URL`,
 *   tests/helpers/postgres.ts, `synchronous_commit` on), stopped as `pg_ctl stop -m fast` or
 *   `-m immediate` would, or killed (SIGKILL to the server and its backends), then started again.
 *   Load: POST /api/books in sessions of `user` (logged in once per client: no password hash per
 *   request; sessions in the demo's SQLite file). Stored: the load's books, read afterwards.
 * - `sqlite-books`: books on the demo's SQLite file (`SQLITE_PATH`), sessions and throttling in a
 *   throwaway Redis (`REDIS_URL`, so only the book store meets the fault), the file and its WAL
 *   made immutable (`chattr +i`, root on ext4/xfs/btrfs), then writable again.
 *   Load: POST /api/books in sessions of `user`.
 * - `sqlite-throttle`: the same file; load: Basic logins, nine wrong passwords for one right one,
 *   each from its own client address (`X-Forwarded-For`, `TRUSTED_PROXIES=127.0.0.1`) and username,
 *   so no counter reaches its limit and each wrong password is a 401 that must be counted. Stored:
 *   the throttling rows (two per counted failure: the username+IP key and the IP key).
 *
 * Columns: the second since the load started, the phase, then answers per status (`conn` = no
 * answer: a reset or refused connection). The process must live through the fault: its exit, if
 * any, is printed. Not a test: the numbers depend on the machine.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { makeImmutable } from '../tests/helpers/immutable';
import { startPostgres, type TestPostgres } from '../tests/helpers/postgres';
import { startRedis, type TestRedis } from '../tests/helpers/redis';
import { startWriteLoad, USER_BASIC, type WriteResult } from '../tests/helpers/writeLoad';
import {
  cleanEnv, freePort, READY_LINE, startProcess, stopProcess, type ServerProcess,
} from '../tests/service/serverProcess';

const FAULTS = ['pg-fast', 'pg-immediate', 'pg-kill', 'sqlite-books', 'sqlite-throttle'] as const;
type Fault = typeof FAULTS[number];

const REPO = path.resolve(__dirname, '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');

/** One answer of the load: its kind (`write`, `wrong`, `right`), status (0: none) and time. */
interface Answer { kind: string; status: number; atMs: number }

/** Logs `user` in with Basic once; resolves with the session cookie. */
function login(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: '/api/time', agent: false, headers: { Authorization: USER_BASIC } },
      (res) => {
        res.resume();
        const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
        if (res.statusCode === 200 && cookie !== '') resolve(cookie);
        else reject(new Error(`login: ${res.statusCode}, no session cookie`));
      }).on('error', reject);
  });
}

/** A numeric `--name=value` option, or its default. */
function option(args: readonly string[], name: string, fallback: number): number {
  const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const value = raw === undefined ? fallback : Number(raw);
  if (!(value > 0)) throw new Error(`--${name} expects a positive number, got ${raw}`);
  return value;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Basic logins from distinct client addresses, `wrongPerRight` wrong passwords for each right one. */
function startLoginLoad(port: number, concurrency: number): { answers: Answer[]; stop(): Promise<void> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const started = performance.now();
  const answers: Answer[] = [];
  let stopping = false;
  let n = 0;
  const attempt = (i: number): Promise<number> => {
    const right = i % 10 === 0;
    // a username and a client address per attempt: no counter reaches its limit
    const user = right ? 'admin' : `guest${i}`;
    const password = right ? 'admin' : `wrong${i}`;
    const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    return new Promise((resolve, reject) => {
      http.get({
        host: '127.0.0.1', port, path: '/api/time', agent,
        headers: {
          Accept: 'application/json', 'X-Forwarded-For': address,
          Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
        },
      }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); }).on('error', reject);
    });
  };
  const loop = async (): Promise<void> => {
    while (!stopping) {
      const i = ++n;
      const status = await attempt(i).catch(() => 0);
      answers.push({ kind: i % 10 === 0 ? 'right' : 'wrong', status, atMs: performance.now() - started });
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return { answers, async stop() { stopping = true; await Promise.all(loops); agent.destroy(); } };
}

/** The per-second table: one row per second, one column per kind:status seen. */
function printTimeline(answers: readonly Answer[], phaseOf: (second: number) => string): void {
  const columns = [...new Set(answers.map((a) => `${a.kind}:${a.status === 0 ? 'conn' : a.status}`))].sort();
  const seconds = Math.ceil(Math.max(0, ...answers.map((a) => a.atMs)) / 1000);
  console.log(['  s', 'phase  ', ...columns.map((c) => c.padStart(11))].join(' '));
  for (let s = 0; s < seconds; s++) {
    const inSecond = answers.filter((a) => a.atMs >= s * 1000 && a.atMs < (s + 1) * 1000);
    const counts = columns.map((c) => String(inSecond.filter((a) => `${a.kind}:${a.status === 0 ? 'conn' : a.status}` === c)
      .length).padStart(11));
    console.log([String(s).padStart(3), phaseOf(s).padEnd(7), ...counts].join(' '));
  }
}

/** The 503 bodies' details and other non-2xx bodies, counted (what a client was told). */
function printBodies(results: readonly WriteResult[]): void {
  const bodies = new Map<string, number>();
  for (const r of results.filter((x) => x.status !== 201)) {
    const detail = /"detail":"([^"]*)"/.exec(r.body ?? '')?.[1] ?? r.body ?? '';
    const key = `${r.status} ${detail.slice(0, 90)}`;
    bodies.set(key, (bodies.get(key) ?? 0) + 1);
  }
  for (const [body, count] of bodies) console.log(`  ${String(count).padStart(6)} × ${body}`);
}

async function main(args: readonly string[]): Promise<number> {
  const fault = args.find((a) => !a.startsWith('--')) as Fault | undefined;
  if (fault === undefined || !FAULTS.includes(fault)) {
    console.error(`usage: npx tsx bench/faultTimeline.ts <${FAULTS.join('|')}> [--before=3] [--during=5] [--after=5] [--concurrency=8]`);
    return 2;
  }
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first`);
  const before = option(args, 'before', 3) * 1000;
  const during = option(args, 'during', 5) * 1000;
  const after = option(args, 'after', 5) * 1000;
  const concurrency = option(args, 'concurrency', 8);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-timeline-'));
  const sqlitePath = path.join(dir, 'demo.sqlite');
  let pg: TestPostgres | undefined;
  let redis: TestRedis | undefined;
  let server: ServerProcess | undefined;
  let restore: (() => void) | undefined;
  try {
    const env: Record<string, string> = {
      HOST: '127.0.0.1', PORT: String(await freePort()), SQLITE_PATH: sqlitePath,
      PROFILER_SQLITE: path.join(dir, 'profiler.sqlite'), LOG_LEVEL: 'warn', TRUSTED_PROXIES: '127.0.0.1',
    };
    if (fault.startsWith('pg-')) {
      pg = await startPostgres({ crashSafe: true });
      env.DATABASE_URL = await pg.createDatabase('timeline');
    }
    if (fault === 'sqlite-books') {
      redis = await startRedis();
      env.REDIS_URL = redis.url;
    }
    server = await startProcess({
      command: process.execPath, args: [SERVER], cwd: REPO, ready: READY_LINE, env: cleanEnv(env),
    });
    const port = Number(env.PORT);
    let exit: string | undefined;
    void server.exited.then(({ code, signal }) => { exit ??= `exited during the run: code ${code}, signal ${signal}`; });
    const writes = fault === 'sqlite-throttle'
      ? undefined
      : startWriteLoad(port, { concurrency, prefix: 'tl', cookie: await login(port) });
    const logins = fault === 'sqlite-throttle' ? startLoginLoad(port, concurrency) : undefined;
    const t0 = performance.now();
    await pause(before);
    const faultAt = performance.now() - t0;
    if (pg !== undefined) await pg.halt(fault.slice(3) as 'fast' | 'immediate' | 'kill');
    else restore = makeImmutable([sqlitePath, `${sqlitePath}-wal`]);
    await pause(during);
    const liftAt = performance.now() - t0;
    if (pg !== undefined) await pg.start();
    else { restore?.(); restore = undefined; }
    const upAt = performance.now() - t0;
    await pause(after);
    await writes?.stop();
    await logins?.stop();
    const answers: Answer[] = writes !== undefined
      ? writes.results.map((r) => ({ kind: 'write', status: r.status, atMs: r.atMs }))
      : logins!.answers;
    console.log(`fault ${fault}: injected at ${(faultAt / 1000).toFixed(2)} s, lifted at ${(liftAt / 1000).toFixed(2)} s`
      + `${pg !== undefined ? ` (PostgreSQL answering again at ${(upAt / 1000).toFixed(2)} s)` : ''}; `
      + `${concurrency} clients, keep-alive`);
    printTimeline(answers, (s) => ((s + 1) * 1000 <= faultAt ? 'before' : s * 1000 >= upAt ? 'after' : 'during'));
    const served = new Set([200, 201, 401]);
    const firstOkAfter = answers.find((a) => a.atMs > upAt && served.has(a.status));
    console.log(`first answer served by the store after the fault was lifted: ${firstOkAfter === undefined ? 'none'
      : `${((firstOkAfter.atMs - upAt) / 1000).toFixed(3)} s later`}`);
    console.log(`server process: ${exit ?? 'alive through the run'}`);
    const logged = server.output();
    const lines = (re: RegExp): number => logged.split('\n').filter((l) => re.test(l)).length;
    console.log(`server log lines: ${lines(/SQLITE_IOERR|SQLITE_READONLY|SQLITE_FULL/)} with SQLite's reason, `
      + `${lines(/cannot rollback/)} with "cannot rollback", ${lines(/57P01|Connection terminated/)} with a lost `
      + `PostgreSQL connection, ${lines(/Unhandled 'error' event/)} with an unhandled 'error' event`);
    if (writes !== undefined) {
      printBodies(writes.results);
      const acknowledged = writes.results.filter((r) => r.status === 201);
      let stored: Map<number, string>;
      if (pg !== undefined) {
        const client = new Client({ connectionString: env.DATABASE_URL });
        await client.connect();
        const { rows } = await client.query<{ id: number; title: string }>(
          "select id, title from books where title like 'tl-%'");
        await client.end();
        stored = new Map(rows.map((r) => [Number(r.id), r.title]));
      } else {
        const db = new Database(sqlitePath, { readonly: true });
        const rows = db.prepare("select id, title from books where title like 'tl-%'").all() as
          Array<{ id: number; title: string }>;
        db.close();
        stored = new Map(rows.map((r) => [Number(r.id), r.title]));
      }
      const lost = acknowledged.filter((r) => stored.get(r.id!) !== r.title);
      const unacknowledged = stored.size - (acknowledged.length - lost.length);
      console.log(`acknowledged (201): ${acknowledged.length}; stored: ${stored.size}; acknowledged but not stored: `
        + `${lost.length}; stored without a 201 (the answer lost with the connection): ${unacknowledged}`);
    } else {
      const counted = logins!.answers.filter((a) => a.status === 401).length;
      const db = new Database(sqlitePath, { readonly: true });
      const { rows } = db.prepare("select count(*) as rows from security_login_throttling where key <> 'probe:writable'").get() as { rows: number };
      db.close();
      const wrong = logins!.answers.filter((a) => a.kind === 'wrong');
      const fromRight = logins!.answers.filter((a) => a.kind === 'right' && a.status !== 200 && a.status !== 503);
      console.log(`wrong passwords answered 401 (counted failures): ${counted}; throttling rows stored: ${rows} `
        + `(two per counted failure: ${rows === 2 * counted ? 'all there' : `expected ${2 * counted}`}); `
        + `wrong passwords let through (200): ${wrong.filter((a) => a.status === 200).length}; `
        + `right passwords answered neither 200 nor 503: ${fromRight.length}`);
    }
    return exit === undefined ? 0 : 1;
  } finally {
    restore?.();
    if (server !== undefined && server.child.exitCode === null) await stopProcess(server).catch(() => server?.child.kill('SIGKILL'));
    await pg?.stop();
    await redis?.stop();
    execFileSync('rm', ['-rf', dir]);
  }
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (e: unknown) => { console.error(e); process.exitCode = 1; },
);
