/**
 * The optional peer dependencies (better-sqlite3, pg, redis, connect-redis, bcryptjs), hidden from a
 * child process running the build: a `--require` hook makes Node's resolver answer for them as it
 * does for a package that is not installed (MODULE_NOT_FOUND, "Cannot find module '<name>'").
 * tests/package/pack.test.ts checks the same in a real install without them.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadPeer, MissingPeerDependencyError } from '../../src/storage/optionalPeer';

const REPO = path.resolve(__dirname, '..', '..');
let hook = '';

const HOOK = `
const Module = require('node:module');
const hidden = (process.env.HIDE_PACKAGES || '').split(',').filter(Boolean);
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (hidden.some((name) => request === name || request.startsWith(name + '/'))) {
    const err = new Error("Cannot find module '" + request + "'");
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  return resolve.call(this, request, ...rest);
};`;

/** Runs `code` (CommonJS, cwd = the repository) with `hide` made uninstallable; resolves with stdout's last line. */
function runHiding(hide: string[], code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--require', hook, '-e', code], {
      cwd: REPO, encoding: 'utf8', env: { ...process.env, HIDE_PACKAGES: hide.join(',') },
    }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(stdout.trim().split('\n').pop() ?? '');
    });
  });
}

/** The message of what `expression` (sync or a promise) throws, printed by the child. */
const messageOf = (expression: string): string => `
  Promise.resolve().then(() => ${expression}).then(() => console.log('no error'), (e) => console.log(e.message));`;

beforeAll(() => {
  if (!fs.existsSync(path.join(REPO, 'dist', 'index.js'))) {
    throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
  }
  hook = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ek-hide-')), 'hide.js');
  fs.writeFileSync(hook, HOOK);
});
afterAll(() => { if (hook) fs.rmSync(path.dirname(hook), { recursive: true, force: true }); });

describe('a missing optional peer', () => {
  test('the kernel still loads and serves without any of them', async () => {
    const out = await runHiding(['better-sqlite3', 'redis', 'connect-redis', 'bcryptjs'], `
      const { createKernel, Route, RouteCollection } = require('./dist');
      const routes = new RouteCollection();
      routes.add('hi', new Route('/hi', { controller: (req, res) => res.send('hi') }));
      const server = createKernel({ routes }).listen(0, '127.0.0.1', async () => {
        const res = await fetch('http://127.0.0.1:' + server.address().port + '/hi');
        console.log(res.status + ' ' + await res.text());
        server.close();
      });`);
    expect(out).toBe('200 hi');
  });

  test('better-sqlite3: openSqlite says which package to install', async () => {
    const out = await runHiding(['better-sqlite3'], messageOf("require('./dist/profiler').openSqlite(':memory:')"));
    expect(out).toMatch(/^better-sqlite3 is not installed: npm install better-sqlite3 \(needed for SQLite storage/);
  });

  test('better-sqlite3: the session layer\'s default SQLite store says so at construction', async () => {
    const out = await runHiding(['better-sqlite3'], messageOf(
      "require('./dist/session').sessionLayer({ secret: 'x'.repeat(32), sqlitePath: ':memory:' })"));
    expect(out).toContain('better-sqlite3 is not installed: npm install better-sqlite3');
  });

  test('redis: openRedis says which package to install', async () => {
    const out = await runHiding(['redis'], messageOf("require('./dist/profiler').openRedis('redis://127.0.0.1:1')"));
    expect(out).toMatch(/^redis is not installed: npm install redis \(needed for Redis storage/);
  });

  test('connect-redis: a Redis session store says which package to install', async () => {
    // an open client's surface, enough to pass option validation; connect-redis is never reached
    const out = await runHiding(['connect-redis'], messageOf(
      "require('./dist/session').sessionLayer({ secret: 'x'.repeat(32), store: 'redis', "
      + 'redis: { get() {}, isOpen: true, isReady: true } })'));
    expect(out).toMatch(/^connect-redis is not installed: npm install connect-redis \(needed for Redis sessions/);
  });

  test('bcryptjs: InMemoryUserProvider says which package to install', async () => {
    const out = await runHiding(['bcryptjs'], messageOf(
      "new (require('./dist/security').InMemoryUserProvider)({ users: { ada: { password: 'pw' } } })"));
    expect(out).toMatch(/^bcryptjs is not installed: npm install bcryptjs \(needed for password hashing/);
  });

  test('pg: createSqlState with a postgres:// URL says which package to install', async () => {
    const out = await runHiding(['pg'], messageOf(
      "require('./dist/api/sql').createSqlState({ url: 'postgres://app@127.0.0.1:5432/app' })"));
    expect(out).toMatch(/^pg is not installed: npm install pg \(needed for PostgreSQL storage/);
  });

  test('pg: the SQLite store needs no pg', async () => {
    const out = await runHiding(['pg'], messageOf(
      "require('./dist/api/sql').createSqlState({ sqlitePath: ':memory:' }).migrate({})"));
    expect(out).toBe('no error');
  });

  test('an error inside an installed peer is not reported as a missing package', async () => {
    // better-sqlite3 is present; one of ITS imports (bindings) is hidden
    const out = await runHiding(['bindings'], messageOf("require('./dist/profiler').openSqlite(':memory:')"));
    expect(out).toContain("Cannot find module 'bindings'");
    expect(out).not.toContain('is not installed');
  });
});

describe('loadPeer(name)', () => {
  test('returns the installed package, the same module each time', () => {
    const first = loadPeer<{ hashSync: unknown }>('bcryptjs');
    expect(typeof first.hashSync).toBe('function');
    expect(loadPeer('bcryptjs')).toBe(first);
  });

  test('MissingPeerDependencyError names the package', () => {
    const e = new MissingPeerDependencyError('redis');
    expect(e.name).toBe('MissingPeerDependencyError');
    expect(e.packageName).toBe('redis');
    expect(e.message).toMatch(/^redis is not installed: npm install redis/);
  });
});
