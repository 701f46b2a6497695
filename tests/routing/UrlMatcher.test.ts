/**
 * UrlMatcher, rule by rule. The demo-table cases are rows of the Symfony oracle's FINDINGS.md (the
 * oracle app, outside this repository, is described in tests/fixtures/oracle/README.md)
 * (§1 not found, §2 method not allowed, §3 trailing slash, §6 requirements), observed on
 * Symfony 5.4; the other tables were checked with tests/routing/symfony/harness.php.
 */
import { Route, type RouteOptions } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { UrlMatcher } from '../../src/routing/matcher/UrlMatcher';
import { InvalidRouteError, MethodNotAllowedError, NoConfigurationError, ResourceNotFoundError, isRoutingError } from '../../src/routing/errors';
import { demoCollection } from './demo-table';
import { outcomeOf } from './outcome';
import type { Outcome } from './reference-matcher';

type Ctx = { method?: string; host?: string; scheme?: string };

function matcherFor(
  routes: Array<[string, string, RouteOptions?, number?]>,
  options?: { redirectable?: boolean },
): UrlMatcher {
  const c = new RouteCollection();
  for (const [name, path, o, priority] of routes) c.add(name, new Route(path, o ?? {}), priority ?? 0);
  return new UrlMatcher(c, options);
}

function run(m: UrlMatcher, path: string, ctx: Ctx = {}): Outcome {
  return outcomeOf(m, path, { method: ctx.method ?? 'GET', host: ctx.host ?? 'localhost', scheme: ctx.scheme ?? 'http' });
}

const matched = (route: string, params: Record<string, string | null> = {}): Outcome => ({ kind: 'match', route, params });
const redirected = (
  route: string,
  pathInfo: string,
  params: Record<string, string | null> = {},
  scheme?: string,
): Outcome => ({
  kind: 'match',
  route,
  params,
  redirect: scheme === undefined ? { pathInfo } : { pathInfo, scheme },
});
const notFound = (path: string): Outcome => ({ kind: 'error', error: 'ResourceNotFoundError', message: `No routes found for "${path}".` });
const notAllowed = (method: string, allowed: string[]): Outcome => ({
  kind: 'error',
  error: 'MethodNotAllowedError',
  message: `Method "${method}" is not allowed (Allow: ${allowed.join(', ')}).`,
  allowedMethods: allowed,
});

describe('match(pathInfo, context) on the oracle demo table', () => {
  const demo = new UrlMatcher(demoCollection());
  const get = (path: string, method = 'GET'): Outcome => run(demo, path, { method });

  describe('a path that no route matches (FINDINGS §1)', () => {
    test('GET /nope is not found, and the message shows the toggled path /nope/', () => {
      expect(get('/nope')).toEqual(notFound('/nope/'));
    });

    test('HEAD /nope toggles too', () => {
      expect(get('/nope', 'HEAD')).toEqual(notFound('/nope/'));
    });

    test('POST /nope keeps the path as sent', () => {
      expect(get('/nope', 'POST')).toEqual(notFound('/nope'));
    });

    test('matching is case-sensitive: /API/books is not found', () => {
      expect(get('/API/books')).toEqual(notFound('/API/books/'));
    });

    test.each(['/admin/nope', '/_profiler/a/b', '/api//books', '/api/../nope', '//nope'])('%s is not found', (path) => {
      expect(get(path)).toEqual(notFound(path + '/'));
    });

    test('/_wdt and /_wdt/ are not found (the token may not be empty)', () => {
      expect(get('/_wdt')).toEqual(notFound('/_wdt/'));
      expect(get('/_wdt/')).toEqual(notFound('/_wdt'));
    });

    test('the message keeps the raw encoding: /caf%C3%A9', () => {
      expect(get('/caf%C3%A9')).toEqual(notFound('/caf%C3%A9/'));
    });

    test('a 4001-character path is echoed in full', () => {
      const path = '/' + 'a'.repeat(4000);
      expect(get(path)).toEqual(notFound(path + '/'));
    });

    test('%2F is decoded before matching: /api%2Fbooks matches book_list', () => {
      expect(get('/api%2Fbooks')).toEqual(matched('book_list'));
    });

    test('a path that is not valid UTF-8 once decoded matches nothing', () => {
      expect(get('/api/books/%E9')).toEqual(notFound('/api/books/%E9/'));
    });
  });

  describe('a path that matches with another method (FINDINGS §2)', () => {
    test('DELETE /api/books is not allowed; Allow lists GET, POST in declaration order', () => {
      expect(get('/api/books', 'DELETE')).toEqual(notAllowed('DELETE', ['GET', 'POST']));
    });

    test('POST /api/books/5 is not allowed; Allow: GET, PUT, PATCH, DELETE', () => {
      expect(get('/api/books/5', 'POST')).toEqual(notAllowed('POST', ['GET', 'PUT', 'PATCH', 'DELETE']));
    });

    test.each([
      ['PUT', '/plain'],
      ['POST', '/'],
      ['POST', '/admin'],
      ['POST', '/boom'],
      ['POST', '/hello/'],
      ['OPTIONS', '/'],
    ])('%s %s is not allowed; Allow: GET', (method, path) => {
      expect(get(path, method)).toEqual(notAllowed(method, ['GET']));
    });

    test.each(['OPTIONS', 'TRACE', 'PATCH'])('%s /api/books is an ordinary method: Allow: GET, POST', (method) => {
      expect(get('/api/books', method)).toEqual(notAllowed(method, ['GET', 'POST']));
    });

    test('HEAD matches GET routes: HEAD /api/books is book_list, HEAD /api/books/5 is book_show', () => {
      expect(get('/api/books', 'HEAD')).toEqual(matched('book_list'));
      expect(get('/api/books/5', 'HEAD')).toEqual(matched('book_show', { id: '5' }));
    });

    test('DELETE /api/books/5 is book_delete', () => {
      expect(get('/api/books/5', 'DELETE')).toEqual(matched('book_delete', { id: '5' }));
    });

    test('the thrown error is a MethodNotAllowedError with the method and the allowed methods', () => {
      let caught: unknown;
      try {
        demo.match('/api/books', { method: 'DELETE', host: 'localhost', scheme: 'http' });
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(MethodNotAllowedError);
      expect(isRoutingError(caught)).toBe(true);
      expect((caught as MethodNotAllowedError).method).toBe('DELETE');
      expect((caught as MethodNotAllowedError).allowedMethods).toEqual(['GET', 'POST']);
    });
  });

  describe('a path that matches but for trailing slashes (FINDINGS §3)', () => {
    test('GET /hello redirects to /hello/ (hello_slash)', () => {
      expect(get('/hello')).toEqual(redirected('hello_slash', '/hello/'));
    });

    test('GET /plain/ redirects to /plain', () => {
      expect(get('/plain/')).toEqual(redirected('plain', '/plain'));
    });

    test('HEAD redirects as GET does', () => {
      expect(get('/hello', 'HEAD')).toEqual(redirected('hello_slash', '/hello/'));
      expect(get('/plain/', 'HEAD')).toEqual(redirected('plain', '/plain'));
    });

    test.each([
      ['/api/books/', 'book_list', '/api/books', {}],
      ['/api/books//', 'book_list', '/api/books', {}],
      ['/api/books/5/', 'book_show', '/api/books/5', { id: '5' }],
      ['/fr/about/', 'localized_about', '/fr/about', { _locale: 'fr' }],
      ['/plain//', 'plain', '/plain', {}],
      ['/admin/', 'admin_dashboard', '/admin', {}],
      ['/_profiler', '_profiler_home', '/_profiler/', {}],
    ])('GET %s redirects to %s at %s', (path, route, target, params) => {
      expect(get(path)).toEqual(redirected(route, target, params));
    });

    test('GET /api/books/%35/ redirects to /api/books/%35: the raw encoding is kept', () => {
      expect(get('/api/books/%35/')).toEqual(redirected('book_show', '/api/books/%35', { id: '5' }));
    });

    test('GET /hello// and /hello/// match hello_slash directly, without a redirect', () => {
      expect(get('/hello//')).toEqual(matched('hello_slash'));
      expect(get('/hello///')).toEqual(matched('hello_slash'));
    });

    test('POST /hello is not found with "No routes found for "/hello"." (no redirect, no 405)', () => {
      expect(get('/hello', 'POST')).toEqual(notFound('/hello'));
    });

    test.each([
      ['POST', '/plain/'],
      ['PUT', '/plain/'],
      ['DELETE', '/api/books/'],
      ['DELETE', '/api/books/5/'],
    ])('%s %s is not found, with the path as sent', (method, path) => {
      expect(get(path, method)).toEqual(notFound(path));
    });

    test('GET /_profiler/ is _profiler_home', () => {
      expect(get('/_profiler/')).toEqual(matched('_profiler_home'));
    });
  });

  describe('requirements (FINDINGS §6)', () => {
    test.each(['/xx/about', '/FR/about'])('GET %s is not found (_locale must be en|fr|de)', (path) => {
      expect(get(path)).toEqual(notFound(path + '/'));
    });

    test('POST /xx/about is not found with the path as sent', () => {
      expect(get('/xx/about', 'POST')).toEqual(notFound('/xx/about'));
    });

    test('GET /de/about is localized_about with _locale de', () => {
      expect(get('/de/about')).toEqual(matched('localized_about', { _locale: 'de' }));
    });

    test.each(['/api/books/abc', '/api/books/-1'])(
      'GET %s is 405 with Allow: PUT, PATCH, DELETE (book_update and book_delete have no \\d+)',
      (path) => {
        expect(get(path)).toEqual(notAllowed('GET', ['PUT', 'PATCH', 'DELETE']));
      },
    );

    test('DELETE /api/books/abc is book_delete', () => {
      expect(get('/api/books/abc', 'DELETE')).toEqual(matched('book_delete', { id: 'abc' }));
    });
  });

  describe('the profiler routes (declared first, all methods)', () => {
    test('/_profiler/search is the static route, not /_profiler/{token}', () => {
      expect(get('/_profiler/search')).toEqual(matched('_profiler_search'));
    });

    test('/_profiler/abc123/router is _profiler_router', () => {
      expect(get('/_profiler/abc123/router', 'POST')).toEqual(matched('_profiler_router', { token: 'abc123' }));
    });

    test('/_profiler/abc123/exception.css is _profiler_exception_css', () => {
      expect(get('/_profiler/abc123/exception.css')).toEqual(matched('_profiler_exception_css', { token: 'abc123' }));
    });
  });
});

describe('match(pathInfo, context): order and priority', () => {
  test('the first declared route wins', () => {
    const m = matcherFor([['first', '/a/{x}'], ['second', '/a/{y}']]);
    expect(run(m, '/a/1')).toEqual(matched('first', { x: '1' }));
  });

  test('a higher priority wins over declaration order; ties keep declaration order', () => {
    const m = matcherFor([['low', '/a/{x}'], ['high', '/a/{y}', {}, 10], ['high2', '/a/{z}', {}, 10]]);
    expect(run(m, '/a/1')).toEqual(matched('high', { y: '1' }));
  });

  test('a static route declared after a dynamic route that matches it is still matched in declaration order', () => {
    const m = matcherFor([['dynamic', '/page/{slug}'], ['static', '/page/about']]);
    expect(run(m, '/page/about')).toEqual(matched('dynamic', { slug: 'about' }));
  });

  test('a static route declared before the dynamic route wins', () => {
    const m = matcherFor([['static', '/page/about'], ['dynamic', '/page/{slug}']]);
    expect(run(m, '/page/about')).toEqual(matched('static'));
  });

  test('a shadowed static route is still reached when the dynamic route refuses the method', () => {
    const m = matcherFor([['dynamic', '/page/{slug}', { methods: ['POST'] }], ['static', '/page/about', { methods: ['GET'] }]]);
    expect(run(m, '/page/about')).toEqual(matched('static'));
    expect(run(m, '/page/about', { method: 'PUT' })).toEqual(notAllowed('PUT', ['POST', 'GET']));
  });

  test('Allow lists each method once, in the order first seen', () => {
    const m = matcherFor([['a', '/x', { methods: ['PUT', 'POST'] }], ['b', '/{y}', { methods: ['POST', 'DELETE'] }]]);
    expect(run(m, '/x')).toEqual(notAllowed('GET', ['PUT', 'POST', 'DELETE']));
  });
});

describe('match(pathInfo, context): methods', () => {
  test('HEAD-only routes match HEAD, and GET is told Allow: HEAD', () => {
    const m = matcherFor([['head', '/ping', { methods: ['HEAD'] }]]);
    expect(run(m, '/ping', { method: 'HEAD' })).toEqual(matched('head'));
    expect(run(m, '/ping')).toEqual(notAllowed('GET', ['HEAD']));
  });

  test('a HEAD-only route does not stop the scan on a trailing-slash mismatch, but HEAD still gets the toggled-path redirect', () => {
    const m = matcherFor([['head', '/ping', { methods: ['HEAD'] }]]);
    expect(run(m, '/ping/', { method: 'HEAD' })).toEqual(redirected('head', '/ping'));
  });

  test('methods are case-insensitive in the definition', () => {
    const m = matcherFor([['r', '/x', { methods: ['post'] }]]);
    expect(run(m, '/x', { method: 'POST' })).toEqual(matched('r'));
  });

  test('405 wins over a scheme redirect', () => {
    const m = matcherFor([['post', '/x', { methods: ['POST'] }], ['secure', '/x', { methods: ['GET'], schemes: ['https'] }]]);
    expect(run(m, '/x')).toEqual(notAllowed('GET', ['POST']));
  });

  test('405 wins over a toggled-path redirect', () => {
    const m = matcherFor([['post', '/x', { methods: ['POST'] }], ['head', '/x/', { methods: ['HEAD'] }]]);
    expect(run(m, '/x', { method: 'HEAD' })).toEqual(notAllowed('HEAD', ['POST']));
    expect(run(matcherFor([['head', '/x/', { methods: ['HEAD'] }]]), '/x', { method: 'HEAD' })).toEqual(redirected('head', '/x/'));
  });

  test('a trailing-slash mismatch on a GET route discards the methods collected so far and redirects', () => {
    const m = matcherFor([['post', '/x', { methods: ['POST'] }], ['get', '/x/', { methods: ['GET'] }]]);
    expect(run(m, '/x')).toEqual(redirected('get', '/x/'));
  });

  test('a trailing-slash mismatch on a GET route stops the scan: a later exact match is not reached', () => {
    const m = matcherFor([['slash', '/x/'], ['exact', '/{y}']]);
    expect(run(m, '/x')).toEqual(redirected('slash', '/x/'));
  });

  test('a trailing-slash mismatch on a non-GET route is skipped and the scan goes on', () => {
    const m = matcherFor([['slash', '/x/', { methods: ['POST'] }], ['exact', '/{y}']]);
    expect(run(m, '/x')).toEqual(matched('exact', { y: 'x' }));
  });
});

describe('match(pathInfo, context): schemes and hosts', () => {
  test('GET on the wrong scheme redirects to the first allowed scheme, same path', () => {
    const m = matcherFor([['secure', '/login', { schemes: ['https'] }]]);
    expect(run(m, '/login')).toEqual(redirected('secure', '/login', {}, 'https'));
    expect(run(m, '/login', { scheme: 'https' })).toEqual(matched('secure'));
  });

  test('POST on the wrong scheme is not found', () => {
    const m = matcherFor([['secure', '/login', { schemes: ['HTTPS'] }]]);
    expect(run(m, '/login', { method: 'POST' })).toEqual(notFound('/login'));
  });

  test('a scheme redirect also applies after the trailing slash is toggled', () => {
    const m = matcherFor([['secure', '/login/{x}', { schemes: ['https'] }]]);
    expect(run(m, '/login/a/')).toEqual(redirected('secure', '/login/a', { x: 'a' }, 'https'));
  });

  test('a host with variables adds them to the params', () => {
    const m = matcherFor([['tenant', '/home', { host: '{tenant}.example.com' }]]);
    expect(run(m, '/home', { host: 'acme.example.com' })).toEqual(matched('tenant', { tenant: 'acme' }));
    expect(run(m, '/home', { host: 'example.org' })).toEqual(notFound('/home/'));
  });

  test('host requirements apply to host variables', () => {
    const m = matcherFor([['tenant', '/u/{id}', { host: '{tenant}.example.com', requirements: { tenant: '[a-z]+' } }]]);
    expect(run(m, '/u/1', { host: 'acme.example.com' })).toEqual(matched('tenant', { tenant: 'acme', id: '1' }));
    expect(run(m, '/u/1', { host: 'a1.example.com' })).toEqual(notFound('/u/1/'));
  });

  test('a literal host must equal the request host; other routes are tried', () => {
    const m = matcherFor([['api', '/', { host: 'api.example.com' }], ['www', '/']]);
    expect(run(m, '/', { host: 'api.example.com' })).toEqual(matched('api'));
    expect(run(m, '/', { host: 'www.example.com' })).toEqual(matched('www'));
  });
});

describe('match(pathInfo, context): conditions', () => {
  test('a route whose condition is false is skipped', () => {
    const m = matcherFor([
      ['mobile', '/x', { condition: (c) => c.host.startsWith('m.') }],
      ['desktop', '/x'],
    ]);
    expect(run(m, '/x', { host: 'm.example.com' })).toEqual(matched('mobile'));
    expect(run(m, '/x', { host: 'www.example.com' })).toEqual(matched('desktop'));
  });

  test('the condition sees the method and the raw path info being matched', () => {
    const seen: Array<[string, string]> = [];
    const m = matcherFor([['r', '/a/{x}', { condition: (c) => (seen.push([c.method, c.pathInfo]), true) }]]);
    run(m, '/a/%35', { method: 'HEAD' });
    expect(seen).toEqual([['HEAD', '/a/%35']]);
  });

  test('a route skipped by its condition does not add to Allow', () => {
    const m = matcherFor([['r', '/x', { methods: ['POST'], condition: () => false }]]);
    expect(run(m, '/x')).toEqual(notFound('/x/'));
  });
});

describe('match(pathInfo, context): path variables', () => {
  test('an optional trailing variable {page?1} takes its default when absent', () => {
    const m = matcherFor([['list', '/list/{page?1}']]);
    expect(run(m, '/list')).toEqual(matched('list', { page: '1' }));
    expect(run(m, '/list/3')).toEqual(matched('list', { page: '3' }));
  });

  test('an optional variable alone: /{page?1} matches / and /2', () => {
    const m = matcherFor([['p', '/{page?1}']]);
    expect(run(m, '/')).toEqual(matched('p', { page: '1' }));
    expect(run(m, '/2')).toEqual(matched('p', { page: '2' }));
  });

  test('{page?} has a null default', () => {
    const m = matcherFor([['list', '/list/{page?}']]);
    expect(run(m, '/list')).toEqual(matched('list', { page: null }));
  });

  test('an inline requirement {id<\\d+>} is enforced', () => {
    const m = matcherFor([['show', '/show/{id<\\d+>}']]);
    expect(run(m, '/show/42')).toEqual(matched('show', { id: '42' }));
    expect(run(m, '/show/x')).toEqual(notFound('/show/x/'));
  });

  test('{id<\\d+>?1} is both', () => {
    const m = matcherFor([['p', '/p/{id<\\d+>?1}']]);
    expect(run(m, '/p')).toEqual(matched('p', { id: '1' }));
    expect(run(m, '/p/x')).toEqual(notFound('/p/x/'));
  });

  test('{!page?1} is never optional', () => {
    const m = matcherFor([['p', '/p/{!page?1}']]);
    expect(run(m, '/p/2')).toEqual(matched('p', { page: '2' }));
    expect(run(m, '/p')).toEqual(notFound('/p/'));
  });

  test('the default requirement stops at the next separator: /{name}.{ext}', () => {
    const m = matcherFor([['file', '/f/{name}.{ext}']]);
    expect(run(m, '/f/a.b.c')).toEqual(matched('file', { name: 'a', ext: 'b.c' }));
  });

  test('a variable may span slashes with a requirement like .+', () => {
    const m = matcherFor([['any', '/files/{path<.+>}']]);
    expect(run(m, '/files/a/b/c')).toEqual(matched('any', { path: 'a/b/c' }));
  });

  test('a trailing slash is kept in a slash-spanning variable instead of redirecting', () => {
    const m = matcherFor([['any', '/files/{path<.+>}']]);
    expect(run(m, '/files/a/b/')).toEqual(matched('any', { path: 'a/b/' }));
  });

  test('params are raw-url-decoded once: %2F inside a variable becomes /', () => {
    const m = matcherFor([['any', '/files/{path<.+>}'], ['one', '/one/{x}']]);
    expect(run(m, '/files/a%2Fb')).toEqual(matched('any', { path: 'a/b' }));
    expect(run(m, '/one/a%2Fb')).toEqual(notFound('/one/a%2Fb/'));
    expect(run(m, '/one/%2541')).toEqual(matched('one', { x: '%41' }));
  });

  test('defaults are overlaid by captured values', () => {
    const m = matcherFor([['r', '/r/{x}', { defaults: { x: 'd', extra: 7 } }]]);
    expect(run(m, '/r/v')).toEqual(matched('r', { x: 'v', extra: '7' }));
  });
});

describe('match(pathInfo, context): the root path and empty tables', () => {
  test('an empty table throws NoConfigurationError for /', () => {
    const m = new UrlMatcher(new RouteCollection());
    expect(() => m.match('/', { method: 'GET', host: 'localhost', scheme: 'http' })).toThrow(NoConfigurationError);
    expect(run(m, '/')).toEqual({ kind: 'error', error: 'NoConfigurationError', message: 'No routes found for "/".' });
  });

  test('an empty path is /', () => {
    const m = matcherFor([['home', '/']]);
    expect(run(m, '')).toEqual(matched('home'));
  });

  test('// does not match / and is not toggled (its trimmed form is /)', () => {
    const m = matcherFor([['home', '/']]);
    expect(run(m, '//')).toEqual(notFound('//'));
  });

  test('NoConfigurationError is a ResourceNotFoundError', () => {
    expect(new NoConfigurationError()).toBeInstanceOf(ResourceNotFoundError);
  });
});

describe('match(pathInfo, context) with { redirectable: false }', () => {
  test('a trailing-slash mismatch is a plain miss, with the path as sent', () => {
    const m = matcherFor([['hello', '/hello/']], { redirectable: false });
    expect(run(m, '/hello')).toEqual(notFound('/hello'));
  });

  test('a scheme mismatch is a plain miss', () => {
    const m = matcherFor([['secure', '/login', { schemes: ['https'] }]], { redirectable: false });
    expect(run(m, '/login')).toEqual(notFound('/login'));
  });

  test('a trailing-slash mismatch does not stop the scan', () => {
    const m = matcherFor([['slash', '/x/'], ['exact', '/{y}']], { redirectable: false });
    expect(run(m, '/x')).toEqual(matched('exact', { y: 'x' }));
  });
});

describe('new UrlMatcher(routes)', () => {
  test('compiles every route once and throws InvalidRouteError for a bad one', () => {
    const c = new RouteCollection().add('bad', new Route('/{1x}'));
    expect(() => new UrlMatcher(c)).toThrow(InvalidRouteError);
  });
});

/**
 * Disagreements with Symfony 5.4 found by the property tests and confirmed with
 * tests/routing/symfony/harness.php (Symfony's own CompiledUrlMatcher). Each test states what
 * Symfony answers.
 */
describe('match(pathInfo, context): Symfony corner cases the index or the matcher gets wrong', () => {
  test('the index keeps a route whose path ends in // when the request has one trailing slash (/{x}// matches /b/)', () => {
    const m = matcherFor([['r', '/{x}//']]);
    expect(run(m, '/b/')).toEqual(matched('r', { x: 'b' }));
  });

  test('the index keeps a static route ending in // made dynamic by an earlier route (GET /a/ matches /a//)', () => {
    const m = matcherFor([['d', '/{x}/', { methods: ['POST'] }], ['s', '/a//']]);
    expect(run(m, '/a/')).toEqual(matched('s'));
  });

  test('the index keeps a last variable that may be empty: /a/{x<\\d*>} matches /a/ with x = ""', () => {
    const m = matcherFor([['r', '/a/{x<\\d*>}']]);
    expect(run(m, '/a/')).toEqual(matched('r', { x: '' }));
  });

  test('the index keeps /{x<\\d*>} for / and // (x = "")', () => {
    const m = matcherFor([['r', '/{x<\\d*>}']]);
    expect(run(m, '/')).toEqual(matched('r', { x: '' }));
    expect(run(m, '//')).toEqual(matched('r', { x: '' }));
  });

  test('the index keeps a requirement that looks past its segment: /{a<x(?!$)>}/b matches /x/b', () => {
    const m = matcherFor([['r', '/{a<x(?!$)>}/b']]);
    expect(run(m, '/x/b')).toEqual(matched('r', { a: 'x' }));
  });

  test('the index keeps a requirement that looks before its segment: /{a<(?<!^)x>} matches /x', () => {
    const m = matcherFor([['r', '/{a<(?<!^)x>}']]);
    expect(run(m, '/x')).toEqual(matched('r', { a: 'x' }));
  });

  test('the trailing-variable re-check runs the whole table: an earlier route matching only the trimmed path keeps /5// on the later route', () => {
    // Symfony re-runs its combined regex on "/5"; `p` (which did not match "/5//") comes first,
    // so `any` keeps its trailing slash and matches with v = "5//".
    const m = matcherFor([['p', '/{page?1}'], ['any', '/{v<.+>}/{page?1}']]);
    expect(run(m, '/5//')).toEqual(matched('any', { page: '1', v: '5//' }));
  });

  test('a dynamic / route (shadowed by an earlier optional route) also matches //, and stops a GET scan there', () => {
    const m = matcherFor([['opt', '/{x<\\d+>?1}', { methods: ['POST'] }], ['home', '/', { methods: ['GET'] }], ['all', '/{path<.+>}']]);
    expect(run(m, '//')).toEqual(notFound('//'));
    expect(run(m, '//', { method: 'POST' })).toEqual(matched('all', { path: '/' }));
  });
});
