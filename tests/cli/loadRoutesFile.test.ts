/** `--routes config/routes.yaml`: the console commands read Symfony route files (YAML or JSON). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { debugRouter } from '../../src/cli/debugRouter';
import { loadRoutes } from '../../src/cli/loadRoutes';
import { isKernelError } from '../../src/errors/KernelError';
import { routerMatch } from '../../src/cli/routerMatch';
import { tempDir } from '../helpers/tempDir';

const FIXTURE = path.join(__dirname, '..', 'routing', 'loader', 'fixtures', 'routes.yaml');

describe('loadRoutes(file) with a .yaml route file', () => {
  test('debug:router lists its routes with the controllers the file names', () => {
    const routes = loadRoutes(path.relative(process.cwd(), FIXTURE));
    const lines = debugRouter(routes, { showControllers: true }).output.split('\n');
    expect(lines[3]).toMatch(/^ {2}home +GET +ANY +ANY +\/ +App\\Controller\\AppController::home\(\) +$/);
    expect(lines.some((l) => /^ {2}about\.fr +ANY +ANY +ANY +\/a-propos /.test(l))).toBe(true);
  });

  test('debug:router --show-aliases adds an Aliases column (txt) and an aliases list (json), as Symfony', () => {
    const routes = loadRoutes(FIXTURE);
    const lines = debugRouter(routes, { showAliases: true }).output.split('\n');
    expect(lines[1]).toMatch(/ Path +Aliases +$/);
    expect(lines[3]).toMatch(/^ {2}home +GET +ANY +ANY +\/ +old_home +$/);
    const json = JSON.parse(debugRouter(routes, { showAliases: true, format: 'json' }).output) as Record<string, { aliases?: string[] }>;
    expect(json.home.aliases).toEqual(['old_home']);
    expect(json['about.en'].aliases).toBeUndefined();
    expect(debugRouter(routes, { format: 'json' }).output).not.toContain('aliases');
  });

  test('debug:router <alias> describes the route it names; localized variants show _locale and _canonical_route', () => {
    expect(debugRouter(loadRoutes(FIXTURE), { name: 'old_home' }).output).toMatch(/^\| Path +\| \/ +\|$/m);
    const about = debugRouter(loadRoutes(FIXTURE), { name: 'about.fr' }).output;
    expect(about).toMatch(/^\| Requirements \| _locale: fr +\|$/m);
    expect(about).toMatch(/^\| Defaults +\| _canonical_route: about +\|$/m);
  });

  test('router:match matches against it', () => {
    expect(routerMatch(loadRoutes(FIXTURE), '/boutique/cart').output).toContain('Route "cart.fr" matches');
  });

  test('a bad file is a RoutesModuleError carrying the loader\'s message', () => {
    try {
      loadRoutes(path.join(__dirname, 'nope.yml'));
      throw new Error('no error');
    } catch (error) {
      expect(isKernelError(error, 'ERR_CLI_ROUTES_MODULE')).toBe(true);
      expect((error as Error).message).toMatch(/^Cannot load the routes file ".*nope\.yml": File ".*nope\.yml" not found\.$/);
    }
  });
});

describe('debug:router --check on a route file (the routes are compiled there, not when the file loads)', () => {
  const file = path.join(tempDir('routes-check-'), 'routes.yaml');
  fs.writeFileSync(file, [
    'home:\n  path: /',
    'official:\n  path:\n    pt-PT: /eu-não-sou-espanhol\n    pt_BR: /churrasco',
    'bad_requirement:\n  path: /{x}\n  requirements: { x: "(" }',
    'fine_utf8:\n  path: /café\n  utf8: true',
    '',
  ].join('\n'));

  test('the file loads, and debug:router lists all its routes', () => {
    const output = debugRouter(loadRoutes(file)).output;
    expect(output).toMatch(/^ {2}official\.pt-PT +ANY +ANY +ANY +\/eu-não-sou-espanhol +$/m);
  });

  test('--check names each route that does not compile, with Symfony\'s reason, and exits 1', () => {
    const result = debugRouter(loadRoutes(file), { check: true, terminalWidth: 120 });
    expect(result.exitCode).toBe(1);
    expect(result.stream).toBe('stdout');
    const lines = result.output.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');
    // blocks wrap at 120 columns, as SymfonyStyle's
    expect(lines).toEqual([
      ' [ERROR] Route "official.pt-PT" is invalid: Cannot use UTF-8 route patterns without setting the "utf8" option for route',
      '         "/eu-não-sou-espanhol".',
      ' [ERROR] Route "bad_requirement" is invalid: Requirement for "x" is not a valid regular expression ((): Invalid regular',
      '         expression: /(?:/: Unterminated group',
      ' [ERROR] 2 of 5 routes do not compile.',
    ]);
  });

  test('--check passes a table that compiles, exit 0', () => {
    const result = debugRouter(loadRoutes(FIXTURE), { check: true });
    expect(result).toEqual({ output: `\n${' [OK] All 10 routes compile.'.padEnd(80)}\n\n`, exitCode: 0, stream: 'stdout' });
  });
});
