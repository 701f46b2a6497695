/**
 * The published package, as a user gets it: `npm pack` (after the build), installed into a fresh
 * project of its own, loaded with require() and with an ESM import, type-checked by a strict
 * consumer next to pino-http, and run.
 *
 * No network: the project is laid out from this repository's node_modules, linking only what the
 * package's `dependencies` reach (see ./consumerProject.ts for why not `npm install --offline`).
 * The optional peers better-sqlite3, redis and connect-redis are not installed in it; bcryptjs is,
 * as the consumer's own choice (its app uses InMemoryUserProvider).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv } from '../service/serverProcess';
import { installConsumer, packInto, REPO } from './consumerProject';
import { scaled } from '../helpers/timeScale';

const EXPORTED_FUNCTIONS = ['createKernel', 'Route', 'RouteCollection', 'UrlMatcher', 'UrlGenerator'];
const CONSUMER_PACKAGES = ['pino-http', '@types/express', '@types/node', 'bcryptjs'];
const OPTIONAL_PEERS = [
  'better-sqlite3', 'redis', 'connect-redis', 'bcryptjs', '@types/express', 'tsx', 'swagger-ui-dist', 'typescript',
];
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

function run(
  cmd: string, args: string[], cwd: string, timeoutMs = 2 * 60_000,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, env: cleanEnv({ CI: 'true' }), timeout: scaled(timeoutMs), maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) {
          const output = `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
          reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${output}`));
        } else resolve({ stdout, stderr });
      },
    );
  });
}

/** The consumer's tsconfig: strict, and the published declarations checked too. */
function tsconfig(outDir: string, resolution: 'nodenext' | 'node10'): object {
  const modules = resolution === 'nodenext'
    ? { module: 'nodenext', moduleResolution: 'nodenext' }
    : { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' };
  return {
    compilerOptions: { ...modules, target: 'ES2022', strict: true, skipLibCheck: false, esModuleInterop: true, outDir },
    files: ['app.ts'],
  };
}

describe('npm pack, installed into a fresh project', () => {
  let tmp = '';
  let project = '';
  let tarball = '';
  let packedFiles: string[] = [];
  let linked: string[] = [];

  beforeAll(() => {
    for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/routing/index.js']) {
      if (!fs.existsSync(path.join(REPO, f))) {
        throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
      }
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-pack-'));
    ({ tarball, files: packedFiles } = packInto(tmp));
    project = path.join(tmp, 'consumer');
    linked = installConsumer(project, tarball, CONSUMER_PACKAGES);
    fs.copyFileSync(path.join(__dirname, 'consumer', 'app.ts'), path.join(project, 'app.ts'));
  }, scaled(2 * 60_000));

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the tarball holds every entry point\'s build, the sources its maps name, the templates and the README; no tests', () => {
    expect(fs.existsSync(tarball)).toBe(true);
    const entries = [
      'routing', 'http', 'security', 'session', 'cors', 'locale', 'timezone', 'profiler', 'testing', 'demo',
    ]
      .flatMap((e) => [`dist/${e}/index.js`, `dist/${e}/index.d.ts`]);
    const expected = ['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'src/index.ts', ...entries];
    expect(packedFiles).toEqual(expect.arrayContaining(expected));
    expect(packedFiles.some((f) => f.startsWith('templates/'))).toBe(true);
    expect(packedFiles.filter((f) => /^(tests|node_modules)\//.test(f))).toEqual([]);
  });

  test('better-sqlite3, redis, connect-redis, bcryptjs, @types/express, tsx, swagger-ui-dist and typescript are optional peers, not installed', () => {
    const installed = path.join(project, 'node_modules', 'express-kernel', 'package.json');
    const manifest = JSON.parse(fs.readFileSync(installed, 'utf8')) as {
      dependencies: Record<string, string>; peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    for (const peer of OPTIONAL_PEERS) {
      expect(manifest.dependencies[peer]).toBeUndefined();
      expect(manifest.peerDependencies[peer]).toBeDefined();
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    expect(linked).toEqual(expect.arrayContaining(['@types/express-session', '@types/better-sqlite3', 'pino-http']));
    const absent = ['better-sqlite3', 'redis', 'connect-redis', '@redis/client', 'tsx', 'esbuild', 'swagger-ui-dist'];
    expect(linked.filter((p) => absent.includes(p))).toEqual([]);
  });

  test('without swagger-ui-dist, /api/docs says how to install it and links to the OpenAPI document', async () => {
    const code = `
      const { createKernel } = require('express-kernel');
      const { apiRoutes, defineResource, MemoryState } = require('express-kernel/api');
      const { z } = require('zod');
      const store = new MemoryState();
      const note = defineResource({ shortName: 'Note', schema: z.object({ text: z.string() }), provider: store, processor: store });
      const server = createKernel({ routes: apiRoutes({ resources: [note] }) }).listen(0, '127.0.0.1', async () => {
        try {
          const base = 'http://127.0.0.1:' + server.address().port;
          const page = await fetch(base + '/api/docs', { headers: { accept: 'text/html' } });
          const doc = await fetch(base + '/api/docs.json');
          console.log(JSON.stringify({ page: await page.text(), doc: (await doc.json()).paths }));
        } finally { server.close(); }
      });`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    const result = JSON.parse(stdout.trim()) as { page: string; doc: Record<string, unknown> };
    expect(result.page).toContain('swagger-ui-dist is not installed: npm install swagger-ui-dist (needed for the Swagger UI page at /api/docs)');
    expect(result.page).toContain('<a href="/api/docs.json">');
    expect(Object.keys(result.doc)).toEqual(['/notes', '/notes/{id}']);
  });

  test('without tsx, the CLI on a TypeScript routes file says how to install it', async () => {
    fs.writeFileSync(path.join(project, 'routes.ts'), 'export default {};\n');
    const cli = path.join(project, 'node_modules', 'express-kernel', 'dist', 'cli', 'main.js');
    const error = await run(process.execPath, [cli, 'debug:router', '--routes', 'routes.ts'], project, 60_000)
      .then(() => new Error('the command succeeded'), (e: Error) => e);
    // the CLI wraps its error lines at the terminal's width: compared without white space
    const squeezed = (text: string): string => text.replace(/\s+/g, '');
    expect(squeezed(error.message)).toContain(squeezed(
      'Cannot load the routes module "routes.ts": tsx is not installed: npm install tsx (needed for TypeScript route files in the CLI (--routes routes.ts))',
    ));
  });

  test('require() gives the public API', async () => {
    const code = `
      const k = require('express-kernel');
      const names = ${JSON.stringify(EXPORTED_FUNCTIONS)};
      console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, typeof k[n]]))));`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    expect(JSON.parse(stdout.trim())).toEqual(Object.fromEntries(EXPORTED_FUNCTIONS.map((n) => [n, 'function'])));
  });

  test('an ESM import gives named exports, from the root and from a subpath', async () => {
    const code = `
      import { Route, createKernel } from 'express-kernel';
      import { UrlMatcher } from 'express-kernel/routing';
      console.log(JSON.stringify([typeof Route, typeof createKernel, typeof UrlMatcher]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], project, 60_000);
    expect(JSON.parse(stdout.trim())).toEqual(['function', 'function', 'function']);
  });

  test('express-kernel/package.json resolves and the installed package carries its types', async () => {
    const code = `console.log(require.resolve('express-kernel/package.json'))`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    const pkgJson = stdout.trim();
    const installed = path.join(project, 'node_modules', 'express-kernel', 'package.json');
    expect(fs.realpathSync(pkgJson)).toBe(fs.realpathSync(installed));
    expect(fs.existsSync(path.join(path.dirname(pkgJson), 'dist', 'index.d.ts'))).toBe(true);
  });

  test('a missing optional peer is named when its feature is used', async () => {
    const code = `
      try { require('express-kernel/profiler').openSqlite(':memory:'); console.log('opened'); }
      catch (e) { console.log(e.message); }`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    expect(stdout.trim()).toMatch(/^better-sqlite3 is not installed: npm install better-sqlite3 /);
  });

  // the consumer: createKernel, Route/RouteCollection/UrlGenerator, the subpaths, profileOf, and
  // pino-http's req.log.info in a controller
  test.each(['nodenext', 'node10'] as const)(
    'a strict consumer (skipLibCheck: false) using the API with pino-http compiles (moduleResolution %s)',
    async (resolution) => {
      const config = path.join(project, `tsconfig.${resolution}.json`);
      fs.writeFileSync(config, JSON.stringify(tsconfig(`out-${resolution}`, resolution), null, 2));
      const { stdout } = await run(process.execPath, [TSC, '-p', config, '--pretty', 'false'], project);
      expect(stdout).toBe('');
      expect(fs.existsSync(path.join(project, `out-${resolution}`, 'app.js'))).toBe(true);
    },
    // tsc on the whole consumer: 120 s was too short at load 21 (a CI-like run, 2 cores)
    scaled(4 * 60_000),
  );

  test("the compiled consumer runs: pino-http's req.log in a kernel controller feeds the Logs panel", async () => {
    const code = `
      const { app, loggedMessages } = require('./out-nodenext/app.js');
      const server = app.listen(0, '127.0.0.1', async () => {
        try {
          const res = await fetch('http://127.0.0.1:' + server.address().port + '/kernel/hello/ada');
          const body = await res.json();
          const logs = await loggedMessages(res.headers);
          console.log('RESULT ' + JSON.stringify({ status: res.status, body, logs }));
        } finally { server.close(); }
      });`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    type Result = { status: number; body: { hello: string }; logs: string[] };
    // pino-http writes its own JSON lines to stdout, before or after ours: ours is marked
    const line = stdout.split('\n').find((l) => l.startsWith('RESULT ')) ?? '';
    const result = JSON.parse(line.slice('RESULT '.length)) as Result;
    expect(result.status).toBe(200);
    expect(result.body.hello).toBe('ada');
    expect(result.logs).toContain('hello');
  });
});
