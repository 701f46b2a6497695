/**
 * Helpers for the tests that run the server as a real process and talk to it
 * over HTTP on loopback only. Not a test file itself (no `.test.ts`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { scaled } from '../helpers/timeScale';

export const READY_LINE = /express-kernel listening on http:\/\/(\S+):(\d+)/;

/** A port that was free on 127.0.0.1 a moment ago (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') {
        srv.close();
        reject(new Error('no port'));
        return;
      }
      srv.close((err) => (err ? reject(err) : resolve(addr.port)));
    });
  });
}

/**
 * The environment for a child process: ours without what jest or an enclosing
 * `npm test` put there (NODE_ENV=test, npm_* and JEST_* variables), so the
 * child sees what it would see when started by hand.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k === 'NODE_ENV' || k === 'INIT_CWD' || k === 'NODE_OPTIONS') continue;
    if (/^(npm_|JEST_)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface ServerProcess {
  child: ChildProcess;
  /** everything the process printed so far */
  output(): string;
  /** resolves with the exit code and signal when the process ends */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `command args` and resolves once a stdout line matches `ready`, within `timeoutMs`
 * (a quiet machine's limit, stretched by the machine's load: ../helpers/timeScale).
 */
export function startProcess(opts: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  ready: RegExp;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const timeoutMs = scaled(opts.timeoutMs ?? 20_000);
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const proc: ServerProcess = { child, output: () => out, exited };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`no ready line after ${timeoutMs} ms; output so far:\n${out}`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      stdout += chunk;
      if (opts.ready.test(stdout)) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
    child.stderr.on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`process ended (code ${code}, signal ${signal}) before its ready line; output:\n${out}`));
    });
  });
}

/** Sends `signal` and waits at most `withinMs` (a quiet machine's limit, stretched by the load) for the exit. */
export async function stopProcess(
  proc: ServerProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  withinMs = 5_000,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const t0 = Date.now();
  const limit = scaled(withinMs);
  proc.child.kill(signal);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no exit within ${limit} ms of ${signal}; output:\n${proc.output()}`)),
      limit,
    );
  });
  try {
    const res = await Promise.race([proc.exited, timeout]);
    return { ...res, ms: Date.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
}

/** Ends a process this test started, if it is still running (SIGKILL by its own pid). */
export function killIfRunning(proc: ServerProcess | undefined): void {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) {
    proc.child.kill('SIGKILL');
  }
}

export interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A plain GET over real HTTP (no keep-alive, so the server can close at once on SIGTERM), failing
 * after `quietMs` (a quiet machine's limit, stretched by the load).
 */
export function httpGet(url: string, quietMs = 10_000): Promise<HttpResponse> {
  const timeoutMs = scaled(quietMs);
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}
