/**
 * The entry points, as built in dist/ (run `npx tsc -p tsconfig.build.json` first; `npm test`
 * does): what each one loads, counted in a fresh Node process.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPO = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; default: string }>;
  typesVersions: Record<string, Record<string, string[]>>;
};

interface LoadReport {
  /** Modules in require.cache after loading, relative to the repository. */
  files: string[];
  /** Every bare specifier passed to Module._load (packages and node: built-ins). */
  requested: string[];
  /** The entry's runtime export names. */
  exports: string[];
}

/** Requires `entry` in a fresh Node process and reports what it loaded. */
function load(entry: string): LoadReport {
  const code = `
    const Module = require('node:module');
    const requested = new Set();
    const original = Module._load;
    Module._load = function (request, parent, isMain) {
      if (!request.startsWith('.') && !request.startsWith('/')) requested.add(request);
      return original.apply(this, arguments);
    };
    const api = require(${JSON.stringify(path.join(REPO, entry))});
    const files = Object.keys(require.cache).map((f) => require('node:path').relative(${JSON.stringify(REPO)}, f));
    console.log(JSON.stringify({ files, requested: [...requested], exports: Object.keys(api) }));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', code], { cwd: REPO, encoding: 'utf8' })) as LoadReport;
}

const HEAVY = [
  'express', 'better-sqlite3', 'redis', 'connect-redis', 'bcryptjs', 'nunjucks', 'express-session', 'pino',
];

beforeAll(() => {
  if (!fs.existsSync(path.join(REPO, 'dist', 'routing', 'index.js'))) {
    throw new Error('dist/routing/index.js is missing: run `npx tsc -p tsconfig.build.json` first (npm test does)');
  }
});

describe("require('express-kernel/routing')", () => {
  test('loads only the routing component: no Express, SQLite, Redis, bcrypt or nunjucks, no package at all', () => {
    const { files, requested, exports } = load('dist/routing');
    expect(requested.filter((r) => HEAVY.includes(r))).toEqual([]);
    expect(files.filter((f) => f.includes('node_modules'))).toEqual([]);
    const errorsFloor = ['dist/errors/codes.js', 'dist/errors/KernelError.js'];
    expect(files.every((f) => f.startsWith('dist/routing/') || errorsFloor.includes(f))).toBe(true);
    // the count the closing note reports; a new import into routing shows up here
    // 19 with the route file loader, aliases and localized routes of symfony/routing 5.4, and the KernelError base
    expect(files.length).toBeLessThanOrEqual(20);
    expect(exports).toEqual(expect.arrayContaining(['Route', 'RouteCollection', 'UrlMatcher', 'UrlGenerator']));
  });
});

describe("require('express-kernel')", () => {
  test('exports createKernel, the routing essentials and the errors: at most 40 runtime names', () => {
    const { exports } = load('dist/index.js');
    expect(exports).toEqual(expect.arrayContaining([
      'createKernel', 'Route', 'RouteCollection', 'UrlMatcher', 'UrlGenerator', 'HttpError', 'NotFoundHttpError',
      'ResourceNotFoundError', 'MethodNotAllowedError', 'KernelConfigError', 'MissingPeerDependencyError',
    ]));
    expect(exports.length).toBeLessThanOrEqual(40);
  });

  test('loads neither the demo nor an optional peer (better-sqlite3, redis, connect-redis, bcryptjs)', () => {
    const { files, requested } = load('dist/index.js');
    expect(files.filter((f) => f.startsWith('dist/demo/') || f.startsWith('dist/cli/'))).toEqual([]);
    expect(requested.filter((r) => ['better-sqlite3', 'redis', 'connect-redis', 'bcryptjs'].includes(r))).toEqual([]);
  });
});

describe("require('express-kernel/api/sql')", () => {
  test('loads Kysely but neither pg nor better-sqlite3 until a store is made; express-kernel/api loads none', () => {
    const sqlEntry = load('dist/api/sql/index.js');
    expect(sqlEntry.requested).toContain('kysely');
    expect(sqlEntry.requested.filter((r) => ['pg', 'better-sqlite3'].includes(r))).toEqual([]);
    expect(sqlEntry.exports).toEqual(expect.arrayContaining(['createSqlState', 'resourceTablesMigration', 'queryLogFor']));
    const api = load('dist/api/index.js');
    expect(api.requested.filter((r) => ['kysely', 'pg', 'better-sqlite3'].includes(r))).toEqual([]);
  });
});

describe("require('express-kernel/admin')", () => {
  test('loads the API layer through its entry, not the SQL store: no Kysely for a back office on MemoryState', () => {
    const { files, requested, exports } = load('dist/admin/index.js');
    expect(requested.filter((r) => ['kysely', 'pg', 'better-sqlite3'].includes(r))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/api/sql/'))).toEqual([]);
    expect(exports).toEqual(expect.arrayContaining(['adminRoutes', 'auditLogMigration']));
  });
});

describe('package.json exports', () => {
  const subpaths = Object.keys(pkg.exports).filter((k) => k !== '.' && k !== './package.json');

  test('name the routing, security, session, profiler, testing and demo entry points', () => {
    const named = ['./routing', './security', './session', './profiler', './testing', './demo'];
    expect(subpaths).toEqual(expect.arrayContaining(named));
  });

  test.each(subpaths)('%s has built types and code; typesVersions maps it for moduleResolution "node"', (subpath) => {
    const target = pkg.exports[subpath] as { types: string; default: string };
    expect(fs.existsSync(path.join(REPO, target.types))).toBe(true);
    expect(fs.existsSync(path.join(REPO, target.default))).toBe(true);
    expect(pkg.typesVersions['*'][subpath.slice(2)]).toEqual([target.types.slice(2)]);
    expect(load(target.default).exports.length).toBeGreaterThan(0);
  });
});
