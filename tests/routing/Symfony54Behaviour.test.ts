/**
 * Four behaviours where the routing follows Symfony 5.4 closely, each expectation checked
 * with Symfony 5.4's own classes (php + Debian's php-symfony-routing; see the report of issue 13):
 * inline defaults and requirements in the host, `_fragment` refused as a path variable, the
 * generated host's case, and the `utf8` option (byte matching when it is off).
 */
import fc from 'fast-check';
import {
  createRequestContext, InvalidParameterError, InvalidRouteError, ResourceNotFoundError, Route, RouteCollection,
  UrlGenerator, UrlMatcher,
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
