import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { debugRouter } from '../../src/cli/debugRouter';
import {
  CONFIG_FILE_NAMES, isRouteCollectionLike, loadRoutes, resolveRoutesSource, RoutesModuleError, routesFileType,
} from '../../src/cli/loadRoutes';
import { isKernelError } from '../../src/errors/KernelError';
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
      'author_get_collection', 'author_get', 'author_post', 'author_put', 'author_patch', 'author_delete',
      'api_jsonld_context', 'api_doc', 'api_docs_page', 'api_docs_openapi', 'api_docs_asset',
      'hello_slash', 'plain', 'localized_about', 'admin_dashboard', 'admin_audit', 'admin_login', 'admin_logout',
      'admin_locale', 'admin_stylesheet', 'admin_books_index', 'admin_books_export', 'admin_books_new', 'admin_books_new_pick',
      'admin_books_batch_delete',
      'admin_books_batch_action', 'admin_books_detail', 'admin_books_edit', 'admin_books_edit_pick', 'admin_books_delete', 'admin_books_toggle',
      'admin_books_action', 'admin_authors_index', 'admin_authors_export', 'admin_authors_new', 'admin_authors_batch_delete',
      'admin_authors_detail', 'admin_authors_edit', 'admin_authors_delete', 'boom', 'api_time',
    ]);
  });

  it.each([
    ['module.exports = collection', 'cjs.js', `module.exports = ${TABLE};`],
    ['a default export', 'esm-default.js', `Object.defineProperty(exports, '__esModule', { value: true });\nexports.default = ${TABLE};`],
    ['a "routes" export', 'named.js', `exports.routes = ${TABLE};`],
    ['a createRoutes() function', 'factory.js', `exports.createRoutes = () => ${TABLE};`],
    ['a function as module.exports', 'fn.js', `module.exports = () => ${TABLE};`],
    ['a default-exported function', 'fn-default.js', `exports.default = function createRoutes() { return ${TABLE}; };`],
    ['a "routes" function', 'fn-named.js', `exports.routes = () => ${TABLE};`],
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
    expect(isKernelError(caught, 'ERR_CLI_ROUTES_MODULE')).toBe(true);
    const error = caught as RoutesModuleError;
    expect(error.message).toMatch(/^Cannot load the routes module "\.\/missing\.js": Cannot find module/);
    expect(error.message).not.toContain('\n');
    expect(error.modulePath).toBe('./missing.js');
    expect(error.code).toBe('ERR_CLI_ROUTES_MODULE');
    expect(error.message).toContain(`Cannot find module "${path.join(dir, 'missing.js')}"`);
  });

  it('throws when the module itself throws while loading', () => {
    const file = writeModule('broken.js', "throw new Error('bad table');");
    expect(() => loadRoutes(file)).toThrow(`Cannot load the routes module "${file}": bad table`);
  });

  it('throws when the module exports no collection', () => {
    const file = writeModule('empty.js', 'exports.other = 1;');
    expect(() => loadRoutes(file)).toThrow(
      `The routes module "${file}" exports no RouteCollection: export one as the default export or as "routes", `
      + 'or export a function returning one (as the default export, "routes" or "createRoutes").',
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

describe('routesFileType(file)', () => {
  it('sends TypeScript and .mjs through tsx, Symfony route files to the loader, the rest through require', () => {
    expect(['a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.mjs', 'A.TS'].map(routesFileType)).toEqual(Array(6).fill('typescript'));
    expect(['a.yaml', 'a.yml', 'a.json', 'A.YML'].map(routesFileType)).toEqual(Array(4).fill('symfony'));
    expect(['a.js', 'a.cjs', 'pkg/routes'].map(routesFileType)).toEqual(Array(3).fill('commonjs'));
  });
});

describe('resolveRoutesSource(modulePath, cwd) and express-kernel.config.*', () => {
  // TypeScript and .mjs files go through tsx, which needs Node's own module loader rather than
  // jest's: main.test.ts covers them with the built console. Here the routes module is JavaScript.

  /** A fresh project directory with a routes module at src/routes.js. */
  function project(name: string): string {
    const root = path.join(dir, name);
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    writeModule(`${name}/src/routes.js`, `module.exports = ${TABLE};`);
    return root;
  }

  it('falls back to the demo table when there is neither --routes nor a config file', () => {
    const root = project('bare');
    expect(resolveRoutesSource(undefined, root)).toEqual({ kind: 'demo' });
    expect(loadRoutes(undefined, root).get('book_show')).toBeDefined();
  });

  it.each([
    ['express-kernel.config.js', "module.exports = { routes: './src/routes.js' };"],
    ['express-kernel.config.cjs', "exports.default = { routes: './src/routes' };"],
  ])('reads the routes module that %s names, relative to it', (configName, body) => {
    const root = project(configName.replace(/\W/g, '_'));
    fs.writeFileSync(path.join(root, configName), `${body}\n`);
    expect(resolveRoutesSource(undefined, root)).toMatchObject({
      kind: 'config', file: path.join(root, 'src/routes.js'), given: body.match(/'(.+)'/)?.[1], configFile: path.join(root, configName),
    });
    expect(loadRoutes(undefined, root).all().map(([n]) => n)).toEqual(['hello', 'bye']);
  });

  it('lets --routes win over the config file', () => {
    const root = project('both');
    fs.writeFileSync(path.join(root, 'express-kernel.config.js'), "module.exports = { routes: './nowhere.js' };\n");
    expect(loadRoutes('./src/routes.js', root).size).toBe(2);
  });

  it('refuses two config files, naming both', () => {
    const root = project('twice');
    fs.writeFileSync(path.join(root, CONFIG_FILE_NAMES[0]), "module.exports = { routes: './src/routes.js' };\n");
    fs.writeFileSync(path.join(root, CONFIG_FILE_NAMES[3]), "export default { routes: './src/routes.js' };\n");
    expect(() => loadRoutes(undefined, root))
      .toThrow(`Found express-kernel.config.js and express-kernel.config.ts in "${root}": keep one of them.`);
  });

  it('says what the config file must contain when it names no module', () => {
    const root = project('noroutes');
    const config = path.join(root, 'express-kernel.config.js');
    fs.writeFileSync(config, "module.exports = { route: './src/routes.js' };\n");
    expect(() => loadRoutes(undefined, root)).toThrow(
      `The config file "${config}" must name the routes module as "routes", e.g. module.exports = { routes: './src/routes.ts' } (got undefined).`);
  });

  it('names the module the config file points at when it is missing', () => {
    const root = project('dangling');
    fs.writeFileSync(path.join(root, 'express-kernel.config.js'), "module.exports = { routes: './src/gone.js' };\n");
    expect(() => loadRoutes(undefined, root)).toThrow(/^Cannot load the routes module "\.\/src\/gone\.js": Cannot find module/);
  });
});
