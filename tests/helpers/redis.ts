import { spawn, ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from './freePort';
import { missingMessage, programPath } from './requirements';
import { scaled } from './timeScale';

/** A redis-server started for a test on a free loopback port. */
export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop), for fault tests. */
  restart(): Promise<void>;
  /** Sends a signal to the server process: SIGSTOP stalls it (connections stay open), SIGCONT resumes it. */
  signal(signal: NodeJS.Signals): void;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Starts Debian's `redis-server` (installed by `.ci/run`) bound to 127.0.0.1 with no persistence.
 * Suites check for it first with `has('redis-server')` (./requirements).
 * @throws Error when redis-server is not installed, fails to start, or does not listen within 5 s
 */
export async function startRedis(): Promise<TestRedis> {
  const binary = programPath('redis-server');
  if (binary === undefined) throw new Error(missingMessage('redis-server'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const c = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = c;
    const failed = new Promise<never>((_, reject) => {
      c.once('error', (e) => reject(new Error(`redis-server (${binary}) did not start: ${e.message}`)));
      c.once('exit', (code, signal) => reject(new Error(`redis-server exited at start (code ${code}, signal ${signal})`)));
    });
    failed.catch(() => undefined); // only the race below reports it
    await Promise.race([waitForPort(port, scaled(5000)), failed]);
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      const c = child;
      if (c === undefined || c.exitCode !== null) return;
      await new Promise<void>((resolve) => { c.once('exit', () => resolve()); c.kill('SIGTERM'); });
    },
    restart: start,
    signal(signal) { child?.kill(signal); },
  };
}

/** What {@link whenReady} needs of a node-redis client. */
interface ReconnectingClient {
  readonly isReady: boolean;
  once(event: 'ready', listener: () => void): unknown;
}

/**
 * Resolves once each client is connected and ready (node-redis's `ready` event): after
 * `TestRedis.restart()`, the clients reconnect on their own schedule (backoff up to 2 s), and a
 * test that goes on before that meets a closed client. Resolves at once for a ready client.
 */
export async function whenReady(...clients: ReconnectingClient[]): Promise<void> {
  await Promise.all(clients.filter((c) => !c.isReady).map((c) => new Promise<void>((resolve) => { c.once('ready', resolve); })));
}
