/**
 * Shutdown under load, against the real demo server (`node dist/demo/server.js`) and a real SIGTERM:
 * keep-alive clients, slow uploads, the health endpoints, and the exit code.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  cleanEnv, freePort, killIfRunning, READY_LINE, startProcess, stopProcess, type ServerProcess,
} from '../service/serverProcess';
import { scaled } from '../helpers/timeScale';
import { RawConnection, startSlowUpload, trickle } from './rawHttp';
import { tempDir } from '../helpers/tempDir';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');

async function start(extra: Record<string, string>): Promise<{ proc: ServerProcess; port: number }> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
  const dir = tempDir('ek-shutdown-');
  const port = await freePort();
  const proc = await startProcess({
    command: process.execPath,
    args: [SERVER],
    cwd: REPO,
    env: cleanEnv({
      HOST: '127.0.0.1', PORT: String(port), SQLITE_PATH: path.join(dir, 'demo.sqlite'),
      PROFILER_SQLITE: path.join(dir, 'profiler.sqlite'), ...extra,
    }),
    ready: READY_LINE,
  });
  return { proc, port };
}

/** Keep-alive clients sending GET /api back to back until told to stop; each error is kept. */
function load(port: number, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const errors: string[] = [];
  let answered = 0;
  let running = true;
  let answer: () => void = () => undefined;
  const firstAnswer = new Promise<void>((resolve) => { answer = resolve; });
  const one = (): Promise<void> => new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api', agent }, (res) => {
      res.resume();
      res.on('end', () => { answered++; answer(); resolve(); });
    });
    req.on('error', (e: NodeJS.ErrnoException) => {
      // a new connection refused once the server stopped listening is what a client should see;
      // a request sent on an open connection and then reset is what must not happen
      if (e.code === 'ECONNREFUSED') running = false;
      else errors.push(`${e.code ?? ''} ${e.message}`);
      resolve();
    });
  });
  const loops = Array.from({ length: clients }, async () => { while (running) await one(); });
  return {
    errors,
    answered: () => answered,
    /** resolves with the first answer */
    firstAnswer,
    stop: async () => { running = false; await Promise.all(loops); agent.destroy(); },
  };
}

describe('SIGTERM drains the demo server', () => {
  let proc: ServerProcess | undefined;
  afterEach(() => killIfRunning(proc));

  test('requests already received are answered with Connection: close, none reset; exit code 0', async () => {
    // 8 s on a quiet machine: the uploads' 6 s of trickling stretch on a busy one
    const s = await start({ SHUTDOWN_TIMEOUT_MS: String(scaled(8000)) });
    proc = s.proc;
    const ready = await RawConnection.open(s.port);
    ready.write('GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect((await ready.read()).status).toBe(200);
    ready.end();

    const traffic = load(s.port, 8);
    const uploads = await Promise.all([1, 2, 3].map(() => RawConnection.open(s.port)));
    const bodies = uploads.map((u) => startSlowUpload(u, '/api/books', 4000));
    // the signal comes once the keep-alive clients have had answers and the server has read the uploads' heads
    await traffic.firstAnswer;
    await Promise.all(bodies.map((b) => b.received));
    expect(traffic.answered()).toBeGreaterThan(0);

    const stopped = stopProcess(s.proc, 'SIGTERM', 15_000);
    // the uploads go on for about 6 s after the signal: longer than the old fixed 5 s
    const responses = Promise.all(uploads.map(async (u, i) => {
      const response = u.read();
      await trickle(u, bodies[i].rest, 30, 200);
      return response;
    }));
    const exit = await stopped;
    await traffic.stop();

    expect(traffic.errors).toEqual([]);
    for (const r of await responses) {
      expect(r.status).toBe(201);
      expect(r.headers.connection).toBe('close');
    }
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 0, signal: null });
  }, scaled(30_000));

  test('past SHUTDOWN_TIMEOUT_MS an unfinished upload is cut and the exit code is 1', async () => {
    const s = await start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    proc = s.proc;
    const upload = await RawConnection.open(s.port);
    await startSlowUpload(upload, '/api/books', 4000).received;
    const exit = await stopProcess(s.proc, 'SIGTERM', 10_000);
    expect({ code: exit.code, signal: exit.signal }).toEqual({ code: 1, signal: null });
    expect(exit.ms).toBeGreaterThanOrEqual(900);
    expect(exit.ms).toBeLessThan(scaled(5000));
    expect(s.proc.output()).toMatch(/cut unanswered requests/);
  }, scaled(30_000));

  test('/healthz and /readyz answer outside the firewall and the profiler', async () => {
    const s = await start({});
    proc = s.proc;
    const conn = await RawConnection.open(s.port);
    for (const [p, status] of [['/healthz', 'ok'], ['/readyz', 'ready']]) {
      conn.write(`GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic Ym9ndXM6Ym9ndXM=\r\n\r\n`);
      const r = await conn.read();
      expect({ status: r.status, body: JSON.parse(r.body) }).toEqual({ status: 200, body: { status } });
      expect(r.headers['x-debug-token']).toBeUndefined();
      expect(r.headers['cache-control']).toBe('no-store');
    }
    conn.end();
  }, scaled(30_000));
});

