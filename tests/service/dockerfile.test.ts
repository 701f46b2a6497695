/**
 * The Dockerfile, replayed without Docker (no engine runs on these machines):
 * its own build RUN steps and COPY lines run in a temporary copy of the
 * repository, then its CMD starts with its ENV, and the server must answer and
 * stop cleanly. Change the Dockerfile's RUN, COPY, ENV or CMD lines and this
 * test runs the new ones. See tests/service/dockerfile.ts for what is replayed.
 *
 * Differences from a real `docker build`/`docker run`, by necessity:
 * - the host's Node.js stands in for the base image's (the base image is checked
 *   to be a Node.js image of the current LTS line or newer);
 * - `apt-get install` steps are not run here: each package they name must
 *   already be installed on this machine (it is checked);
 * - USER is checked to be a non-root user, not switched to;
 * - the server gets HOST=127.0.0.1 and a free PORT instead of the image's
 *   HOST/PORT, so that nothing listens outside loopback.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeContext, parseDockerfile, replay, type ReplayResult } from './dockerfile';
import {
  cleanEnv,
  freePort,
  httpGet,
  killIfRunning,
  startProcess,
  stopProcess,
  type ServerProcess,
} from './serverProcess';

const REPO = path.resolve(__dirname, '..', '..');
const DOCKERFILE = path.join(REPO, 'Dockerfile');

jest.setTimeout(30_000);

describe('Dockerfile, replayed without Docker', () => {
  let tmp = '';
  let built: ReplayResult;
  let server: ServerProcess | undefined;
  let port = 0;
  let runEnv: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-docker-'));
    const context = path.join(tmp, 'context');
    const files = makeContext(REPO, context);
    expect(files).toContain('package.json');

    const t0 = Date.now();
    // RUN steps start from this machine's environment (for the registry's
    // certificates and npm's own config) less what jest and `npm test` set
    built = replay(stages, context, tmp, cleanEnv({ CI: 'true' }));
    const buildMs = Date.now() - t0;
    console.log(
      `Dockerfile replayed in ${(buildMs / 1000).toFixed(1)} s:\n` +
        built.steps
          .filter((s) => s.ms >= 100)
          .map((s) => `  line ${s.line} ${s.op} ${s.what}: ${(s.ms / 1000).toFixed(1)} s`)
          .join('\n'),
    );

    if (!built.cmd) throw new Error('the Dockerfile has no CMD in its last stage');
    port = await freePort();
    // a container's environment: the image's ENV, PATH for the host's node
    runEnv = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: os.tmpdir(),
      ...built.env,
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    server = await startProcess({
      command: built.cmd[0],
      args: built.cmd.slice(1),
      cwd: built.workdir,
      env: runEnv,
      ready: new RegExp(`express-kernel listening on http://127\\.0\\.0\\.1:${port}(\\D|$)`),
      timeoutMs: 30_000,
    });
  }, 6 * 60_000);

  afterAll(() => {
    killIfRunning(server);
    if (tmp && !process.env.KEEP_DOCKER_REPLAY) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the image is a Node.js LTS image, runs as a non-root user and exposes its PORT', () => {
    const m = /^node:(\d+)/.exec(built.base);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(22);
    expect(built.user).not.toBeNull();
    expect(built.user).not.toMatch(/^(root|0)(:|$)/);
    expect(built.env).toMatchObject({ HOST: '0.0.0.0', APP_ENV: 'dev' });
    expect(built.expose.map((p) => p.replace(/\/tcp$/, ''))).toContain(built.env.PORT);
  });

  test("the system packages the build installs are installed here (python3, make, g++ for better-sqlite3's node-gyp)", () => {
    expect(built.aptPackages.length).toBeGreaterThan(0);
    for (const pkg of built.aptPackages) {
      const q = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
      expect({ pkg, status: q.stdout }).toEqual({ pkg, status: 'install ok installed' });
    }
  });

  test('the runtime stage holds the compiled server and production dependencies only', () => {
    expect(fs.existsSync(path.join(built.workdir, 'dist', 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'express'))).toBe(true);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'typescript'))).toBe(false);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'jest'))).toBe(false);
    expect(fs.existsSync(path.join(built.workdir, 'src'))).toBe(false);
  });

  test('GET /api answers 200 with JSON', async () => {
    const res = await httpGet(`http://127.0.0.1:${port}/api`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(() => JSON.parse(res.body)).not.toThrow();
  });

  test('GET /nope answers 404 with an X-Debug-Token (APP_ENV=dev)', async () => {
    const res = await httpGet(`http://127.0.0.1:${port}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers['x-debug-token']).toMatch(/^[0-9a-f]{6}$/);
  });

  test('the HEALTHCHECK command passes against the running server', () => {
    if (!built.healthcheck) return; // no HEALTHCHECK: nothing to run
    const [cmd, ...args] = built.healthcheck;
    const res = spawnSync(cmd, args, { cwd: built.workdir, env: runEnv, encoding: 'utf8', timeout: 10_000 });
    expect({ status: res.status, stderr: res.stderr }).toEqual({ status: 0, stderr: '' });
  });

  test('SIGTERM ends the server with exit code 0 within 5 s', async () => {
    const res = await stopProcess(server!, 'SIGTERM', 5_000);
    expect({ code: res.code, signal: res.signal }).toEqual({ code: 0, signal: null });
  });
});
