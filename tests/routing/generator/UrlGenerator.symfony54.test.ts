/**
 * UrlGenerator's Symfony 5.4 API beyond generate's basics: strict requirements, context
 * parameters, localized routes, aliases. Expectations checked with Symfony 5.4's UrlGenerator.
 */
import fc from 'fast-check';
import express from 'express';
import request from 'supertest';
import {
  createRequestContext, InvalidParameterError, looseEquals, RequestContext, Route, RouteCircularReferenceError,
  RouteCollection, RouteNotFoundError, UrlGenerator, type RoutingLogger,
} from '../../../src/routing';

function recorder(): RoutingLogger & { lines: Array<[string, Record<string, unknown>, string]> } {
  const lines: Array<[string, Record<string, unknown>, string]> = [];
  return { lines, error: (c, m) => { lines.push(['error', c, m]); }, warn: (c, m) => { lines.push(['warn', c, m]); } };
}

describe('setStrictRequirements(true | false | null)', () => {
  const routes = new RouteCollection().add('a', new Route('/{n}', { requirements: { n: '\\d+' } }));

  test('true (the default) throws InvalidParameterError', () => {
    const g = new UrlGenerator(routes, createRequestContext());
    expect(g.isStrictRequirements()).toBe(true);
    expect(() => g.generate('a', { n: 'x' })).toThrow(InvalidParameterError);
  });

  test('false logs the error and returns an empty string', () => {
    const logger = recorder();
    const g = new UrlGenerator(routes, createRequestContext(), { logger });
    g.setStrictRequirements(false);
    expect(g.generate('a', { n: 'x' })).toBe('');
    expect(logger.lines).toEqual([['error', { parameter: 'n', route: 'a', expected: '\\d+', given: 'x' },
      'Parameter "n" for route "a" must match "\\d+" ("x" given) to generate a corresponding URL.']]);
  });

  test('null skips the check', () => {
    const g = new UrlGenerator(routes, createRequestContext());
    g.setStrictRequirements(null);
    expect(g.generate('a', { n: 'x' })).toBe('/x');
  });
});

describe('context parameters (RequestContext::setParameter)', () => {
  test('fill in the variables a call leaves out, and do not go to the query string', () => {
    const routes = new RouteCollection().add('p', new Route('/{_locale}/p'));
    const context = createRequestContext().setParameter('_locale', 'fr');
    expect(new UrlGenerator(routes, context).generate('p', { x: 1 })).toBe('/fr/p?x=1');
    expect(new UrlGenerator(routes, context).generate('p', { _locale: 'de' })).toBe('/de/p');
  });
});

describe('localized routes (name.{locale} with _canonical_route)', () => {
  const routes = new RouteCollection()
    .add('about.en', new Route('/about', { defaults: { _locale: 'en', _canonical_route: 'about' }, requirements: { _locale: 'en' } }))
    .add('about.fr', new Route('/a-propos', { defaults: { _locale: 'fr', _canonical_route: 'about' }, requirements: { _locale: 'fr' } }))
    .add('page.en', new Route('/{_locale}/page', { defaults: { _locale: 'en', _canonical_route: 'page' }, requirements: { _locale: 'en' } }));

  test('the _locale parameter picks the variant, and is not put in the query string', () => {
    expect(new UrlGenerator(routes, createRequestContext()).generate('about', { _locale: 'fr' })).toBe('/a-propos');
    expect(new UrlGenerator(routes, createRequestContext()).generate('about', { _locale: 'fr_CA' })).toBe('/a-propos');
  });

  test('else the context\'s _locale, else the default locale', () => {
    const context = createRequestContext().setParameter('_locale', 'en');
    expect(new UrlGenerator(routes, context, { defaultLocale: 'fr' }).generate('about')).toBe('/about');
    expect(new UrlGenerator(routes, createRequestContext(), { defaultLocale: 'fr' }).generate('about')).toBe('/a-propos');
  });

  test('without any locale the canonical name does not exist', () => {
    expect(() => new UrlGenerator(routes, createRequestContext()).generate('about')).toThrow(RouteNotFoundError);
  });

  test('a variant with _locale in its path gets its own locale by default', () => {
    expect(new UrlGenerator(routes, createRequestContext(), { defaultLocale: 'en' }).generate('page')).toBe('/en/page');
  });
});

describe('generation through aliases', () => {
  const routes = new RouteCollection().add('t', new Route('/t'));
  routes.addAlias('a1', 't');
  routes.addAlias('a2', 'a1').setDeprecated('acme/app', '2.0', 'Use "t" instead of "%alias_id%".');
  routes.addAlias('m', 'missing');
  routes.addAlias('x', 'y');
  routes.addAlias('y', 'x');

  test('follows a chain and logs each deprecated alias used', () => {
    const logger = recorder();
    expect(new UrlGenerator(routes, createRequestContext(), { logger }).generate('a2')).toBe('/t');
    expect(logger.lines).toEqual([['warn', { package: 'acme/app', version: '2.0' }, 'Use "t" instead of "a2".']]);
  });

  test('an alias to a missing route is a route not found; a loop is a circular reference', () => {
    const g = new UrlGenerator(routes, createRequestContext());
    expect(() => g.generate('m')).toThrow('Unable to generate a URL for the named route "m" as such route does not exist.');
    expect(() => g.generate('x')).toThrow(RouteCircularReferenceError);
  });
});

describe('RequestContext', () => {
  test.each([
    ['https://Example.COM:8443/app/', ['/app', 'example.com', 'https', 80, 8443]],
    ['ftp://x.org:21/a', ['/a', 'x.org', 'ftp', 80, 443]],
    ['/just/path', ['/just/path', 'localhost', 'http', 80, 443]],
    ['//h.com/b', ['/b', 'h.com', 'http', 80, 443]],
  ])('fromUri(%s) reads base URL, host, scheme and ports as Symfony', (uri, expected) => {
    const c = RequestContext.fromUri(uri);
    expect([c.baseUrl, c.host, c.scheme, c.httpPort, c.httpsPort]).toEqual(expected);
  });

  test('getParameter / setParameter / hasParameter / getParameters', () => {
    const c = new RequestContext({ parameters: { a: 1 } });
    expect(c.hasParameter('a')).toBe(true);
    expect(c.setParameter('b', 'x').getParameter('b')).toBe('x');
    expect(c.getParameters()).toEqual({ a: 1, b: 'x' });
    expect(c.getParameter('zz')).toBeUndefined();
  });

  test('fromRequest reads an Express request: method, mount path, path, query, host, port', async () => {
    const app = express();
    const sub = express.Router();
    sub.get('/x', (req, res) => {
      const c = RequestContext.fromRequest(req);
      res.json([c.method, c.baseUrl, c.pathInfo, c.queryString, c.host, c.scheme, c.httpPort]);
    });
    app.use('/app', sub);
    const res = await request(app).get('/app/x?q=1').set('Host', 'Example.com:8080');
    expect(res.body).toEqual(['GET', '/app', '/x', 'q=1', 'example.com', 'http', 8080]);
  });
});

describe('looseEquals(a, b) (PHP 8 ==)', () => {
  test.each([
    ['1', 1, true], ['1', '01', true], ['abc', 0, false], [null, '', true], [null, '0', false], [true, 'x', true],
    [['1', '2'], [1, 2], true], [['a', 'b'], ['b', 'a'], false], [{ x: 'a', y: 'b' }, { y: 'b', x: 'a' }, true],
    [['1'], '1', false], [[], null, true],
  ])('%j == %j is %s', (a, b, expected) => {
    expect(looseEquals(a as never, b as never)).toBe(expected);
    expect(looseEquals(b as never, a as never)).toBe(expected);
  });

  const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    v: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.boolean(), fc.constant(null),
      fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 2 }), tie('v'), { maxKeys: 3 })),
  })).v;

  test('is symmetric and reflexive on any parameter value', () => {
    fc.assert(fc.property(value, value, (a, b) => {
      expect(looseEquals(a as never, b as never)).toBe(looseEquals(b as never, a as never));
      expect(looseEquals(a as never, a as never)).toBe(true);
    }));
  });
});
