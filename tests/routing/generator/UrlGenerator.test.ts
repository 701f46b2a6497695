import fc from 'fast-check';
import {
  createRequestContext, InvalidParameterError, MissingMandatoryParametersError, ReferenceType, Route, RouteCollection,
  RouteNotFoundError, UrlGenerator, UrlMatcher,
} from '../../../src/routing';

function generator(routes: RouteCollection, init = {}): UrlGenerator {
  return new UrlGenerator(routes, createRequestContext({ host: 'example.com', ...init }));
}

describe('UrlGenerator.generate(name, parameters, referenceType)', () => {
  const routes = new RouteCollection()
    .add('book_show', new Route('/api/books/{id}', { requirements: { id: '\\d+' } }))
    .add('blog', new Route('/blog/{page<\\d+>?1}'))
    .add('about', new Route('/{_locale}/about', { requirements: { _locale: 'en|fr|de' } }))
    .add('secure', new Route('/pay', { schemes: ['https'] }))
    .add('file', new Route('/files/{path}', { requirements: { path: '.+' } }))
    .add('sub', new Route('/home', { host: '{sub}.example.com' }));

  test('builds a path with the parameters', () => {
    expect(generator(routes).generate('book_show', { id: 5 })).toBe('/api/books/5');
  });

  test('leaves out a trailing optional parameter equal to its default', () => {
    const g = generator(routes);
    expect(g.generate('blog')).toBe('/blog');
    expect(g.generate('blog', { page: 1 })).toBe('/blog');
    expect(g.generate('blog', { page: 2 })).toBe('/blog/2');
  });

  test('puts extra parameters in the query string (RFC 3986) and _fragment after #', () => {
    expect(generator(routes).generate('book_show', { id: 5, q: 'a b&c', _fragment: 'top' })).toBe('/api/books/5?q=a%20b%26c#top');
  });

  test('writes absolute URLs with the context scheme, host and non-default port', () => {
    expect(generator(routes).generate('book_show', { id: 5 }, ReferenceType.ABSOLUTE_URL)).toBe('http://example.com/api/books/5');
    expect(generator(routes, { httpPort: 8080, baseUrl: '/app' }).generate('book_show', { id: 5 }, ReferenceType.ABSOLUTE_URL)).toBe('http://example.com:8080/app/api/books/5');
    expect(generator(routes).generate('book_show', { id: 5 }, ReferenceType.NETWORK_PATH)).toBe('//example.com/api/books/5');
  });

  test('forces an absolute URL when the route requires another scheme', () => {
    expect(generator(routes).generate('secure')).toBe('https://example.com/pay');
  });

  test('fills host variables and switches to a network path when the host differs', () => {
    expect(generator(routes).generate('sub', { sub: 'shop' })).toBe('//shop.example.com/home');
  });

  test('writes relative paths against the context path info', () => {
    const g = generator(routes, { pathInfo: '/api/books/1' });
    expect(g.generate('book_show', { id: 5 }, ReferenceType.RELATIVE_PATH)).toBe('5');
    expect(g.generate('blog', { page: 3 }, ReferenceType.RELATIVE_PATH)).toBe('../../blog/3');
  });

  test('keeps slashes of a slash-spanning parameter and encodes dot segments', () => {
    const g = generator(routes);
    expect(g.generate('file', { path: 'a/b c.txt' })).toBe('/files/a/b%20c.txt');
    expect(g.generate('file', { path: '../x' })).toBe('/files/%2E%2E/x');
  });

  test('throws Symfony\'s message for an unknown route', () => {
    expect(() => generator(routes).generate('nope')).toThrow(RouteNotFoundError);
    expect(() => generator(routes).generate('nope')).toThrow('Unable to generate a URL for the named route "nope" as such route does not exist.');
  });

  test('throws Symfony\'s message for missing parameters', () => {
    expect(() => generator(routes).generate('book_show')).toThrow(MissingMandatoryParametersError);
    expect(() => generator(routes).generate('book_show')).toThrow('Some mandatory parameters are missing ("id") to generate a URL for route "book_show".');
  });

  test('throws Symfony\'s message for a value that breaks the requirement', () => {
    expect(() => generator(routes).generate('about', { _locale: 'xx' })).toThrow(InvalidParameterError);
    expect(() => generator(routes).generate('about', { _locale: 'xx' })).toThrow('Parameter "_locale" for route "about" must match "en|fr|de" ("xx" given) to generate a corresponding URL.');
  });

  test('property: a generated path is matched back to the same route and parameters', () => {
    const matcher = new UrlMatcher(routes);
    const g = generator(routes);
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 1e9 }),
      fc.constantFrom('en', 'fr', 'de'),
      fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !/(^|\/)\.\.?(\/|$)/.test(s) && !s.startsWith('/') && !s.includes('//') && !s.endsWith('/')),
      (id, locale, path) => {
        const ctx = { method: 'GET', host: 'example.com', scheme: 'http' };
        expect(matcher.match(g.generate('book_show', { id }), ctx)).toEqual({ route: 'book_show', params: { id: String(id) } });
        expect(matcher.match(g.generate('about', { _locale: locale }), ctx).params._locale).toBe(locale);
        expect(matcher.match(g.generate('file', { path }), ctx).params.path).toBe(path);
      },
    ), { numRuns: 300 });
  });
});
