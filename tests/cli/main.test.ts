import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLI, ensureCliBuilt, ROOT } from './builtCli';

// Runs the built console (`bin.express-kernel` → dist/cli/main.js) as a real process.

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return cliWithColumns(80, ...args);
}

function cliWithColumns(columns: number, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: String(columns) },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

let dir: string;

beforeAll(() => {
  ensureCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-cli-bin-'));
}, 180_000);

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
    expect(run.stdout).toContain('| Requirements | id: \\d+                   |');
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
      ['book_show', 'GET'], ['book_update', 'PUT|PATCH'], ['book_delete', 'DELETE'], ['hello_slash', 'GET'],
      ['plain', 'GET'], ['localized_about', 'GET'], ['admin_dashboard', 'GET'], ['boom', 'GET'], ['api_time', 'GET'],
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

    it('accepts a path relative to the working directory', () => {
      writeRoutes('relative.js');
      const run = spawnSync(process.execPath, [CLI, 'debug:router', 'greet', '--routes', './relative.js'], { cwd: dir, encoding: 'utf8' });
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

  it('router:match without a path fails with commander\'s usage error', () => {
    const run = cli('router:match');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("missing required argument 'path_info'");
  });
});
