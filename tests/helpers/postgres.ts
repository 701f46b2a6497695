/**
 * A throwaway PostgreSQL server for a test file: a cluster made by Debian's `initdb` in a temporary
 * folder, started on a free port bound to 127.0.0.1 (its unix socket in the same folder), as the
 * `postgres` user when the tests run as root (PostgreSQL refuses to run as root; CI runs as root),
 * stopped and removed after the suite. Suites check for it first with `describeWith('postgresql')`.
 * Not a test file itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './freePort';
import { missingMessage, programPath } from './requirements';
import { scaled } from './timeScale';

/** A PostgreSQL server started for a test. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** A URL of a new, empty database on this server (`CREATE DATABASE`). */
  createDatabase(name: string): Promise<string>;
  /**
   * Sends a signal to the server and its backends (one process per connection): SIGSTOP stalls
   * it, open connections included; SIGCONT resumes it.
   */
  signal(signal: NodeJS.Signals): void;
  /**
   * Stops the server and keeps its data, as `pg_ctl stop -m <mode>` does: `fast` (SIGINT:
   * connections are ended with 57P01, then a checkpoint), `immediate` (SIGQUIT: the backends quit
   * at once, a crash recovery at the next start) or `kill` (SIGKILL to the server and its backends).
   * Resolves once the server process has exited.
   */
  halt(mode: 'fast' | 'immediate' | 'kill'): Promise<void>;
  /** Starts the halted server again on the same port and data; resolves once it answers. */
  start(): Promise<void>;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

/** The uid and gid to run the server as: the `postgres` user when we are root, else ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.startsWith('postgres:'));
  if (line === undefined) {
    throw new Error('running as root and no "postgres" user to run PostgreSQL as '
      + '(apt-get install -y postgresql makes it)');
  }
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Whether a process is running (not gone, not a zombie waiting for its parent). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Runs a SQL statement as the superuser through `psql`-free means: the `pg` client. */
async function query(url: string, text: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try { await client.query(text); } finally { await client.end(); }
}

async function waitReady(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited at start (code ${child.exitCode}):\n${log()}`);
    try {
      await query(url, 'select 1');
      return;
    } catch (e) {
      if (Date.now() > deadline) {
        throw new Error(`postgres did not answer within ${timeoutMs} ms: ${(e as Error).message}\n${log()}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Creates and starts a PostgreSQL cluster (UTF-8, locale C.UTF-8; fsync off: a test server).
 * @param options - `crashSafe`: keep `synchronous_commit` on, so a commit PostgreSQL acknowledged
 *   survives an immediate stop or a kill (with it off, the last commits are still in the server's
 *   WAL buffers, not yet handed to the OS); fsync stays off (the OS keeps what it was given).
 * @throws Error when PostgreSQL is not installed or does not start within 20 s
 */
export async function startPostgres(options: { crashSafe?: boolean } = {}): Promise<TestPostgres> {
  const initdb = programPath('postgresql');
  if (initdb === undefined) throw new Error(missingMessage('postgresql'));
  const bin = path.dirname(initdb);
  const user = serverUser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-postgres-'));
  fs.chmodSync(dir, 0o700);
  if (user !== undefined) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const asUser = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  const env = { ...process.env, LC_ALL: 'C.UTF-8', HOME: dir };
  const initArgs = ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8'];
  execFileSync(path.join(bin, 'initdb'), initArgs, { ...asUser, env, stdio: 'pipe', cwd: dir });
  const port = await freePort();
  let output = '';
  let child: ChildProcess;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const remove = (): void => fs.rmSync(dir, { recursive: true, force: true });
  const launch = async (): Promise<void> => {
    const server = spawn(path.join(bin, 'postgres'), [
      '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
      '-c', 'fsync=off', '-c', `synchronous_commit=${options.crashSafe === true ? 'on' : 'off'}`,
      '-c', 'full_page_writes=off', '-c', 'max_connections=60',
    ], { ...asUser, env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child = server;
    const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-4000); };
    server.stdout?.on('data', keep);
    server.stderr?.on('data', keep);
    try {
      await waitReady(url, server, () => output, scaled(20_000));
    } catch (e) {
      server.kill('SIGKILL');
      throw e;
    }
  };
  const running = (): boolean => child.exitCode === null && child.signalCode === null;
  const exited = (): Promise<void> => new Promise<void>((resolve) => {
    if (!running()) resolve();
    else child.once('exit', () => resolve());
  });
  /** The server's backends (one process per connection), read before they go. */
  const backends = (): number[] => {
    const pid = child.pid;
    if (pid === undefined || !running()) return [];
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n').map((s) => Number(s.trim())).filter((n) => n > 0);
  };
  try {
    await launch();
  } catch (e) {
    remove();
    throw e;
  }
  return {
    url,
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
      await query(url, `create database ${name}`);
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    signal(signal) {
      const pid = child.pid;
      if (pid === undefined) return;
      for (const p of [pid, ...backends()]) process.kill(p, signal);
    },
    async halt(mode) {
      if (!running()) return;
      const done = exited();
      if (mode !== 'kill') {
        child.kill('SIGCONT');
        child.kill(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
        await done;
        return;
      }
      const orphans = backends();
      child.kill('SIGKILL');
      for (const p of orphans) process.kill(p, 'SIGKILL');
      await done;
      // a backend still alive holds the shared memory, and the next start would refuse it
      while (orphans.some(alive)) await new Promise((r) => setTimeout(r, 20));
    },
    start: launch,
    async stop() {
      if (running()) {
        child.kill('SIGCONT');
        const done = exited();
        child.kill('SIGINT');
        await done;
      }
      remove();
    },
  };
}
