import { Route, RouteCollection, UrlMatcher } from '../../src/routing';

const ctx = (method: string) => ({ method, host: 'localhost', scheme: 'http' });

describe('UrlMatcher.tryMatch: the allow list of a method-not-allowed failure', () => {
  const routes = new RouteCollection()
    .add('a_read', new Route('/a', { methods: ['GET'] }))
    .add('a_write', new Route('/a', { methods: ['POST', 'GET'] }))
    .add('b', new Route('/b/{id}', { methods: ['PUT'] }));
  const matcher = new UrlMatcher(routes);

  test('lists each matching route\'s methods once, in order, and stays as it was after later matches', () => {
    const first = matcher.tryMatch('/a', ctx('DELETE'));
    expect(first).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET', 'POST'] });
    const second = matcher.tryMatch('/b/1', ctx('DELETE'));
    expect(second).toEqual({ failure: 'method-not-allowed', allowedMethods: ['PUT'] });
    expect(matcher.tryMatch('/a', ctx('GET'))).toMatchObject({ route: 'a_read' });
    expect(matcher.tryMatch('/a', ctx('PATCH'))).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET', 'POST'] });
    expect(first).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET', 'POST'] });
  });
});
