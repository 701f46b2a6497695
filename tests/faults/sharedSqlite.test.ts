/**
 * Two real demo server processes on one SQLITE_PATH (and one profiler SQLite file): concurrent
 * POST /api/books split between them. Every 201 must carry a distinct id, and every acknowledged
 * book must be there afterwards, with its own title.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  cleanEnv, freePort, killIfRunning, READY_LINE, startProcess, stopProcess, type ServerProcess,
} from '../service/serverProcess';
import { scaled } from '../helpers/timeScale';
import { postBook, USER_BASIC } from '../helpers/writeLoad';
import { tempDir } from '../helpers/tempDir';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');
const N = Number(process.env.SHARED_SQLITE_POSTS ?? 600);


/** One page of the books (plain JSON), or null past the last page (a 400). */
function page(port: number, n: number): Promise<Array<{ id: number; title: string }> | null> {
  return new Promise((resolve, reject) => {
    const options = {
      host: '127.0.0.1', port, path: `/api/books?itemsPerPage=100&page=${n}`, agent: false,
      headers: { Accept: 'application/json' },
    };
    http.get(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      type Books = Array<{ id: number; title: string }>;
      res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(body) as Books : null));
    }).on('error', reject);
  });
}

describe('two processes on one SQLite file', () => {
  const procs: ServerProcess[] = [];
  const ports: number[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
    const dir = tempDir('ek-shared-');
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
  }, scaled(60_000));

  afterAll(async () => {
    for (const p of procs) await stopProcess(p).catch(() => killIfRunning(p));
  });

  test(`${N} concurrent POST /api/books: every 201 has its own id and every one is stored`, async () => {
    const agents = ports.map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
    const posts = Array.from({ length: N }, (_, i) => postBook(agents[i % 2], ports[i % 2], `book ${i}`, { Authorization: USER_BASIC }));
    const results = await Promise.all(posts);
    for (const a of agents) a.destroy();
    const statuses = new Map<number, number>();
    for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 201: N });
    const created = results.map((r) => JSON.parse(r.body) as { id: number; title: string });
    const ids = created.map((b) => b.id);
    expect(new Set(ids).size).toBe(N);

    // every page of the collection, read through the other process
    const stored = new Map<number, string>();
    for (let n = 1; ; n++) {
      const books = await page(ports[1], n);
      for (const b of books ?? []) stored.set(b.id, b.title);
      if (books === null || books.length < 100) break;
    }
    const missing = created.filter((b) => stored.get(b.id) !== b.title);
    expect(missing).toEqual([]);
    // both processes also wrote every request's profile to one profiler SQLite file
    for (const p of procs) expect(p.output()).not.toMatch(/storage failed|SQLITE_BUSY/);
  }, scaled(120_000));
});
