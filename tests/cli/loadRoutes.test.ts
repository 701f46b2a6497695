import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { debugRouter } from '../../src/cli/debugRouter';
import { isRouteCollectionLike, isRoutesModuleError, loadRoutes, RoutesModuleError } from '../../src/cli/loadRoutes';
import { routerMatch } from '../../src/cli/routerMatch';
import { RouteCollection } from '../../src/routing';

// The temporary modules require the routing classes from src: jest's module system loads the
// TypeScript through ts-jest, as it does for the tests themselves. (The real-process test in
// main.test.ts uses modules that require the built dist instead.)
const ROUTING_SRC = path.resolve(__dirname, '../../src/routing/index.ts');

let dir: string;

function writeModule(file: string, body: string): string {
  const full = path.join(dir, file);
  fs.writeFileSync(full, `const { Route, RouteCollection } = require(${JSON.stringify(ROUTING_SRC)});\n${body}\n`);
  return full;
}

const TABLE = `new RouteCollection()
  .add('hello', new Route('/hello/{name}', { methods: ['GET'], requirements: { name: '[a-z]+' } }))
  .add('bye', new Route('/bye'))`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-cli-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadRoutes(modulePath, cwd)', () => {
  it('returns the demo table without a module', () => {
    expect(loadRoutes().all().map(([n]) => n)).toEqual([
      'home', 'api_entrypoint', 'book_list', 'book_create', 'book_show', 'book_update', 'book_delete',
      'hello_slash', 'plain', 'localized_about', 'admin_dashboard', 'boom', 'api_time',
    ]);
  });

  it.each([
    ['module.exports = collection', 'cjs.js', `module.exports = ${TABLE};`],
    ['a default export', 'esm-default.js', `Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = ${TABLE};`],
    ['a "routes" export', 'named.js', `exports.routes = ${TABLE};`],
    ['a createRoutes() function', 'factory.js', `exports.createRoutes = () => ${TABLE};`],
  ])('loads a collection exported as %s', (_label, file, body) => {
    const routes = loadRoutes(writeModule(file, body));
    expect(routes).toBeInstanceOf(RouteCollection);
    expect(routes.all().map(([n]) => n)).toEqual(['hello', 'bye']);
  });

  it('resolves a relative path against cwd, with or without the .js extension', () => {
    writeModule('relative.js', `exports.routes = ${TABLE};`);
    expect(loadRoutes('./relative.js', dir).size).toBe(2);
    expect(loadRoutes('./relative', dir).size).toBe(2);
  });

  it('feeds the commands: router:match and debug:router work on the loaded table', () => {
    const routes = loadRoutes(writeModule('commands.js', `exports.routes = ${TABLE};`));
    expect(routerMatch(routes, '/hello/World').output)
      .toContain(' Route "hello" almost matches but requirement for "name" does not match ([a-z]+)');
    expect(routerMatch(routes, '/hello/world').output).toContain(' [OK] Route "hello" matches');
    expect(debugRouter(routes).output).toContain('  hello   GET      ANY      ANY    /hello/{name}  ');
  });

  it('throws a RoutesModuleError naming the module when it cannot be found', () => {
    let caught: unknown;
    try {
      loadRoutes('./missing.js', dir);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RoutesModuleError);
    expect(isRoutesModuleError(caught)).toBe(true);
    const error = caught as RoutesModuleError;
    expect(error.message).toMatch(/^Cannot load the routes module "\.\/missing\.js": Cannot find module/);
    expect(error.message).not.toContain('\n');
    expect(error.modulePath).toBe('./missing.js');
    expect(error.code).toBe('ERR_CLI_ROUTES_MODULE');
    expect(error.cause).toBeDefined();
  });

  it('throws when the module itself throws while loading', () => {
    const file = writeModule('broken.js', "throw new Error('bad table');");
    expect(() => loadRoutes(file)).toThrow(`Cannot load the routes module "${file}": bad table`);
  });

  it('throws when the module exports no collection', () => {
    const file = writeModule('empty.js', 'exports.other = 1;');
    expect(() => loadRoutes(file)).toThrow(
      `The routes module "${file}" exports no RouteCollection: export one as the default export or as "routes", or export a function createRoutes() that returns one.`,
    );
  });

  it('throws when createRoutes() throws or returns something else', () => {
    const throwing = writeModule('factory-throws.js', "exports.createRoutes = () => { throw new Error('nope'); };");
    expect(() => loadRoutes(throwing)).toThrow(`createRoutes() of the routes module "${throwing}" failed: nope`);
    const wrong = writeModule('factory-wrong.js', 'exports.createRoutes = () => [];');
    expect(() => loadRoutes(wrong)).toThrow(`createRoutes() of the routes module "${wrong}" did not return a RouteCollection.`);
  });
});

describe('isRouteCollectionLike(value)', () => {
  it('accepts anything with all(), get() and entries(), such as a collection from another copy of the package', () => {
    expect(isRouteCollectionLike(new RouteCollection())).toBe(true);
    expect(isRouteCollectionLike({ all: () => [], get: () => undefined, entries: () => [] })).toBe(true);
    expect(isRouteCollectionLike({ all: () => [] })).toBe(false);
    expect(isRouteCollectionLike(null)).toBe(false);
  });
});
