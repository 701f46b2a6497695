/**
 * The route file loader (Symfony's YamlFileLoader format, YAML or JSON). The fixture's routes are
 * compared with what Symfony 5.4's own YamlFileLoader makes of the same file (through
 * tests/routing/symfony/loader.php, where php and Debian's Symfony packages are installed).
 */
import { describeWith, programPath } from '../../helpers/requirements';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import type { Request, Response } from 'express';
import {
  createRequestContext, InvalidRouteError, loadRoutes, parseRoutes, RouteCollection, RouteLoaderError, UrlGenerator,
  UrlMatcher, type Controller, type ControllerMap, type RoutingLogger,
} from '../../../src/routing';
import { tempDir } from '../../helpers/tempDir';

const FIXTURES = path.join(__dirname, 'fixtures');
const MAIN = path.join(FIXTURES, 'routes.yaml');
const home: Controller = (_req: Request, res: Response) => { res.send('home'); };
const about: Controller = (_req: Request, res: Response) => { res.send('about'); };
const CONTROLLERS = { 'App\\Controller\\AppController::home': home, 'App\\Controller\\AppController::about': about };

// php with Symfony's Routing, Config and Yaml: skipped with one line when missing, a failure with CI=true
const PHP = programPath('php');

/** The routes as loader.php prints Symfony's: the controller by the name the map gives it (or its own). */
function plain(routes: RouteCollection, controllers: ControllerMap = CONTROLLERS) {
  const idOf = (fn: Controller | undefined) =>
    fn === undefined ? null : Object.entries(controllers).find(([, c]) => c === fn)?.[0] ?? fn.name;
  return routes.all().map(([name, r]) => ({
    name, path: r.path, host: r.host, defaults: r.defaults, requirements: r.requirements, methods: [...r.methods],
    schemes: [...r.schemes], utf8: r.options.utf8 ?? null, controller: idOf(r.controller),
  }));
}

/** Writes the files (names may hold folders; a name ending in `/` is an empty folder) in a new temporary folder. */
function temp(files: Record<string, string>): string {
  const dir = tempDir('routes-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    if (name.endsWith('/')) mkdirSync(path.join(dir, name), { recursive: true });
    else writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** What Symfony 5.4's YamlFileLoader makes of a file (tests/routing/symfony/loader.php). */
function symfonyLoad(file: string): { routes?: unknown[]; error?: string; message?: string } {
  return JSON.parse(execFileSync(PHP as string, [path.join(__dirname, '..', 'symfony', 'loader.php'), file]).toString());
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

describe('loadRoutes: Symfony 5.4\'s last loader tests (issue 28)', () => {
  const named = (id: string): Controller => {
    const fn: Controller = (_req: Request, res: Response) => { res.send(id); };
    Object.defineProperty(fn, 'name', { value: `run ${id}` });
    return fn;
  };
  const MAP: ControllerMap = Object.fromEntries(['AppBundle:Homepage:show', 'AppBundle:Blog:list',
    'FrameworkBundle:Template:template', 'AppBundle:Bar:view', 'AppBundle:Baz:view', 'AppBundle:Api:list',
    'DefaultController::defaultAction'].map((id) => [id, named(id)]));

  // YamlFileLoaderTest's Fixtures/controller, glob, localized, as Symfony 5.4's tests have them
  const fixtures = temp({
    'controller/routing.yml': 'app_homepage:\n  path: /\n  controller: AppBundle:Homepage:show\n' +
      'app_blog:\n  path: /blog\n  defaults:\n    _controller: AppBundle:Blog:list\napp_logout:\n  path: /logout\n',
    'controller/import_controller.yml': '_static:\n  resource: routing.yml\n  controller: FrameworkBundle:Template:template\n',
    'controller/import__controller.yml': '_static:\n  resource: routing.yml\n  defaults:\n    _controller: FrameworkBundle:Template:template\n',
    'controller/routing_2.yml': 'api_two:\n  path: /two\n  controller: AppBundle:Api:list\n',
    'controller/routing_10.yml': 'api_ten:\n  path: /ten\n  controller: AppBundle:Api:list\n',
    'controller/routing_b.yml': 'api_b:\n  path: /b\n  controller: AppBundle:Api:list\n',
    'glob/bar.yml': 'bar_route:\n  path: /bar\n  controller: AppBundle:Bar:view\n',
    'glob/baz.yml': 'baz_route:\n  path: /baz\n  controller: AppBundle:Baz:view\n',
    'glob/import_single.yml': '_static:\n  resource: b?r.yml\n',
    'glob/import_multiple.yml': '_static:\n  resource: ba?.yml\n',
    'glob/import_braces.yml': '_static:\n  resource: "{baz,bar}.yml"\n',
    'glob/import_none.yml': '_static:\n  resource: q?x.yml\n',
    'empty/': '',
    'prefixed/routing.yml': 'app:\n  resource: ../controller/routing_*.yml\n' +
      'api:\n  resource: ../controller/routing_*.yml\n  name_prefix: api_\n  prefix: /api\n  exclude: ../controller/routing_b.yml\n' +
      'none:\n  resource: ../empty/*\n',
    'prefixed/missing_folder.yml': 'none:\n  resource: ../nope/*.yml\n',
    'localized/localized-route.yml': 'home:\n  path:\n    nl: /nl\n    en: /en\nnot_localized:\n  path: /here\n',
    'localized/importer-with-locale.yml': 'i:\n  resource: localized-route.yml\n  locale: fr\n',
    'localized/importer-with-controller-default.yml': 'i:\n  resource: localized-route.yml\n' +
      '  defaults:\n    _controller: DefaultController::defaultAction\n',
    'localized/officially_formatted_locales.yml': 'official:\n  controller: AppBundle:Homepage:show\n  path:\n' +
      '    fr.UTF-8: /omelette-au-fromage\n    pt-PT: /eu-não-sou-espanhol\n    pt_BR: /churrasco\n',
  });
  const file = (name: string) => path.join(fixtures, name);
  const controllerOf = (routes: RouteCollection, name: string) => routes.get(name)?.controller;

  describe('an import\'s controller (YamlFileLoaderTest::testImportRouteWithController)', () => {
    test.each(['import_controller.yml', 'import__controller.yml'])('%s: every imported route runs the import\'s controller', (name) => {
      const routes = loadRoutes(file(`controller/${name}`), MAP);
      for (const route of ['app_homepage', 'app_blog', 'app_logout']) {
        expect(controllerOf(routes, route)).toBe(MAP['FrameworkBundle:Template:template']);
        expect(routes.get(route)?.defaults._controller).toBeUndefined();
      }
    });

    test('a route whose only controller is a _controller default has it; one without any has none', () => {
      const routes = loadRoutes(file('controller/routing.yml'), MAP);
      expect(controllerOf(routes, 'app_homepage')).toBe(MAP['AppBundle:Homepage:show']);
      expect(controllerOf(routes, 'app_blog')).toBe(MAP['AppBundle:Blog:list']);
      expect(controllerOf(routes, 'app_logout')).toBeUndefined();
      expect(() => loadRoutes(file('controller/routing.yml'), { 'AppBundle:Homepage:show': home }))
        .toThrow(/The controller "AppBundle:Blog:list" of "app_blog" in ".*routing\.yml" is not in the controller map/);
    });

    test('an import\'s _controller default over localized routes (testImportingWithControllerDefault)', () => {
      const routes = loadRoutes(file('localized/importer-with-controller-default.yml'), MAP);
      for (const route of ['home.en', 'home.nl', 'not_localized']) {
        expect(controllerOf(routes, route)).toBe(MAP['DefaultController::defaultAction']);
      }
    });

    test('debug:router\'s view of a loaded route names the import\'s controller', () => {
      const routes = loadRoutes(file('controller/import__controller.yml'), {}, { missingControllers: 'placeholder' });
      expect(routes.get('app_blog')?.controller?.name).toBe('FrameworkBundle:Template:template');
    });
  });

  describe('glob imports (FileLoader::import, GlobResource)', () => {
    test('b?r.yml imports bar.yml; ba?.yml imports bar.yml then baz.yml; {baz,bar}.yml both, in natural order', () => {
      expect(plain(loadRoutes(file('glob/import_single.yml'), MAP), MAP).map((r) => [r.name, r.controller]))
        .toEqual([['bar_route', 'AppBundle:Bar:view']]);
      expect(plain(loadRoutes(file('glob/import_multiple.yml'), MAP), MAP).map((r) => [r.name, r.controller]))
        .toEqual([['bar_route', 'AppBundle:Bar:view'], ['baz_route', 'AppBundle:Baz:view']]);
      expect(loadRoutes(file('glob/import_braces.yml'), MAP).all().map(([n]) => n)).toEqual(['bar_route', 'baz_route']);
    });

    test('../controller/routing_*.yml with name_prefix, prefix and exclude; an empty wildcard folder imports nothing', () => {
      const routes = loadRoutes(file('prefixed/routing.yml'), MAP);
      expect(routes.all().map(([n, r]) => [n, r.path])).toEqual([
        ['api_two', '/two'], ['api_ten', '/ten'], ['api_b', '/b'],
        ['api_api_two', '/api/two'], ['api_api_ten', '/api/ten'],
      ]);
    });

    test('a missing folder before the wildcard, or a first-segment glob matching nothing, is an error naming it', () => {
      expect(() => loadRoutes(file('prefixed/missing_folder.yml'), MAP)).toThrow(RouteLoaderError);
      expect(() => loadRoutes(file('prefixed/missing_folder.yml'), MAP)).toThrow('The file "../nope" does not exist');
      expect(() => loadRoutes(file('glob/import_none.yml'), MAP)).toThrow(/File ".*q\?x\.yml" not found\./);
    });
  });

  describe('localized routes under an import', () => {
    test('an import\'s locale: fr over path: { nl, en } keeps home.en as en (and gives not_localized fr)', () => {
      const routes = loadRoutes(file('localized/importer-with-locale.yml'));
      expect(routes.get('home.en')?.defaults._locale).toBe('en');
      expect(routes.get('home.nl')?.defaults._locale).toBe('nl');
      expect(routes.get('not_localized')?.defaults._locale).toBe('fr');
      const g = new UrlGenerator(routes, createRequestContext(), { defaultLocale: 'fr' });
      expect(g.generate('home', { _locale: 'en' })).toBe('/en');
    });
  });

  describe('loading does not compile (testImportingRoutesWithOfficialLocales)', () => {
    test('a UTF-8 path without the utf8 option loads; the matcher and the generator built from it name the route', () => {
      const routes = loadRoutes(file('localized/officially_formatted_locales.yml'), MAP);
      expect(routes.all().map(([n, r]) => [n, r.path])).toEqual([
        ['official.fr.UTF-8', '/omelette-au-fromage'], ['official.pt-PT', '/eu-não-sou-espanhol'], ['official.pt_BR', '/churrasco'],
      ]);
      const message = 'Route "official.pt-PT" is invalid: Cannot use UTF-8 route patterns without setting the "utf8" option';
      expect(() => new UrlMatcher(routes)).toThrow(InvalidRouteError);
      expect(() => new UrlMatcher(routes)).toThrow(message);
      expect(() => new UrlGenerator(routes, createRequestContext())).toThrow(message);
      const utf8 = loadRoutes(file('localized/officially_formatted_locales.yml'), MAP, { utf8: true });
      expect(new UrlMatcher(utf8).match('/eu-n%C3%A3o-sou-espanhol', { method: 'GET', host: 'x', scheme: 'http' }).route)
        .toBe('official.pt-PT');
    });

    test('a requirement that is not a regular expression loads too, and fails the matcher naming the route', () => {
      const dir = temp({ 'r.yaml': 'a:\n  path: /{x}\n  requirements: { x: "(" }\n' });
      const routes = loadRoutes(path.join(dir, 'r.yaml'));
      expect(() => new UrlMatcher(routes)).toThrow(/^Route "a" is invalid: Requirement for "x" is not a valid regular expression/);
    });
  });

  describeWith('php')('against Symfony 5.4', () => {
    test.each([
      'controller/routing.yml', 'controller/import_controller.yml', 'controller/import__controller.yml',
      'glob/import_single.yml', 'glob/import_multiple.yml', 'glob/import_braces.yml', 'prefixed/routing.yml',
      'localized/importer-with-locale.yml', 'localized/importer-with-controller-default.yml',
      'localized/officially_formatted_locales.yml',
    ])('%s gives the same routes, controllers included', (name) => {
      const symfony = symfonyLoad(file(name));
      const ours = plain(loadRoutes(file(name), MAP), MAP).map((r) => ({ ...r, controller: r.controller?.replace(/^run /, '') ?? null }));
      expect(ours).toEqual(symfony.routes);
    });

    test.each(['prefixed/missing_folder.yml', 'glob/import_none.yml'])('%s is refused by both', (name) => {
      expect(symfonyLoad(file(name)).error).toBeDefined();
      expect(() => loadRoutes(file(name), MAP)).toThrow(RouteLoaderError);
    });
  });
});
