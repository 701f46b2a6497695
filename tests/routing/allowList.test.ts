import { Route, RouteCollection, UrlMatcher } from '../../src/routing';
import { allowedMethodsText, MethodNotAllowedError } from '../../src/routing/errors';

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

  test('a 405 on one route lists that route\'s methods without duplicates, the same frozen list each time', () => {
    const dup = new UrlMatcher(new RouteCollection()
      .add('c', new Route('/c', { methods: ['get', 'GET', 'Put'] }))
      .add('d', new Route('/d/{x}', { methods: ['PATCH'] })));
    const one = dup.tryMatch('/c', ctx('DELETE'));
    const two = dup.tryMatch('/c', ctx('POST'));
    expect(one).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET', 'PUT'] });
    if (!('failure' in one) || one.failure !== 'method-not-allowed' || !('failure' in two) || two.failure !== 'method-not-allowed') throw new Error('expected 405s');
    expect(two.allowedMethods).toBe(one.allowedMethods);
    expect(Object.isFrozen(one.allowedMethods)).toBe(true);
    // a dynamic route's list the same way
    const d1 = dup.tryMatch('/d/1', ctx('GET'));
    const d2 = dup.tryMatch('/d/2', ctx('GET'));
    expect(d1).toEqual({ failure: 'method-not-allowed', allowedMethods: ['PATCH'] });
    if (!('failure' in d1) || d1.failure !== 'method-not-allowed' || !('failure' in d2) || d2.failure !== 'method-not-allowed') throw new Error('expected 405s');
    expect(d2.allowedMethods).toBe(d1.allowedMethods);
  });

  test('two routes\' lists merge into a new list; neither route\'s own list changes', () => {
    const first = matcher.tryMatch('/a', ctx('DELETE'));
    const alone = new UrlMatcher(new RouteCollection().add('a_read', new Route('/a', { methods: ['GET'] })));
    expect(alone.tryMatch('/a', ctx('DELETE'))).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET'] });
    expect(first).toEqual({ failure: 'method-not-allowed', allowedMethods: ['GET', 'POST'] });
    expect(routes.get('a_read')!.methods).toEqual(['GET']);
    expect(routes.get('a_write')!.methods).toEqual(['POST', 'GET']);
  });

  test('allowedMethodsText joins with ", ", for frozen and unfrozen lists alike, and the error message uses it', () => {
    const frozen = Object.freeze(['GET', 'HEAD']);
    expect(allowedMethodsText(frozen)).toBe('GET, HEAD');
    expect(allowedMethodsText(frozen)).toBe('GET, HEAD');
    const open = ['PUT'];
    expect(allowedMethodsText(open)).toBe('PUT');
    open.push('DELETE');
    expect(allowedMethodsText(open)).toBe('PUT, DELETE');
    expect(new MethodNotAllowedError('POST', frozen).message).toContain('GET, HEAD');
  });
});
