/**
 * Behaviours where the routing follows Symfony 5.4 closely, each expectation checked
 * with Symfony 5.4's own classes (php + Debian's php-symfony-routing; see the report of issue 13):
 * inline defaults and requirements in the host, `_fragment` refused as a path variable, the
 * generated host's case, the `utf8` option (byte matching when it is off), and localized routes
 * (issue 28: the locale compiled into the path, the locale kept by bulk changes, the compile
 * error naming the route when the matcher or the generator is built).
 */
import fc from 'fast-check';
import {
  createRequestContext, InvalidParameterError, InvalidRouteError, localizedRoutes, ResourceNotFoundError, Route,
  RouteCollection, TraceableUrlMatcher, UrlGenerator, UrlMatcher,
} from '../../src/routing';

const ctx = (host = 'localhost') => ({ method: 'GET', host, scheme: 'http' });

describe('inline defaults and requirements in the host (Symfony Route::setHost)', () => {
  test('`{bar?}` becomes host `{bar}` with default bar: null', () => {
    const r = new Route('/', { host: '{bar?}' });
    expect(r.host).toBe('{bar}');
    expect(r.defaults).toEqual({ bar: null });
  });

  test('`{sub<[a-z]+>}.example.com` matches foo.example.com with sub=foo and generates //foo.example.com/', () => {
    const routes = new RouteCollection().add('s', new Route('/', { host: '{sub<[a-z]+>}.example.com' }));
    expect(routes.get('s')?.requirements).toEqual({ sub: '[a-z]+' });
    expect(new UrlMatcher(routes).match('/', ctx('foo.example.com'))).toEqual({ route: 's', params: { sub: 'foo' } });
    expect(() => new UrlMatcher(routes).match('/', ctx('f00.example.com'))).toThrow(ResourceNotFoundError);
    expect(new UrlGenerator(routes, createRequestContext()).generate('s', { sub: 'foo' })).toBe('//foo.example.com/');
  });
});

describe('_fragment as a path variable (Symfony RouteCompiler)', () => {
  test('is refused at compile time with Symfony\'s message', () => {
    expect(() => new Route('/{_fragment}').compile()).toThrow(InvalidRouteError);
    expect(() => new Route('/{_fragment}').compile())
      .toThrow('Route pattern "/{_fragment}" cannot contain "_fragment" as a path parameter.');
  });

  test('is still allowed in the host and as a default (the URL fragment)', () => {
    expect(() => new Route('/a', { host: '{_fragment}.x' }).compile()).not.toThrow();
    const routes = new RouteCollection().add('a', new Route('/a', { defaults: { _fragment: 'top' } }));
    expect(new UrlGenerator(routes, createRequestContext()).generate('a')).toBe('/a#top');
  });
});

describe('the generated host keeps its case (Symfony UrlGenerator::doGenerate)', () => {
  const routes = new RouteCollection().add('h', new Route('/x', { host: '{locale}.FooBar.com' }));

  test('host `{locale}.FooBar.com` with locale EN gives //EN.FooBar.com/x', () => {
    const g = new UrlGenerator(routes, createRequestContext({ host: 'en.foobar.com' }));
    expect(g.generate('h', { locale: 'EN' })).toBe('//EN.FooBar.com/x');
  });

  test('the comparison with the context host is case-sensitive: en.FooBar.com is not en.foobar.com', () => {
    const g = new UrlGenerator(routes, createRequestContext({ host: 'en.foobar.com' }));
    expect(g.generate('h', { locale: 'en' })).toBe('//en.FooBar.com/x');
    const same = new RouteCollection().add('h', new Route('/x', { host: '{locale}.foobar.com' }));
    expect(new UrlGenerator(same, createRequestContext({ host: 'en.foobar.com' })).generate('h', { locale: 'en' })).toBe('/x');
  });
});

describe('the utf8 option (Symfony RouteCompiler, matcher without the `u` modifier)', () => {
  const one = (options: { utf8?: boolean }, requirement = '.') =>
    new UrlMatcher(new RouteCollection().add('a', new Route('/{a}', { requirements: { a: requirement }, ...options })));

  test('is off by default, as in symfony/routing 5.4', () => {
    expect(new Route('/a').utf8).toBe(false);
    expect(new Route('/a', { options: { utf8: true } }).utf8).toBe(true);
    expect(new Route('/a', { utf8: true }).options.utf8).toBe(true);
  });

  test('off: `.` matches one byte, so /é (two bytes) does not match `/{a}` with a: "." but does with ".."', () => {
    expect(() => one({}).match('/é', ctx())).toThrow(ResourceNotFoundError);
    expect(() => one({}).match('/%C3%A9', ctx())).toThrow(ResourceNotFoundError);
    expect(one({}, '[^/][^/]').match('/é', ctx())).toEqual({ route: 'a', params: { a: 'é' } });
  });

  test('on: `.` matches one character', () => {
    expect(one({ utf8: true }).match('/é', ctx())).toEqual({ route: 'a', params: { a: 'é' } });
    expect(() => one({ utf8: true }, '[^/][^/]').match('/é', ctx())).toThrow(ResourceNotFoundError);
  });

  test('off: the default requirement still takes the whole segment, given back as text', () => {
    const m = new UrlMatcher(new RouteCollection().add('b', new Route('/b/{x}')));
    expect(m.match('/b/caf%C3%A9', ctx())).toEqual({ route: 'b', params: { x: 'café' } });
  });

  test('a table mixing both kinds lets each route see its own view of the path', () => {
    const routes = new RouteCollection()
      .add('bytes', new Route('/{a}', { requirements: { a: '...' } }))
      .add('chars', new Route('/{a}', { requirements: { a: '.' }, utf8: true }));
    expect(new UrlMatcher(routes).match('/é', ctx()).route).toBe('chars');
    expect(new UrlMatcher(routes).match('/aé', ctx()).route).toBe('bytes');
  });

  test.each([
    ['/é', {}, 'Cannot use UTF-8 route patterns without setting the "utf8" option for route "/é".'],
    ['/', { host: 'é.com' }, 'Cannot use UTF-8 route patterns without setting the "utf8" option for route "/".'],
    ['/{a}', { requirements: { a: 'é' } }, 'Cannot use UTF-8 route requirements without setting the "utf8" option for variable "a" in pattern "/{a}".'],
    ['/{a}', { requirements: { a: '\\p{L}+' } }, 'Cannot use UTF-8 route requirements without setting the "utf8" option for variable "a" in pattern "/{a}".'],
  ])('off: %s %j throws Symfony\'s LogicException message at compile time', (path, options, message) => {
    expect(() => new Route(path, options).compile()).toThrow(message);
    expect(() => new Route(path, { ...options, utf8: true }).compile()).not.toThrow();
  });

  test('the generator checks requirements on bytes too', () => {
    const routes = new RouteCollection().add('a', new Route('/{a}', { requirements: { a: '.' } }));
    expect(() => new UrlGenerator(routes, createRequestContext()).generate('a', { a: 'é' })).toThrow(InvalidParameterError);
    const utf8 = new RouteCollection().add('a', new Route('/{a}', { requirements: { a: '.' }, utf8: true }));
    expect(new UrlGenerator(utf8, createRequestContext()).generate('a', { a: 'é' })).toBe('/%C3%A9');
  });
});

describe('array defaults and array query parameters (Symfony: array_udiff_assoc with ==)', () => {
  const routes = new RouteCollection()
    .add('a', new Route('/a', { defaults: { tags: ['1', '2'], o: { x: 'a', y: 'b' } } }));
  const g = new UrlGenerator(routes, createRequestContext());

  test('an array equal to the default, pairwise as PHP\'s ==, stays out of the query string', () => {
    expect(g.generate('a', { tags: [1, 2] })).toBe('/a');
    expect(g.generate('a', { o: { y: 'b', x: 'a' } })).toBe('/a');
  });

  test('another order of a list, or another length, goes into the query string', () => {
    expect(g.generate('a', { tags: ['2', '1'] })).toBe('/a?tags%5B0%5D=2&tags%5B1%5D=1');
    expect(g.generate('a', { tags: ['1', '2', '3'] })).toBe('/a?tags%5B0%5D=1&tags%5B1%5D=2&tags%5B2%5D=3');
  });
});

describe('routes without utf8 that cannot tell bytes from characters (CompiledRoute.matchesBytes)', () => {
  test('are flagged by their regexes: `.`, `[^/]` alone, touching variables need the byte view; `[^/]+`, `\\d+` do not', () => {
    expect(new Route('/b/{x}').compile().matchesBytes).toBe(false);
    expect(new Route('/b/{x}.{f}', { requirements: { x: '\\d+', f: 'json|xml' } }).compile().matchesBytes).toBe(false);
    expect(new Route('/{a}', { requirements: { a: '.' } }).compile().matchesBytes).toBe(true);
    expect(new Route('/{a}', { requirements: { a: '[^/]' } }).compile().matchesBytes).toBe(true);
    expect(new Route('/{a}{b}').compile().matchesBytes).toBe(true);
    expect(new Route('/{a}', { requirements: { a: '.' }, utf8: true }).compile().matchesBytes).toBe(false);
  });

  const requirement = fc.constantFrom('[^/]+', '\\d+', '[a-z]+', '[^/.]+', 'en|fr', '[a-z0-9-]*', '\\w+', '(?:ab)+');
  const segment = fc.array(fc.constantFrom('a', 'z', 'é', '😀', '中', '0', '.', '-'), { maxLength: 4 })
    .map((c) => c.join(''));

  test('and match a non-ASCII path as Symfony\'s byte matching does (property)', () => {
    const requirements = fc.array(requirement, { minLength: 1, maxLength: 3 });
    fc.assert(fc.property(requirements, fc.array(segment, { minLength: 1, maxLength: 3 }), (reqs, segments) => {
        const pattern = reqs.map((_r, i) => `/{v${i}}`).join('') + '/x';
        const route = new Route(pattern, { requirements: Object.fromEntries(reqs.map((r, i) => [`v${i}`, r])) });
        fc.pre(!route.compile().matchesBytes);
        const path = segments.map((s) => `/${s}`).join('') + '/x';
        // Symfony: the regex on the bytes, captures read back as UTF-8
        const bytes = route.compile().regex.exec(Buffer.from(path, 'utf8').toString('latin1'));
        const expected = bytes === null ? null
          : Object.fromEntries(reqs.map((_r, i) => [`v${i}`, Buffer.from(bytes[i + 1], 'latin1').toString('utf8')]));
        const m = new UrlMatcher(new RouteCollection().add('r', route), { redirectable: false }).tryMatch(path, ctx());
        expect('route' in m ? m.params : null).toEqual(expected);
      }), { numRuns: 300 });
  });
});

/** One locale's variant of a localized route, as Symfony's tests build it. */
const variant = (path: string, locale: string, canonical: string) =>
  new Route(path, { defaults: { _locale: locale, _canonical_route: canonical }, requirements: { _locale: locale } });

describe('a localized route\'s locale is compiled into its path (Symfony RouteCompiler::compile)', () => {
  // UrlGeneratorTest::testDumpWithLocalizedRoutesPreserveTheGoodLocaleInTheUrl; Symfony 5.4's
  // UrlGenerator and CompiledUrlGenerator both give these URLs
  const routes = new RouteCollection()
    .add('foo.en', variant('/{_locale}/fork', 'en', 'foo'))
    .add('foo.fr', variant('/{_locale}/fourchette', 'fr', 'foo'))
    .add('fun.en', variant('/fun', 'en', 'fun'))
    .add('fun.fr', variant('/amusant', 'fr', 'fun'));
  const generator = () => new UrlGenerator(routes, createRequestContext({ baseUrl: '/app.php' }).setParameter('_locale', 'fr'));

  test('generate(\'foo.fr\', { _locale: \'en\' }) gives /fr/fourchette: the variant asked for, its own locale', () => {
    const g = generator();
    expect(g.generate('foo.fr', { _locale: 'en' })).toBe('/app.php/fr/fourchette');
    expect(g.generate('fun.fr', { _locale: 'en' })).toBe('/app.php/amusant');
  });

  test('the canonical name still picks the variant of the locale asked for, else the context\'s', () => {
    const g = generator();
    expect(g.generate('foo')).toBe('/app.php/fr/fourchette');
    expect(g.generate('foo.en')).toBe('/app.php/en/fork');
    expect(g.generate('foo', { _locale: 'en' })).toBe('/app.php/en/fork');
    expect(g.generate('fun')).toBe('/app.php/amusant');
    expect(g.generate('fun.en')).toBe('/app.php/fun');
    expect(g.generate('fun', { _locale: 'en' })).toBe('/app.php/fun');
  });

  test('the compiled route has the locale in its path and no _locale variable; the route itself is unchanged', () => {
    const route = variant('/{_locale}/fourchette', 'fr', 'foo');
    const compiled = route.compile();
    expect(compiled.path).toBe('/fr/fourchette');
    expect(compiled.variables).toEqual([]);
    expect(compiled.regex.source).toBe('^\\/fr\\/fourchette$');
    expect(route.path).toBe('/{_locale}/fourchette');
    expect(route.requirements).toEqual({ _locale: 'fr' });
  });

  test('the matcher matches the variant\'s own path only, with its locale from the defaults', () => {
    const m = new UrlMatcher(routes);
    expect(m.match('/fr/fourchette', ctx()).params._locale).toBe('fr');
    expect(m.match('/fr/fourchette', ctx()).route).toBe('foo.fr');
    expect(() => m.match('/en/fourchette', ctx())).toThrow(ResourceNotFoundError);
    expect(new TraceableUrlMatcher(routes).getTraces('/fr/fourchette', ctx()).map((t) => t.path))
      .toEqual(['/en/fork', '/fr/fourchette']);
  });

  test('the host is compiled with the _locale requirement, before it is dropped (Symfony\'s order)', () => {
    const route = new Route('/{_locale}/x', {
      host: '{_locale}.example.com', defaults: { _locale: 'en', _canonical_route: 'x' }, requirements: { _locale: 'en' },
    });
    expect(route.compile().path).toBe('/en/x');
    expect(route.compile().hostRegex?.test('en.example.com')).toBe(true);
    expect(route.compile().hostRegex?.test('fr.example.com')).toBe(false);
  });

  test('a route whose _locale requirement is not its quoted locale is not localized: {_locale} stays a variable', () => {
    const route = new Route('/{_locale}/x', { defaults: { _locale: 'en', _canonical_route: 'x' }, requirements: { _locale: 'en|fr' } });
    expect(route.isLocalized()).toBe(false);
    expect(route.compile().variables).toEqual(['_locale']);
    expect(new Route('/{_locale}/x', { defaults: { _locale: 'en' }, requirements: { _locale: 'en' } }).isLocalized()).toBe(false);
  });
});

describe('a localized route keeps its locale (Symfony Route::setDefault, addDefaults, setRequirement, addRequirements)', () => {
  // RouteTest::testLocaleDefaultWithLocalizedRoutes and testLocaleRequirementWithLocalizedRoutes
  const localized = [variant('/foo', 'en', 'foo'), variant('/foo', 'fr_FR', 'foo'), variant('/{_locale}/foo', 'en', 'foo')];

  test.each(localized.map((r) => [r.path, r.defaults._locale, r] as const))('%s (%s): another _locale default or requirement is ignored', (_p, locale, r) => {
    expect(r.with({ defaults: { ...r.defaults, _locale: 'de' } }).defaults._locale).toBe(locale);
    expect(r.with({ requirements: { ...r.requirements, _locale: 'de' } }).requirements._locale).toBe(r.requirements._locale);
    const collection = new RouteCollection().add('foo', r).addDefaults({ _locale: 'de', x: '1' }).addRequirements({ _locale: 'de' });
    expect(collection.get('foo')?.defaults).toEqual({ ...r.defaults, x: '1' });
    expect(collection.get('foo')?.requirements).toEqual(r.requirements);
  });

  test('a route that is not localized takes them', () => {
    const plain = new Route('/foo', { defaults: { _locale: 'en' } });
    const collection = new RouteCollection().add('foo', plain).addDefaults({ _locale: 'de' }).addRequirements({ _locale: 'de' });
    expect(collection.get('foo')?.defaults._locale).toBe('de');
    expect(collection.get('foo')?.requirements._locale).toBe('de');
  });

  test('as Symfony, a null _locale still replaces it, and changes without _locale remove it (setDefaults)', () => {
    const r = variant('/foo', 'en', 'foo');
    expect(r.with({ defaults: { ...r.defaults, _locale: null } }).defaults._locale).toBeNull();
    expect(r.with({ defaults: {} }).defaults).toEqual({});
  });

  test('localizedRoutes then addDefaults (a route file\'s `locale` over `path: { nl, en }`) keeps each variant\'s locale', () => {
    const routes = localizedRoutes('home', { nl: '/nl', en: '/en' }).addDefaults({ _locale: 'fr' });
    expect(routes.get('home.en')?.defaults._locale).toBe('en');
    expect(routes.get('home.nl')?.defaults._locale).toBe('nl');
  });
});

describe('a route that cannot compile is reported, by name, when the matcher or the generator is built', () => {
  const routes = new RouteCollection().add('ok', new Route('/ok')).add('official.pt-PT', new Route('/eu-não-sou-espanhol'));
  const message = 'Route "official.pt-PT" is invalid: Cannot use UTF-8 route patterns without setting the "utf8" option ' +
    'for route "/eu-não-sou-espanhol".';

  test('new UrlMatcher(routes) throws InvalidRouteError naming the route, the route\'s own error as cause', () => {
    expect(() => new UrlMatcher(routes)).toThrow(InvalidRouteError);
    expect(() => new UrlMatcher(routes)).toThrow(message);
    try {
      new UrlMatcher(routes);
    } catch (error) {
      expect((error as InvalidRouteError).routeOrPath).toBe('official.pt-PT');
      expect((error as Error & { cause: Error }).cause.message).toContain('Route "/eu-não-sou-espanhol" is invalid');
    }
  });

  test('new UrlGenerator(routes, context) too, even when only the other route is generated', () => {
    expect(() => new UrlGenerator(routes, createRequestContext())).toThrow(message);
  });
});
