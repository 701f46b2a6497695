/**
 * Two real demo server processes on one SQLITE_PATH (and one profiler SQLite file): concurrent
 * POST /api/books split between them. Every 201 must carry a distinct id, and every acknowledged
 * book must be there afterwards, with its own title.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  cleanEnv, freePort, killIfRunning, READY_LINE, startProcess, stopProcess, type ServerProcess,
} from '../service/serverProcess';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');
const N = Number(process.env.SHARED_SQLITE_POSTS ?? 600);

function post(agent: http.Agent, port: number, title: string): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({ title });
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: '/api/books', method: 'POST', agent,
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('two processes on one SQLite file', () => {
  const procs: ServerProcess[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-shared-'));
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      ports.push(port);
      procs.push(await startProcess({
        command: process.execPath, args: [SERVER], cwd: REPO, ready: READY_LINE,
        env: cleanEnv({
          HOST: '127.0.0.1', PORT: String(port), SQLITE_PATH: path.join(dir, 'demo.sqlite'),
          PROFILER_SQLITE: path.join(dir, 'profiler.sqlite'), LOG_LEVEL: 'warn',
        }),
      }));
    }
  }, 60_000);

  afterAll(async () => {
    for (const p of procs) await stopProcess(p).catch(() => killIfRunning(p));
  });

  test(`${N} concurrent POST /api/books: every 201 has its own id and every one is stored`, async () => {
    const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
    const posts = Array.from({ length: N }, (_, i) => post(agents[i % 2], ports[i % 2], `book ${i}`));
    const results = await Promise.all(posts);
    for (const a of agents) a.destroy();
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 201: N });
    const created = results.map((r) => JSON.parse(r.body) as { id: string; title: string });
    const ids = created.map((b) => b.id);
    expect(new Set(ids).size).toBe(N);

    const list = await new Promise<string>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: ports[1], path: '/api/books', agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    const stored = new Map((JSON.parse(list) as Array<{ id: string; title: string }>).map((b) => [b.id, b.title]));
    const missing = created.filter((b) => stored.get(b.id) !== b.title);
    expect(missing).toEqual([]);
    // both processes also wrote every request's profile to one profiler SQLite file
    for (const p of procs) expect(p.output()).not.toMatch(/storage failed|SQLITE_BUSY/);
  }, 120_000);
});
