import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, ensureCliBuilt, ROOT } from './builtCli';
import { scaled } from '../helpers/timeScale';

// Runs the built console (`bin.express-kernel` → dist/cli/main.js) as a real process.

interface Run { status: number | null; stdout: string; stderr: string }

/** Runs the console in `cwd` (the project root by default) with `env` (ours, 80 columns, by default). */
function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Run {
  const env = options.env ?? { ...process.env, COLUMNS: '80' };
  const run = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, encoding: 'utf8', env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const cli = (...args: string[]): Run => runCli(args);

const cliWithColumns = (columns: number, ...args: string[]): Run =>
  runCli(args, { env: { ...process.env, COLUMNS: String(columns) } });

let dir: string;

beforeAll(() => {
  ensureCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-cli-bin-'));
}, scaled(180_000));

afterAll(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

describe('node dist/cli/main.js', () => {
  it('starts with a node shebang', () => {
    expect(fs.readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('router:match /nope prints the [ERROR] block on stdout and exits 1', () => {
    const run = cli('router:match', '/nope');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(`\n\n${' [ERROR] None of the routes match the path "/nope"'.padEnd(80)}\n\n`);
    expect(run.stderr).toBe('');
  });

  it('router:match /api/books/5 prints [OK] and the route view, exit 0', () => {
    const run = cli('router:match', '/api/books/5');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(' [OK] Route "book_show" matches');
    expect(run.stdout).toMatch(/\| Requirements \| id: \\d\+ +\|/);
  });

  it('router:match passes --method, --scheme, --host and -v on', () => {
    const run = cli('router:match', '/api/books', '--method', 'DELETE', '--scheme', 'https', '--host', 'example.com', '-v');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(' Route "home" does not match: Path "/" does not match');
    expect(run.stdout).toContain(' Route "book_create" almost matches but method "DELETE" does not match any of the required methods (POST)');
  });

  it('debug:router lists the demo table', () => {
    const run = cli('debug:router');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter((l) => /^ {2}\w/.test(l)).map((l) => l.trim().split(/ +/).slice(0, 2))).toEqual([
      ['Name', 'Method'], ['home', 'GET'], ['api_entrypoint', 'GET'], ['book_list', 'GET'], ['book_create', 'POST'],
      ['book_show', 'GET'], ['book_update', 'PUT|PATCH'], ['book_delete', 'DELETE'],
      ['author_get_collection', 'GET'], ['author_get', 'GET'], ['author_post', 'POST'], ['author_put', 'PUT'],
      ['author_patch', 'PATCH'], ['author_delete', 'DELETE'], ['api_jsonld_context', 'GET'], ['api_doc', 'GET'],
      ['api_docs_page', 'GET'], ['api_docs_openapi', 'GET'], ['api_docs_asset', 'GET'], ['hello_slash', 'GET'],
      ['plain', 'GET'], ['localized_about', 'GET'], ['admin_dashboard', 'GET'], ['admin_audit', 'GET'], ['admin_login', 'GET'],
      ['admin_logout', 'POST'], ['admin_locale', 'POST'], ['admin_stylesheet', 'GET'], ['admin_books_index', 'GET'], ['admin_books_export', 'GET'],
      ['admin_books_new', 'GET|POST'], ['admin_books_new_pick', 'POST'],
      ['admin_books_batch_delete', 'POST'], ['admin_books_batch_action', 'POST'], ['admin_books_detail', 'GET'],
      ['admin_books_edit', 'GET|POST'], ['admin_books_edit_pick', 'POST'],
      ['admin_books_delete', 'GET|POST'], ['admin_books_toggle', 'POST'],
      ['admin_books_action', 'GET|POST'], ['admin_authors_index', 'GET'], ['admin_authors_export', 'GET'],
      ['admin_authors_new', 'GET|POST'],
      ['admin_authors_batch_delete', 'POST'], ['admin_authors_detail', 'GET'], ['admin_authors_edit', 'GET|POST'],
      ['admin_authors_delete', 'GET|POST'], ['boom', 'GET'], ['api_time', 'GET'],
    ]);
  });

  it('debug:router with an unknown name writes the error to stderr and exits 1', () => {
    const run = cli('debug:router', 'nosuch');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('  The route "nosuch" does not exist.  ');
  });

  it('debug:router --format json prints JSON', () => {
    const run = cli('debug:router', 'plain', '--format', 'json');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ path: '/plain', method: 'GET' });
  });

  describe('--routes <module>', () => {
    // The module requires the routing classes from the project's build, as an application using
    // the published package would require them from express-kernel.
    function writeRoutes(file: string): string {
      const full = path.join(dir, file);
      fs.writeFileSync(full, [
        `const { Route, RouteCollection } = require(${JSON.stringify(path.join(ROOT, 'dist/routing'))});`,
        'exports.createRoutes = () => new RouteCollection()',
        "  .add('greet', new Route('/greet/{name}', { methods: ['GET'], requirements: { name: '[a-z]+' }, controller: function greet() {} }))",
        "  .add('status', new Route('/status', { host: 'api.example.com', schemes: ['https'] }));",
        '',
      ].join('\n'));
      return full;
    }

    it('describes and matches the routes of that module', () => {
      const file = writeRoutes('routes.js');
      const list = cli('debug:router', '--routes', file, '--show-controllers');
      expect(list.status).toBe(0);
      expect(list.stdout).toContain('  greet    GET      ANY      ANY               /greet/{name}   greet()     ');
      expect(list.stdout).toContain('  status   ANY      https    api.example.com   /status                     ');
      expect(list.stdout).not.toContain('book_show');

      const match = cli('router:match', '/greet/ada', '--routes', file);
      expect(match.status).toBe(0);
      expect(match.stdout).toContain(' [OK] Route "greet" matches');
      expect(match.stdout).toMatch(/^\| Defaults +\| _controller: greet\(\) +\|$/m);

      const near = cli('router:match', '/status', '--routes', file, '--host', 'api.example.com');
      expect(near.status).toBe(1);
      expect(near.stdout).toContain(' Route "status" almost matches but scheme "http" does not match any of the required schemes (https)');
    });

    it('debug:router --check compiles every route of a route file: exit 1 naming the route that does not, 0 once fixed', () => {
      const file = path.join(dir, 'check.yaml');
      fs.writeFileSync(file, 'ok:\n  path: /ok\nofficial:\n  path: { pt-PT: /não }\n');
      const failing = cliWithColumns(300, 'debug:router', '--check', '--routes', file);
      expect(failing.status).toBe(1);
      expect(failing.stdout).toMatch(/^ \[ERROR\] Route "official\.pt-PT" is invalid: Cannot use UTF-8 route patterns without setting the "utf8" option for route\s+"\/não"\./m);
      expect(failing.stdout).toContain(' [ERROR] 1 of 2 routes does not compile.');
      fs.writeFileSync(file, 'ok:\n  path: /ok\nofficial:\n  path: { pt-PT: /não }\n  utf8: true\n');
      const passing = cli('debug:router', '--check', '--routes', file);
      expect(passing.status).toBe(0);
      expect(passing.stdout).toContain(' [OK] All 2 routes compile.');
    });

    it('accepts a path relative to the working directory', () => {
      writeRoutes('relative.js');
      const run = runCli(['debug:router', 'greet', '--routes', './relative.js'], { cwd: dir });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('| Route Name   | greet ');
    });

    it('fails on stderr with exit 1 when the module cannot be loaded', () => {
      // A wide terminal keeps the message on one line (the error box wraps at the width minus 5).
      const run = cliWithColumns(300, 'router:match', '/x', '--routes', path.join(dir, 'missing.js'));
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`Cannot load the routes module "${path.join(dir, 'missing.js')}": Cannot find module`);
      expect(run.stderr).toContain('router:match [--method METHOD]');
    });
  });

  it('router:match without a path fails with commander\'s usage error and the command\'s help, exit 1', () => {
    const run = cli('router:match');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: missing required argument 'path_info'\n\nUsage: express-kernel router:match \[options\] <path_info>\n/);
    expect(run.stderr).toContain('--routes <module>');
  });

  it('--version prints the version of package.json', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const run = cli('--version');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it('debug:router --help says where the routes come from and that the demo table is the fallback', () => {
    const run = cli('debug:router', '--help');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('express-kernel.config.{js,cjs,mjs,ts}');
    expect(run.stdout).toContain('otherwise the built-in demo routing table');
  });

  describe('TypeScript routes and express-kernel.config.*', () => {
    const ROUTING = JSON.stringify(path.join(ROOT, 'dist/routing'));

    /** A project with src/routes.ts: types, an interface, `satisfies`, named controllers. */
    function project(name: string, exportLine = 'export default createRoutes;'): string {
      const root = path.join(dir, name);
      fs.mkdirSync(path.join(root, 'src'), { recursive: true });
      fs.writeFileSync(path.join(root, 'src/routes.ts'), [
        `import { Route, RouteCollection } from ${ROUTING};`,
        'interface Params { id: string }',
        'export function listBooks(): void {}',
        'const showBook = async (params: Params): Promise<string> => params.id;',
        'function createRoutes(): RouteCollection {',
        '  return new RouteCollection()',
        "    .add('book_list', new Route('/books', { methods: ['GET'], controller: listBooks as never }))",
        "    .add('book_show', new Route('/books/{id}', { requirements: { id: '[0-9]+' } satisfies Record<string, string>,",
        '      controller: showBook as never }));',
        '}',
        exportLine,
        '',
      ].join('\n'));
      return root;
    }

    const cliIn = (cwd: string, ...args: string[]): Run => runCli(args, { cwd, env: { ...process.env, COLUMNS: '120' } });

    it.each([
      ['routes.ts', 'export default createRoutes;'],
      ['named.mts', 'export const routes = createRoutes();'],
      ['factory.cts', 'export { createRoutes };'],
    ])('--routes loads %s through tsx; --show-controllers names the controller functions', (file, exportLine) => {
      const root = project(file.replace(/\W/g, '_'), exportLine);
      fs.renameSync(path.join(root, 'src/routes.ts'), path.join(root, 'src', file));
      const run = cliIn(root, 'debug:router', '--routes', `./src/${file}`, '--show-controllers');
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^ {2}book_list +GET +ANY +ANY +\/books +listBooks\(\) +$/m);
      expect(run.stdout).toMatch(/^ {2}book_show +ANY +ANY +ANY +\/books\/\{id\} +showBook\(\) +$/m);
      expect(run.stdout).not.toContain('api_entrypoint');
    });

    it.each([
      ['express-kernel.config.ts', "export default { routes: './src/routes.ts' } satisfies { routes: string };"],
      ['express-kernel.config.mjs', "export default { routes: './src/routes.ts' };"],
      ['express-kernel.config.js', "module.exports = { routes: './src/routes' };"],
    ])('without --routes, reads the module %s in the working directory names', (configName, body) => {
      const root = project(configName.replace(/\W/g, '_'));
      fs.writeFileSync(path.join(root, configName), `${body}\n`);
      const match = cliIn(root, 'router:match', '/books/12');
      expect(match.stderr).toBe('');
      expect(match.stdout).toContain(' [OK] Route "book_show" matches');
      expect(match.stdout).toMatch(/^\| Defaults +\| _controller: showBook\(\) +\|$/m);
      expect(cliIn(root, 'router:match', '/api').stdout).toContain('None of the routes match the path "/api"');
    });

    it('a TypeScript error in the routes module is a one-box error naming the module, exit 1', () => {
      const root = project('broken');
      fs.writeFileSync(path.join(root, 'src/routes.ts'), 'export const routes: = ;\n');
      const run = cliIn(root, 'debug:router', '--routes', './src/routes.ts');
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('Cannot load the routes module "./src/routes.ts": ');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    });
  });

  describe('colours', () => {
    const ESC = '\u001b[';

    /** The environment without the colour switches, plus `env`. */
    function colourEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
      // without CI: Node gives a terminal 2 colours (none) when CI is set by an unknown CI service
      const { FORCE_COLOR: _f, NO_COLOR: _n, NODE_DISABLE_COLORS: _d, CI: _ci, ...inherited } = process.env;
      return { ...inherited, COLUMNS: '80', TERM: 'xterm-256color', ...env };
    }

    const cliEnv = (env: NodeJS.ProcessEnv, ...args: string[]): Run => runCli(args, { env: colourEnv(env) });

    /**
     * Runs the console on a pseudo-terminal (util-linux `script`), which makes stdout a TTY; returns what it showed.
     */
    function onTerminal(env: NodeJS.ProcessEnv, ...args: string[]): string {
      const command = [process.execPath, CLI, ...args].map((a) => `'${a}'`).join(' ');
      return spawnSync('script', ['-qec', command, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: colourEnv(env) }).stdout;
    }

    it('leaves a pipe uncoloured', () => {
      expect(cliEnv({}, 'router:match', '/nope').stdout).not.toContain(ESC);
      expect(cliEnv({}, 'debug:router', 'nosuch').stderr).not.toContain(ESC);
    });

    it('colours a terminal: the [ERROR] block white on red with its padding lines, table headers green', () => {
      const error = onTerminal({}, 'router:match', '/nope');
      const pad = `${ESC}37m${ESC}41m${' '.repeat(80)}${ESC}49m${ESC}39m`;
      expect(error).toContain(`${pad}\r\n${ESC}37m${ESC}41m${' [ERROR] None of the routes match the path "/nope"'.padEnd(80)}${ESC}49m${ESC}39m\r\n${pad}`);
      // eslint-disable-next-line no-control-regex -- ESC (\u001b) opens the ANSI colour codes under test
      expect(onTerminal({}, 'debug:router')).toMatch(/^ {2}\u001b\[32mName +\u001b\[39m {3}\u001b\[32mMethod +\u001b\[39m/m);
    });

    it('respects NO_COLOR on a terminal, and FORCE_COLOR on a pipe, as Node does', () => {
      expect(onTerminal({ NO_COLOR: '1' }, 'router:match', '/nope')).not.toContain(ESC);
      expect(cliEnv({ FORCE_COLOR: '1' }, 'router:match', '/api').stdout).toContain(`${ESC}30m${ESC}42m [OK] Route "api_entrypoint" matches`);
      expect(cliEnv({ FORCE_COLOR: '0' }, 'router:match', '/api').stdout).not.toContain(ESC);
    });

    it('never colours the JSON format', () => {
      const run = cliEnv({ FORCE_COLOR: '1' }, 'debug:router', 'plain', '--format', 'json');
      expect(run.stdout).not.toContain(ESC);
      expect(JSON.parse(run.stdout)).toMatchObject({ path: '/plain' });
    });
  });
});
