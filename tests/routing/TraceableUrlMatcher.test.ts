import { Route, RouteCollection, TraceableUrlMatcher, TraceLevel } from '../../src/routing';
import { createDemoRoutes } from '../../src/demo/routes';

const ctx = (method = 'GET') => ({ method, host: 'localhost', scheme: 'http' });

describe('TraceableUrlMatcher.getTraces(pathInfo, context)', () => {
  const traceable = new TraceableUrlMatcher(createDemoRoutes());

  test('says which requirement failed when the path almost matches', () => {
    const traces = traceable.getTraces('/xx/about', ctx());
    const about = traces.find((t) => t.name === 'localized_about');
    expect(about).toEqual({ name: 'localized_about', path: '/{_locale}/about', level: TraceLevel.ROUTE_ALMOST_MATCHES, log: 'Requirement for "_locale" does not match (en|fr|de)' });
    expect(traces.every((t) => t.level !== TraceLevel.ROUTE_MATCHES)).toBe(true);
  });

  test('lists every route in order until the first match, which it marks', () => {
    const traces = traceable.getTraces('/api/books/5', ctx());
    expect(traces.map((t) => t.name)).toEqual(['home', 'api_entrypoint', 'book_list', 'book_create', 'book_show']);
    expect(traces[4]).toMatchObject({ level: TraceLevel.ROUTE_MATCHES, log: 'Route matches!' });
    expect(traces[0]).toMatchObject({ level: TraceLevel.ROUTE_DOES_NOT_MATCH, log: 'Path "/" does not match' });
  });

  test('reports method mismatches with the required methods', () => {
    const traces = traceable.getTraces('/api/books', ctx('DELETE'));
    expect(traces.filter((t) => t.level === TraceLevel.ROUTE_ALMOST_MATCHES).map((t) => t.log)).toEqual([
      'Method "DELETE" does not match any of the required methods (GET)',
      'Method "DELETE" does not match any of the required methods (POST)',
    ]);
  });

  test('a book id that breaks book_show\'s requirement almost matches it', () => {
    const traces = traceable.getTraces('/api/books/abc', ctx());
    expect(traces.find((t) => t.name === 'book_show')?.log).toBe('Requirement for "id" does not match (\\d+)');
    expect(traces.find((t) => t.name === 'book_update')?.log).toBe('Method "GET" does not match any of the required methods (PUT, PATCH)');
  });
});

describe('getTraces with the utf8 option', () => {
  test('a utf8 route with UTF-8 text is traced as matching; a byte route sees bytes', () => {
    const routes = new RouteCollection()
      .add('bytes', new Route('/{a}', { requirements: { a: '.' } }))
      .add('cafe', new Route('/café', { utf8: true }))
      .add('chars', new Route('/{a}', { requirements: { a: '.' }, utf8: true }));
    const traces = new TraceableUrlMatcher(routes).getTraces('/é', ctx());
    expect(traces.map((t) => [t.name, t.level])).toEqual([
      ['bytes', TraceLevel.ROUTE_ALMOST_MATCHES], ['cafe', TraceLevel.ROUTE_DOES_NOT_MATCH], ['chars', TraceLevel.ROUTE_MATCHES],
    ]);
    expect(new TraceableUrlMatcher(routes).getTraces('/caf%C3%A9', ctx()).at(-1)).toMatchObject({ name: 'cafe', level: TraceLevel.ROUTE_MATCHES });
  });
});
