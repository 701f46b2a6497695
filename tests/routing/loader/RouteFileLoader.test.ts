/**
 * The route file loader (Symfony's YamlFileLoader format, YAML or JSON). The fixture's routes are
 * compared with what Symfony 5.4's own YamlFileLoader makes of the same file (through
 * tests/routing/symfony/loader.php, where php and Debian's Symfony packages are installed).
 */
import { describeWith, programPath } from '../../helpers/requirements';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Request, Response } from 'express';
import {
  createRequestContext, loadRoutes, parseRoutes, RouteCollection, RouteLoaderError, UrlGenerator, UrlMatcher,
  type Controller, type RoutingLogger,
} from '../../../src/routing';

const FIXTURES = path.join(__dirname, 'fixtures');
const MAIN = path.join(FIXTURES, 'routes.yaml');
const home: Controller = (_req: Request, res: Response) => { res.send('home'); };
const about: Controller = (_req: Request, res: Response) => { res.send('about'); };
const CONTROLLERS = { 'App\\Controller\\AppController::home': home, 'App\\Controller\\AppController::about': about };

// php with Symfony's Routing, Config and Yaml: skipped with one line when missing, a failure with CI=true
const PHP = programPath('php');

function plain(routes: RouteCollection) {
  return routes.all().map(([name, r]) => ({
    name, path: r.path, host: r.host, defaults: r.defaults, requirements: r.requirements, methods: [...r.methods],
    schemes: [...r.schemes], utf8: r.options.utf8 ?? null,
  }));
}

function temp(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'routes-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('loadRoutes(file, controllers, options)', () => {
  const routes = loadRoutes(MAIN, CONTROLLERS);

  describeWith('php')('against Symfony 5.4', () => {
    test('makes of the fixture the same routes, in the same order, as Symfony 5.4\'s YamlFileLoader', () => {
      const loader = path.join(__dirname, '..', 'symfony', 'loader.php');
      const symfony = JSON.parse(execFileSync(PHP as string, [loader, MAIN]).toString());
      expect(plain(routes)).toEqual(symfony.routes);
      expect(routes.getAliases().map(([name, a]) => ({
        name, target: a.id, deprecation: a.getDeprecation(name) ?? null,
      }))).toEqual(symfony.aliases);
    });
  });

  test('localized paths become name.{locale} routes with _locale default and requirement and _canonical_route', () => {
    expect(routes.get('about.fr')?.defaults).toEqual({ _locale: 'fr', _canonical_route: 'about' });
    expect(routes.get('about.fr')?.requirements).toEqual({ _locale: 'fr' });
    const g = new UrlGenerator(routes, createRequestContext(), { defaultLocale: 'en' });
    expect(g.generate('about')).toBe('/about');
    expect(g.generate('about', { _locale: 'fr' })).toBe('/a-propos');
    expect(g.generate('product', { _locale: 'fr', id: 3 })).toBe('/boutique/produit/3');
  });

  test('controllers come from the map; aliases generate with the deprecation logged', () => {
    expect(routes.get('home')?.controller).toBe(home);
    expect(routes.get('about.en')?.controller).toBe(about);
    const lines: string[] = [];
    const logger: RoutingLogger = { error: () => undefined, warn: (_c, m) => { lines.push(m); } };
    expect(new UrlGenerator(routes, createRequestContext(), { logger }).generate('old_home')).toBe('/');
    expect(lines).toEqual(['The "old_home" route is old.']);
  });

  test('imports: prefix, name_prefix, trailing_slash_on_root: false, methods and requirements apply to the imported routes', () => {
    const m = new UrlMatcher(routes);
    expect(m.match('/admin', { method: 'POST', host: 'x', scheme: 'http' }).route).toBe('admin_dashboard');
    expect(() => m.match('/admin/users/a', { method: 'GET', host: 'admin.example.com', scheme: 'http' })).toThrow();
    expect(m.match('/boutique/cart', { method: 'GET', host: 'x', scheme: 'http' })).toEqual({
      route: 'cart.fr', params: { _locale: 'fr', _canonical_route: 'cart' },
    });
  });

  test('the utf8 option gives a default to the routes that set none (framework.router.utf8)', () => {
    const all = loadRoutes(MAIN, CONTROLLERS, { utf8: true });
    expect(all.all().every(([, r]) => r.utf8)).toBe(true);
    expect(routes.get('home')?.utf8).toBe(false);
  });

  test('reads the same structure from JSON', () => {
    const dir = temp({ 'r.json': JSON.stringify({ home: { path: '/', controller: 'App\\Controller\\AppController::home', condition: 'context.method === "GET"' } }) });
    const json = loadRoutes(path.join(dir, 'r.json'), CONTROLLERS);
    expect(json.get('home')?.controller).toBe(home);
    expect(json.get('home')?.condition?.({ method: 'POST', host: '', scheme: 'http', pathInfo: '/' })).toBe(false);
  });

  test.each([
    ['an unknown key', 'a:\n  path: /a\n  pathh: /b\n',
      /^The routing file ".*r\.yaml" contains unsupported keys for "a": "pathh"\. Expected one of: "resource", "type", "prefix", "path",/],
    ['no path', 'a:\n  methods: GET\n', /^You must define a "path" for the route "a" in file ".*r\.yaml"\.$/],
    ['both resource and path', 'a:\n  path: /a\n  resource: x.yaml\n', /must not specify both the "resource" key and the "path" key for "a"/],
    ['type without resource', 'a:\n  path: /a\n  type: yaml\n', /The "type" key for the route definition "a" in ".*" is unsupported/],
    ['controller and _controller', 'a:\n  path: /a\n  controller: x\n  defaults: { _controller: y }\n', /both the "controller" key and the defaults key "_controller"/],
    ['a numeric placeholder', 'a:\n  path: /a\n  requirements: [x]\n', /A placeholder name must be a string \(0 given\)/],
    ['an alias with other keys', 'a:\n  alias: b\n  path: /a\n', /must not specify other keys than "alias" and "deprecated" for "a"/],
    ['a deprecation without version', 'a:\n  alias: b\n  deprecated: { package: p }\n', /must specify the attribute "version" of the "deprecated" option for "a"/],
    ['not a map', '- a\n- b\n', /must contain a YAML array/],
    ['a definition that is not a map', 'a: /a\n', /The definition of "a" in ".*" must be a YAML array\./],
    ['bad YAML', 'a: [\n', /does not contain valid YAML/],
    ['an unknown controller', 'a:\n  path: /a\n  controller: Nope\n', /The controller "Nope" of "a" in ".*" is not in the controller map/],
    ['a bad requirement', 'a:\n  path: /{x}\n  requirements: { x: "(" }\n', /Route "a" in ".*" is invalid: .*Requirement for "x" is not a valid regular expression/],
    ['a non-utf8 route with UTF-8 text', 'a:\n  path: /é\n', /Cannot use UTF-8 route patterns without setting the "utf8" option for route "\/é"/],
    ['an import of itself', 'a:\n  resource: r.yaml\n', /Circular reference detected/],
    ['a missing import', 'a:\n  resource: nope.yaml\n', /File ".*nope\.yaml" not found\./],
    ['a condition that is not JavaScript', 'a:\n  path: /a\n  condition: "context.method matches \'/x/\'"\n', /is not a JavaScript expression/],
  ])('refuses %s with a RouteLoaderError naming the file (Symfony\'s message where it has one)', (_what, text, message) => {
    const dir = temp({ 'r.yaml': text });
    const load = () => loadRoutes(path.join(dir, 'r.yaml'), CONTROLLERS);
    expect(load).toThrow(RouteLoaderError);
    expect(load).toThrow(message);
  });

  test('an empty file gives an empty collection; a missing file a RouteLoaderError', () => {
    expect(loadRoutes(path.join(temp({ 'e.yaml': '' }), 'e.yaml')).count()).toBe(0);
    expect(() => loadRoutes(path.join(FIXTURES, 'missing.yaml'))).toThrow(RouteLoaderError);
  });

  test('a localized import prefix without the route\'s locale is refused as Symfony does', () => {
    const dir = temp({
      'r.yaml': 'i:\n  resource: sub.yaml\n  prefix: { en: /en }\n',
      'sub.yaml': 'a:\n  path: /a\n  locale: fr\n',
    });
    expect(() => loadRoutes(path.join(dir, 'r.yaml'))).toThrow('Route "a" with locale "fr" is missing a corresponding prefix in its parent collection.');
  });
});

describe('parseRoutes(definitions, file) on untrusted structures', () => {
  const KEYS = ['path', 'host', 'methods', 'schemes', 'defaults', 'requirements', 'options', 'controller', 'format', 'locale',
    'utf8', 'stateless', 'condition', 'alias', 'deprecated', 'resource', 'prefix', 'name_prefix', 'trailing_slash_on_root',
    'type', 'exclude', '__proto__', 'pathh'];
  const leaf = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('/a/{x}', '/{x<\\d+>?1}', '{s}.ex.com', 'GET', 'r.yaml', 'true'),
    fc.integer(), fc.boolean(), fc.constant(null));
  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), tie('v'), { maxKeys: 4 })),
  })).v;
  const definition = fc.dictionary(fc.constantFrom(...KEYS), value, { maxKeys: 5 });
  const file = fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(definition, value), { maxKeys: 4 });

  test('either builds a collection or throws a RouteLoaderError, nothing else', () => {
    const dir = temp({ 'r.yaml': 'x:\n  path: /x\n' });
    fc.assert(fc.property(file, (definitions) => {
      try {
        expect(parseRoutes(definitions, path.join(dir, 'main.yaml'), { c: home })).toBeInstanceOf(RouteCollection);
      } catch (error) {
        expect(error).toBeInstanceOf(RouteLoaderError);
      }
    }), { numRuns: 400 });
  });
});
