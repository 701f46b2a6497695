/**
 * The README's first command on a clean clone: `git clone` of this checkout's HEAD into a
 * temporary folder, then the command's start part, `npm start` (which builds, then runs
 * `node dist/demo/server.js`) with PORT=0; it must say it is building first, then the server must print
 * its ready line, answer /api with 200
 * and end with exit code 0 on SIGTERM. A second build must find nothing to compile.
 *
 * The command's install part (`npm ci`) is not run: node_modules is this checkout's, copied by
 * hard links (`cp -al`), which takes a second and needs no network, where `npm ci` takes minutes
 * and the registry; both give the packages package-lock.json names.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, httpGet, killIfRunning, READY_LINE, startProcess, stopProcess, type ServerProcess } from './serverProcess';
import { scaled } from '../helpers/timeScale';

const REPO = path.resolve(__dirname, '..', '..');

/** The first command of the README's first `sh` block. */
function firstReadmeCommand(): string {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const block = /```sh\n([^\n]+)\n/.exec(readme);
  if (!block) throw new Error('README.md has no ```sh block');
  return block[1].trim();
}

jest.setTimeout(scaled(30_000));

describe("the README's first command on a clean clone", () => {
  let tmp = '';
  let clone = '';
  let server: ServerProcess | undefined;
  let base = '';

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-clone-'));
    clone = path.join(tmp, 'express-kernel');
    execFileSync('git', ['clone', '--quiet', REPO, clone]);
    execFileSync('cp', ['-al', path.join(REPO, 'node_modules'), path.join(clone, 'node_modules')]);
    server = await startProcess({
      command: 'npm',
      args: ['start'],
      cwd: clone,
      env: cleanEnv({ HOST: '127.0.0.1', PORT: '0' }),
      ready: READY_LINE,
      timeoutMs: 5 * 60_000,
    });
    const m = READY_LINE.exec(server.output())!;
    base = `http://${m[1]}:${m[2]}`;
  }, scaled(6 * 60_000));

  afterAll(() => {
    killIfRunning(server);
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('is `npm ci && npm start`', () => {
    expect(firstReadmeCommand()).toBe('npm ci && npm start');
  });

  test('npm start builds and serves: GET /api answers 200', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(base).not.toMatch(/:0$/);
    const res = await httpGet(`${base}/api`);
    expect(res.status).toBe(200);
  });

  test('npm start says what it is doing before the first build, then prints its ready line', () => {
    const out = server!.output();
    const building = out.indexOf('Building express-kernel (tsc, about a minute on a first start)…');
    expect(building).toBeGreaterThanOrEqual(0);
    expect(building).toBeLessThan(out.search(READY_LINE));
  });

  test('SIGTERM ends it with exit code 0', async () => {
    const res = await stopProcess(server!, 'SIGTERM', 10_000);
    expect({ code: res.code, signal: res.signal }).toEqual({ code: 0, signal: null });
  });

  test('leaves the clone clean (its state goes to the ignored var/, the build to dist/)', () => {
    expect(fs.existsSync(path.join(clone, 'var', 'profiler.sqlite'))).toBe(true);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: clone, encoding: 'utf8' })).toBe('');
  });

  test('a second build with nothing changed compiles nothing (npm start starts at once)', () => {
    const server = path.join(clone, 'dist', 'demo', 'server.js');
    const before = fs.statSync(server).mtimeMs;
    const run = spawnSync('npm', ['run', 'build'], { cwd: clone, env: cleanEnv(), encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(fs.statSync(server).mtimeMs).toBe(before);
  }, scaled(60_000));
});
