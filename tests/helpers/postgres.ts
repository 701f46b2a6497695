/**
 * A throwaway PostgreSQL server for a test file: a cluster made by Debian's `initdb` in a temporary
 * folder, started on a free port bound to 127.0.0.1 (its unix socket in the same folder), as the
 * `postgres` user when the tests run as root (PostgreSQL refuses to run as root; CI runs as root),
 * stopped and removed after the suite. Suites check for it first with `describeWith('postgresql')`.
 * Not a test file itself.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { missingMessage, programPath } from './requirements';

/** A PostgreSQL server started for a test. */
export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication on loopback). */
  readonly url: string;
  readonly port: number;
  /** A URL of a new, empty database on this server (`CREATE DATABASE`). */
  createDatabase(name: string): Promise<string>;
  /** Sends a signal to the server: SIGSTOP stalls it, SIGCONT resumes it. */
  signal(signal: NodeJS.Signals): void;
  /** Stops the server (fast shutdown) and removes its folder. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
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
 * @throws Error when PostgreSQL is not installed or does not start within 20 s
 */
export async function startPostgres(): Promise<TestPostgres> {
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
  const child = spawn(path.join(bin, 'postgres'), [
    '-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=60',
  ], { ...asUser, env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = (chunk: Buffer): void => { output = (output + chunk.toString()).slice(-4000); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const remove = (): void => fs.rmSync(dir, { recursive: true, force: true });
  try {
    await waitReady(url, child, () => output, 20_000);
  } catch (e) {
    child.kill('SIGKILL');
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
    signal(signal) { child.kill(signal); },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGCONT');
        await new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGINT'); });
      }
      remove();
    },
  };
}
