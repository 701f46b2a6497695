/**
 * The Dockerfile, replayed without Docker (no engine runs on these machines):
 * its own build RUN steps and COPY lines run in a temporary copy of the
 * repository, then its CMD starts with its ENV as an unprivileged user, and the
 * server must answer and stop cleanly. Change the Dockerfile's RUN, COPY, ENV,
 * VOLUME or CMD lines and this test runs the new ones. See tests/service/dockerfile.ts
 * for what is replayed.
 *
 * Differences from a real `docker build`/`docker run`, by necessity:
 * - the host's Node.js stands in for the base image's (the base image is checked
 *   to be a Node.js image of the active LTS line);
 * - `apt-get install` steps are not run here: each package they name must
 *   already be installed on this machine (it is checked);
 * - USER: the host has no `node` user, so the CMD runs as `nobody` (setpriv, from
 *   util-linux) in a copy of the runtime stage where root keeps what root owns
 *   and `nobody` gets what the image gives `node` (uid 1000), as a container
 *   would see it, a VOLUME included;
 * - the server gets HOST=127.0.0.1 and a free PORT instead of the image's
 *   HOST/PORT, so that nothing listens outside loopback.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import {
  commandOf,
  dockerignore,
  makeContext,
  parseDockerfile,
  replay,
  splitFlags,
  unprivilegedCopy,
  type ReplayResult,
} from './dockerfile';
import { compileTrust } from '../../src/http/RequestUri';
import {
  cleanEnv,
  freePort,
  httpGet,
  killIfRunning,
  startProcess,
  stopProcess,
  type ServerProcess,
} from './serverProcess';
import { scaled } from '../helpers/timeScale';

const REPO = path.resolve(__dirname, '..', '..');
const DOCKERFILE = path.join(REPO, 'Dockerfile');
/** The users of the official node images, by uid. */
const IMAGE_USERS: Record<string, number> = { node: 1000 };
/** The active Node.js LTS line, which both stages must be built on. */
const ACTIVE_LTS = 24;
const NOBODY = { uid: 65534, gid: 65534 };

jest.setTimeout(scaled(30_000));

/** Every path under `dir` (files and folders), relative to it. */
function walk(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = path.posix.join(rel, e.name);
    out.push(r);
    if (e.isDirectory()) out.push(...walk(dir, r));
  }
  return out;
}

/** Every tracked (or untracked, not git-ignored) file of the repository. */
function repoFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
}

/** The HEALTHCHECK command of the Dockerfile's last stage, read without replaying the build. */
function healthcheckCommand(): string[] {
  const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
  const ins = stages[stages.length - 1].instructions.find((i) => i.op === 'HEALTHCHECK');
  if (!ins) throw new Error('the runtime stage has no HEALTHCHECK');
  const m = /^CMD\s+(.*)$/is.exec(splitFlags(ins.rest).body);
  if (!m) throw new Error(`cannot read HEALTHCHECK ${ins.rest}`);
  return commandOf(m[1]);
}

// These read the Dockerfile, .dockerignore and README without the replay (which runs `npm ci`
// for minutes): `npx jest tests/service/dockerfile.test.ts -t 'without the replay'`.
describe('Dockerfile, .dockerignore and README, read without the replay', () => {
  test('the HEALTHCHECK requests /healthz (answered in front of the kernel: no profile every 30 s) and passes on its 200', async () => {
    const paths: string[] = [];
    const server = http.createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const [cmd, ...args] = healthcheckCommand();
      const res = await new Promise<{ status: number | null }>((resolve) => {
        const child = spawn(cmd, args, { env: cleanEnv({ PORT: String(port) }), stdio: 'ignore' });
        child.on('exit', (status) => resolve({ status }));
      });
      expect({ status: res.status, paths }).toEqual({ status: 0, paths: ['/healthz'] });
    } finally {
      server.close();
    }
  });

  test('.dockerignore keeps tests, docs, bench, build artifacts, node_modules, SQLite files and .git out of the build context', () => {
    const ignored = dockerignore(fs.readFileSync(path.join(REPO, '.dockerignore'), 'utf8'));
    const outside = [
      'tests/service/dockerfile.test.ts',
      'docs/ARCHITECTURE.md',
      'bench/run.ts',
      'dist/demo/server.js',
      'build/tsconfig.build.tsbuildinfo',
      'coverage/lcov.info',
      'test-artifacts/x.log',
      'node_modules/express/package.json',
      'var/demo.sqlite',
      'demo.sqlite',
      '.git/HEAD',
    ];
    expect(outside.filter((rel) => !ignored(rel))).toEqual([]);
    // nothing of tests/, docs/ or bench/ as the repository has them reaches the context
    expect(repoFiles().filter((rel) => /^(tests|docs|bench)\//.test(rel) && !ignored(rel))).toEqual([]);
  });

  test('.dockerignore keeps what the build needs: the COPY sources, the files RUN names, the tsconfig chain, and what the runtime copies of the sources', () => {
    const ignored = dockerignore(fs.readFileSync(path.join(REPO, '.dockerignore'), 'utf8'));
    const all = repoFiles();
    const files = all.filter((rel) => !ignored(rel));
    const has = (rel: string) => files.some((f) => f === rel || f.startsWith(`${rel}/`));
    const inRepo = (rel: string) => all.some((f) => f === rel || f.startsWith(`${rel}/`));
    const needed = new Set<string>(['tsconfig.build.json']);
    // tsconfig.build.json (what `npm run build` compiles with) and the files it extends
    for (let cfg = 'tsconfig.build.json'; ; ) {
      const ext = (JSON.parse(fs.readFileSync(path.join(REPO, cfg), 'utf8')) as { extends?: string }).extends;
      if (!ext) break;
      cfg = path.posix.normalize(path.posix.join(path.posix.dirname(cfg), ext));
      needed.add(cfg);
    }
    const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
    for (const stage of stages) {
      for (const ins of stage.instructions) {
        const { flags, body } = splitFlags(ins.rest);
        if (ins.op === 'COPY') {
          const sources = body.split(/\s+/).slice(0, -1);
          for (const s of sources) {
            // from the context, or from an earlier stage of the repository's folders (src, templates, config)
            const rel = flags.from === undefined ? s : s.replace(/^\/app\//, '');
            if (rel === '.' || (flags.from !== undefined && !inRepo(rel))) continue; // dist, node_modules: made by the build
            needed.add(rel);
          }
        }
        if (ins.op === 'RUN') {
          for (const w of body.split(/\s+/)) if (/^[\w.-]+\/[\w./-]+$/.test(w) && inRepo(w)) needed.add(w);
        }
      }
    }
    expect([...needed]).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src', 'templates', 'config', 'scripts/image-dependencies.js', 'tsconfig.json']));
    expect([...needed].filter((rel) => !has(rel))).toEqual([]);
  });

  test('the build installs lockfile-exact: `npm ci`, then a prune to production dependencies (no `npm install`)', () => {
    const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
    const npmCommands = stages
      .flatMap((s) => s.instructions)
      .filter((i) => i.op === 'RUN')
      .flatMap((i) => splitFlags(i.rest).body.split(/&&|\|\||;/))
      .map((c) => c.trim())
      .filter((c) => /^npm\s/.test(c) && !/^npm run\s/.test(c));
    expect(npmCommands.map((c) => c.split(/\s+/).slice(0, 2).join(' '))).toEqual(['npm ci', 'npm prune']);
    expect(npmCommands[1]).toMatch(/\s--omit=dev(\s|$)/);
  });

  test("the README's allowed-IPs advice covers Docker's default networks (gateway 172.17.0.1) and podman's (10.88.0.1), and says podman needs --format docker for the HEALTHCHECK", () => {
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const m = /docker run [^\n]*-e PROFILER_ALLOWED_IPS=(\S+)/.exec(readme);
    expect(m).not.toBeNull();
    const allowed = compileTrust(m![1].split(','));
    expect(['172.17.0.1', '172.18.0.1', '10.88.0.1'].filter((ip) => !allowed(ip, 0))).toEqual([]);
    expect(allowed('192.0.2.1', 0)).toBe(false);
    expect(readme).toMatch(/podman build --format docker/);
  });
});

describe('Dockerfile, replayed without Docker', () => {
  let tmp = '';
  let bases: string[] = [];
  let built: ReplayResult;
  /** the runtime stage as `nobody` sees it: root-owned, its VOLUME nobody's */
  let copyRoot = '';
  let copyWorkdir = '';
  let server: ServerProcess | undefined;
  let port = 0;
  let runEnv: NodeJS.ProcessEnv = {};
  /** runs argv as nobody (setpriv execs it: the pid, and so SIGTERM, are argv's own) */
  const asNobody = (argv: string[]): string[] =>
    ['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups', '--', ...argv];

  beforeAll(async () => {
    const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
    bases = stages.map((s) => s.base).filter((b) => !stages.some((s) => s.name === b));
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-docker-'));
    fs.chmodSync(tmp, 0o755); // nobody reaches the copy made in it
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
    const imageUid = IMAGE_USERS[built.user ?? ''];
    if (imageUid === undefined) throw new Error(`USER ${built.user}: expected one of ${Object.keys(IMAGE_USERS).join(', ')}`);
    copyRoot = unprivilegedCopy(built.rootfs, path.join(tmp, 'as-nobody', 'rootfs'), imageUid, NOBODY.uid, NOBODY.gid);
    copyWorkdir = path.join(copyRoot, built.containerWorkdir);
    port = await freePort();
    // a container's environment: the image's ENV, PATH for the host's node
    runEnv = {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: '/nonexistent',
      ...built.env,
      HOST: '127.0.0.1',
      PORT: String(port),
    };
    const [command, ...args] = asNobody(built.cmd);
    server = await startProcess({
      command,
      args,
      cwd: copyWorkdir,
      env: runEnv,
      ready: new RegExp(`express-kernel listening on http://127\\.0\\.0\\.1:${port}(\\D|$)`),
      timeoutMs: 30_000,
    });
  }, scaled(20 * 60_000)); // npm ci builds better-sqlite3 from source: 4 to 9 minutes on a busy 2-core machine

  afterAll(() => {
    killIfRunning(server);
    if (tmp && !process.env.KEEP_DOCKER_REPLAY) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test(`both stages are Node.js ${ACTIVE_LTS} (active LTS) images; the runtime runs as a non-root user in production mode`, () => {
    expect(bases.length).toBeGreaterThanOrEqual(1);
    for (const base of bases) expect(base).toMatch(new RegExp(`^node:${ACTIVE_LTS}(\\D|$)`));
    expect(built.user).not.toBeNull();
    expect(built.user).not.toMatch(/^(root|0)(:|$)/);
    expect(built.env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', APP_ENV: 'dev' });
    expect(built.expose.map((p) => p.replace(/\/tcp$/, ''))).toContain(built.env.PORT);
  });

  test("the system packages the build installs are installed here (python3, make, g++ for better-sqlite3's node-gyp)", () => {
    expect(built.aptPackages.length).toBeGreaterThan(0);
    for (const pkg of built.aptPackages) {
      const q = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
      expect({ pkg, status: q.stdout }).toEqual({ pkg, status: 'install ok installed' });
    }
  });

  test('the runtime stage holds the compiled server, the sources its maps name and production dependencies only', () => {
    expect(fs.existsSync(path.join(built.workdir, 'dist', 'demo', 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'express'))).toBe(true);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'typescript'))).toBe(false);
    expect(fs.existsSync(path.join(built.workdir, 'node_modules', 'jest'))).toBe(false);
    // the TypeScript sources the exception pages' source-mapped frames show, not the tests
    expect(fs.existsSync(path.join(built.workdir, 'src', 'demo', 'server.ts'))).toBe(true);
    expect(fs.existsSync(path.join(built.workdir, 'tests'))).toBe(false);
  });

  test("better-sqlite3 keeps its compiled addon only: no SQLite or C++ sources, no node-gyp intermediates", () => {
    const dir = path.join(built.workdir, 'node_modules', 'better-sqlite3');
    const entries = walk(dir);
    expect(entries).toContain('build/Release/better_sqlite3.node');
    expect(entries.filter((e) => e.startsWith('build/'))).toEqual(['build/Release', 'build/Release/better_sqlite3.node']);
    expect(entries.filter((e) => /^(deps|src)(\/|$)|\.(c|cpp|h|hpp|o|a|mk|gyp)$/.test(e))).toEqual([]);
  });

  test("the image's user owns one folder of the WORKDIR, a VOLUME; root owns the rest", () => {
    expect(built.volumes).toHaveLength(1);
    const imageUid = IMAGE_USERS[built.user!];
    const own = walk(built.workdir).filter((rel) => fs.lstatSync(path.join(built.workdir, rel)).uid === imageUid);
    expect(own.map((rel) => path.posix.join(built.containerWorkdir, rel))).toEqual([built.volumes[0]]);
    expect(fs.statSync(path.join(copyRoot, built.volumes[0])).uid).toBe(NOBODY.uid);
  });

  test('GET /api answers 200 with JSON-LD', async () => {
    const res = await httpGet(`http://127.0.0.1:${port}/api`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(() => JSON.parse(res.body)).not.toThrow();
  });

  test('GET /nope answers 404 with an X-Debug-Token (APP_ENV=dev)', async () => {
    const res = await httpGet(`http://127.0.0.1:${port}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers['x-debug-token']).toMatch(/^[0-9a-f]{6}$/);
  });

  test('the SQLite files (demo data, profiles) are written inside the VOLUME, nowhere else', () => {
    const written = walk(copyRoot).filter((rel) => /\.sqlite$/.test(rel)).map((rel) => `/${rel}`).sort();
    expect(written).toEqual([`${built.volumes[0]}/demo.sqlite`, `${built.volumes[0]}/profiler.sqlite`]);
  });

  test('the HEALTHCHECK command passes against the running server', () => {
    if (!built.healthcheck) return; // no HEALTHCHECK: nothing to run
    const [cmd, ...args] = asNobody(built.healthcheck);
    const res = spawnSync(cmd, args, { cwd: copyWorkdir, env: runEnv, encoding: 'utf8', timeout: scaled(10_000) });
    expect({ status: res.status, stderr: res.stderr }).toEqual({ status: 0, stderr: '' });
  });

  test('SIGTERM ends the server with exit code 0 within 5 s', async () => {
    const res = await stopProcess(server!, 'SIGTERM', 5_000);
    expect({ code: res.code, signal: res.signal }).toEqual({ code: 0, signal: null });
  });
});
