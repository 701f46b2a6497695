import type { NextFunction, Request, Response } from 'express';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { corsLayer, CorsDecision, CorsOptions } from '../../src/cors';

const APP = 'https://app.example.com';

function routes(): RouteCollection {
  const r = new RouteCollection();
  r.add('books', new Route('/api/books', { methods: ['GET', 'POST'], controller: (req, res) => { res.json({ cors: req.cors }); } }));
  r.add('open', new Route('/open/data', { methods: ['GET'], controller: (_req, res) => { res.json({ open: true }); } }));
  r.add('page', new Route('/page', { methods: ['GET'], controller: (_req, res) => { res.type('text/plain').send('page'); } }));
  return r;
}

const OPTIONS: CorsOptions = {
  paths: {
    '^/api': {
      origins: [APP, /^https:\/\/[a-z]+\.example\.org$/],
      credentials: true,
      maxAge: 3600,
      methods: ['GET', 'POST'],
      allowedHeaders: ['Content-Type', 'X-Custom'],
    },
    '^/open/': { origins: ['*'] },
  },
};

/** A kernel whose earliest pluggable layer remembers each request's `req.cors` once it finished. */
function kernel(options: CorsOptions = OPTIONS) {
  const seen: Array<CorsDecision | undefined> = [];
  const spy = (req: Request, res: Response, next: NextFunction) => { res.on('finish', () => seen.push(req.cors)); next(); };
  const app = createKernel({ routes: routes(), debug: true, layers: { 'security-headers': spy, cors: corsLayer(options) } });
  return { app, seen };
}

function corsHeaders(headers: Record<string, string>): string[] {
  return Object.keys(headers).filter((h) => h.startsWith('access-control-')).sort();
}

describe('corsLayer(options) preflight', () => {
  it('answers an allowed preflight with 204 and every configured header, before routing', async () => {
    const { app, seen } = kernel();
    const res = await request(app).options('/api/books')
      .set('Origin', APP).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type,X-Custom');
    expect(res.headers['access-control-max-age']).toBe('3600');
    expect(res.headers['content-length']).toBe('0');
    expect(res.headers.vary).toMatch(/\bOrigin\b/);
    expect(seen).toEqual([{ origin: APP, allowed: true, preflight: true, rule: '^/api' }]);
  });

  it('lets a preflight from a disallowed origin go on to routing, with no CORS header', async () => {
    const { app, seen } = kernel();
    const res = await request(app).options('/api/books').set('Origin', 'https://evil.test').set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBeDefined();
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(seen).toEqual([{ origin: 'https://evil.test', allowed: false, preflight: true, rule: '^/api' }]);
  });

  it.each([
    ['https://shop.example.org', true],
    ['https://shop.example.org.evil.test', false],
    ['http://shop.example.org', false],
    ['https://SHOP.example.org', false],
    ['https://app.example.com/', false],
  ])('matches regex and exact origins exactly: %s → %s', async (origin, allowed) => {
    const res = await request(kernel().app).options('/api/books').set('Origin', origin).set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(allowed ? 204 : 405);
    expect(res.headers['access-control-allow-origin']).toBe(allowed ? origin : undefined);
  });

  it('leaves out Max-Age and credentials when not configured, and echoes requested headers with "*"', async () => {
    const { app } = kernel({ paths: { '^/api': { origins: [APP], allowedHeaders: '*' } } });
    const res = await request(app).options('/api/books').set('Origin', APP)
      .set('Access-Control-Request-Method', 'PUT').set('Access-Control-Request-Headers', 'x-one, x-two');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-max-age']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-allow-headers']).toBe('x-one, x-two');
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE');
  });

  it('lets a preflight on a path no rule covers go on to the routing table (405 with Allow)', async () => {
    const res = await request(kernel().app).options('/page').set('Origin', APP).set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(corsHeaders(res.headers)).toEqual([]);
  });
});

describe('corsLayer(options) actual requests', () => {
  it('adds Allow-Origin, credentials and the default exposed headers for an allowed origin', async () => {
    const res = await request(kernel().app).get('/api/books').set('Origin', APP);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-expose-headers']).toBe('X-Debug-Token,X-Debug-Token-Link');
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(res.body.cors).toEqual({ origin: APP, allowed: true, preflight: false, rule: '^/api' });
  });

  it('adds no CORS header for a disallowed origin, and the request still runs', async () => {
    const res = await request(kernel().app).get('/api/books').set('Origin', 'https://evil.test');
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.headers.vary).toMatch(/\bOrigin\b/);
    expect(res.body.cors).toEqual({ origin: 'https://evil.test', allowed: false, preflight: false, rule: '^/api' });
  });

  it('records a request without Origin as no CORS request', async () => {
    const res = await request(kernel().app).get('/api/books');
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.body.cors).toEqual({ origin: null, allowed: false, preflight: false, rule: '^/api' });
  });

  it('records a same-origin request (Origin its own scheme and host, or Sec-Fetch-Site: same-origin) as no CORS request', async () => {
    const { app, seen } = kernel();
    const agent = request(app);
    // supertest sends Host 127.0.0.1:<port>; a browser's same-origin POST carries that origin
    const own = await agent.post('/page').set('Host', 'admin.example.com:8080').set('Origin', 'http://admin.example.com:8080');
    const other = await agent.post('/page').set('Host', 'admin.example.com:8080').set('Origin', 'http://admin.example.com:8081');
    const api = await agent.get('/api/books').set('Host', 'app.example.com').set('Origin', 'http://app.example.com');
    // under Referrer-Policy: no-referrer a same-origin POST says Origin: null; Fetch Metadata tells
    const opaque = await agent.post('/page').set('Origin', 'null').set('Sec-Fetch-Site', 'same-origin');
    const sandboxed = await agent.post('/page').set('Origin', 'null').set('Sec-Fetch-Site', 'cross-site');
    expect([own.status, other.status, opaque.status, sandboxed.status]).toEqual([405, 405, 405, 405]);
    expect(corsHeaders(api.headers)).toEqual([]);
    expect(seen).toEqual([
      { origin: null, allowed: false, preflight: false, rule: null },
      { origin: 'http://admin.example.com:8081', allowed: false, preflight: false, rule: null },
      { origin: null, allowed: false, preflight: false, rule: '^/api' },
      { origin: null, allowed: false, preflight: false, rule: null },
      { origin: 'null', allowed: false, preflight: false, rule: null },
    ]);
  });

  it('sends a plain OPTIONS (no Access-Control-Request-Method) to routing: 405 with Allow, CORS headers kept', async () => {
    const { app, seen } = kernel();
    const res = await request(app).options('/api/books').set('Origin', APP);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-methods']).toBeUndefined();
    expect(seen).toEqual([{ origin: APP, allowed: true, preflight: false, rule: '^/api' }]);
  });

  it('sends a plain OPTIONS without Origin to routing too', async () => {
    const res = await request(kernel().app).options('/api/books');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('keeps the CORS headers on a 404 under /api for an allowed origin', async () => {
    const res = await request(kernel().app).get('/api/nope').set('Origin', APP).set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-expose-headers']).toBe('X-Debug-Token,X-Debug-Token-Link');
    expect(res.headers['x-debug-token']).toBeDefined();
  });

  it('echoes any origin under a "*" rule, and matches path keys case-insensitively', async () => {
    const res = await request(kernel().app).get('/OPEN/data').set('Origin', 'https://anyone.test');
    expect(res.headers['access-control-allow-origin']).toBe('https://anyone.test');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('leaves paths no rule covers alone', async () => {
    const res = await request(kernel().app).get('/page').set('Origin', APP);
    expect(res.status).toBe(200);
    expect(corsHeaders(res.headers)).toEqual([]);
    expect(res.headers.vary ?? '').not.toMatch(/\bOrigin\b/);
  });
});

describe('corsLayer(options) validation', () => {
  it.each<[string, CorsOptions, string]>([
    ['no paths', { paths: {} }, 'Invalid option "cors.paths": expected settings per path regex, e.g. '
      + '{ "^/api/": { origins: ["https://app.example.com"] } } (got {}).'],
    ['a bad path regex', { paths: { '^/api(': {} } },
      'Invalid option "cors.paths["^/api("]": the key is not a valid regular expression: '
      + 'Invalid regular expression: /^/api(/i: Unterminated group.'],
    ['an unanchored origin regex', { paths: { '^/api': { origins: [/example\.com/] } } },
      'Invalid option "cors.paths["^/api"].origins[0]": the regular expression /example\\.com/ must be anchored'],
    ['a trailing slash', { paths: { '^/api': { origins: ['https://App.example.com/'] } } },
      'Invalid option "cors.paths["^/api"].origins[0]": expected an origin, "*" or an anchored RegExp '
      + '(got "https://App.example.com/"); did you mean "https://app.example.com"?'],
    ['a wildcard with credentials', { paths: { '^/api': { origins: ['*'], credentials: true } } },
      'Invalid option "cors.paths["^/api"].origins": the wildcard "*" cannot go with credentials: true '
      + '(any site could read your users\' data); list the origins.'],
    ['a negative max-age', { paths: { '^/api': { maxAge: -1 } } },
      'Invalid option "cors.paths["^/api"].maxAge": expected a whole number of seconds from 0 to 86400 (got -1).'],
    ['a typo', { paths: { '^/api': { exposeHeaders: [] } as never } },
      'Invalid option "cors.paths["^/api"].exposeHeaders": unknown option; did you mean "exposedHeaders"?'],
    ['a bad header name', { paths: { '^/api': { allowedHeaders: ['X Bad'] } } },
      'Invalid option "cors.paths["^/api"].allowedHeaders[0]": expected a header name (an HTTP token) (got "X Bad").'],
    ['a typo in defaults', { paths: { '^/api': {} }, defaults: { origin: [] } as never },
      'Invalid option "cors.defaults.origin": unknown option; did you mean "origins"?'],
  ])('refuses %s at construction', (_what, options, message) => {
    expect(() => corsLayer(options)).toThrow(message);
  });

  it('merges defaults under each path', async () => {
    const app = createKernel({ routes: routes(), layers: { cors: corsLayer({ defaults: { origins: [APP], maxAge: 60 }, paths: { '^/api': { maxAge: 120 } } }) } });
    const res = await request(app).options('/api/books').set('Origin', APP).set('Access-Control-Request-Method', 'GET');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-max-age']).toBe('120');
  });
});
