/**
 * The README's run command as a real process: `node dist/demo/server.js` (what
 * `npm start` runs after its build; `npm test` builds before jest runs), on a
 * free loopback port, driven over real HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  cleanEnv,
  freePort,
  httpGet,
  killIfRunning,
  READY_LINE,
  startProcess,
  stopProcess,
  type ServerProcess,
} from './serverProcess';
import { scaled } from '../helpers/timeScale';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');

/** The repository's own var/ folder (what `npm start` writes), file by file with size and mtime. */
function repoVarState(): string[] {
  const dir = path.join(REPO, 'var');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).sort().map((f) => {
    const st = fs.statSync(path.join(dir, f));
    return `${f} ${st.size} ${st.mtimeMs}`;
  });
}

describe('node dist/demo/server.js', () => {
  let server: ServerProcess | undefined;
  let port = 0;
  let base = '';
  let profilerLink = '';
  /** the test's own stores: `npm test` leaves var/profiler.sqlite and var/demo.sqlite alone */
  let tmp = '';
  let varBefore: string[] = [];

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-process-'));
    varBefore = repoVarState();
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startProcess({
      command: process.execPath,
      args: [SERVER],
      cwd: REPO,
      env: cleanEnv({
        HOST: '127.0.0.1',
        PORT: String(port),
        SQLITE_PATH: path.join(tmp, 'demo.sqlite'),
        PROFILER_SQLITE: path.join(tmp, 'profiler.sqlite'),
      }),
      ready: READY_LINE,
      timeoutMs: 20_000,
    });
  }, scaled(30_000));

  afterAll(() => {
    killIfRunning(server);
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('prints its ready line with the address it listens on', () => {
    const m = READY_LINE.exec(server!.output());
    expect(m && m[0]).toBe(`express-kernel listening on ${base}`);
  });

  test('GET /api answers 200 with the API entrypoint as JSON-LD', async () => {
    const res = await httpGet(`${base}/api`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ '@id': '/api', '@type': 'Entrypoint', book: '/api/books' });
  });

  test('GET /nope answers 404 with the debug headers', async () => {
    const res = await httpGet(`${base}/nope`);
    expect(res.status).toBe(404);
    const exception = res.headers['x-debug-exception'];
    expect(typeof exception).toBe('string');
    expect(decodeURIComponent(exception as string)).toBe(`No route found for "GET ${base}/nope"`);
    const token = res.headers['x-debug-token'];
    expect(token).toMatch(/^[0-9a-f]{6}$/);
    if (typeof token !== 'string') throw new Error('X-Debug-Token missing');
    expect(res.headers['x-debug-token-link']).toBe(`${base}/_profiler/${token}`);
    profilerLink = res.headers['x-debug-token-link'] as string;
  });

  test('the X-Debug-Token-Link opens the profile, which shows the exception (HTML-escaped)', async () => {
    expect(profilerLink).not.toBe('');
    const res = await httpGet(profilerLink);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // only the quotes are escaped; the port digits stay as they are
    expect(res.body).toContain(`No route found for &quot;GET http://127.0.0.1:${port}/nope&quot;`);
  });

  test('SIGTERM ends it with exit code 0 within 5 s', async () => {
    const res = await stopProcess(server!, 'SIGTERM', 5_000);
    expect({ code: res.code, signal: res.signal }).toEqual({ code: 0, signal: null });
  });

  test("the profiles went to the test's temporary store, not the repository's var/profiler.sqlite", () => {
    expect(fs.statSync(path.join(tmp, 'profiler.sqlite')).size).toBeGreaterThan(0);
    expect(repoVarState()).toEqual(varBefore);
  });
});
