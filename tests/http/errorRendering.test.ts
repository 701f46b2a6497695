import { exceptionChain, framesOf } from '../../src/http/ErrorRenderer';
import { parseStack } from '../../src/support/stackTrace';
import request from 'supertest';
import { createDemoKernel } from '../../src/demo/app';

describe('error rendering', () => {
  const debug = createDemoKernel({ debug: true });
  const prod = createDemoKernel({ debug: false });

  test('debug HTML page: title "<message> (<code> <reason>)", message, cause chain', async () => {
    const res = await request(debug).get('/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache, private');
    const msg = `No route found for &quot;GET http://${res.request.url.split('/')[2]}/nope&quot;`;
    expect(res.text).toContain(`<title>${msg} (404 Not Found)</title>`);
    expect(res.text).toContain('NotFoundHttpError');
    expect(res.text).toContain('ResourceNotFoundError');
    expect(res.text).toContain('No routes found for &quot;/nope/&quot;.');
  });

  test('problem details for JSON clients, with Vary: Accept', async () => {
    for (const accept of ['application/json', 'application/problem+json']) {
      const res = await request(debug).delete('/api/books').set('Accept', accept);
      expect(res.status).toBe(405);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers.vary).toMatch(/Accept/);
      expect(res.headers.allow).toBe('GET, POST');
      const body = JSON.parse(res.text);
      // a path under /api: the API's problem details (API Platform's title and type; issue 24)
      expect(body).toMatchObject({ title: 'An error occurred', status: 405, type: '/errors/405' });
      expect(body.detail).toMatch(/^No route found for "DELETE http:\/\/127\.0\.0\.1:\d+\/api\/books": Method Not Allowed \(Allow: GET, POST\)$/);
    }
  });

  test('browsers and */* get HTML', async () => {
    for (const accept of ['*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/ld+json']) {
      const res = await request(debug).get('/nope').set('Accept', accept);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  test('X-Debug-Exception carries the URL-encoded message, cut at 2000 characters', async () => {
    const long = '/' + 'x'.repeat(3000);
    const res = await request(debug).get(long);
    const decoded = decodeURIComponent(String(res.headers['x-debug-exception']));
    expect(decoded).toHaveLength(2000);
    expect(decoded.startsWith('No route found for "GET http://')).toBe(true);
    expect(res.headers['x-debug-exception-file']).toMatch(/:\d+$/);
  });

  test('a controller exception is a 500 with its message in debug mode', async () => {
    const res = await request(debug).get('/boom');
    expect(res.status).toBe(500);
    expect(decodeURIComponent(String(res.headers['x-debug-exception']))).toBe('Kaboom');
    expect(res.text).toContain('<title>Kaboom (500 Internal Server Error)</title>');
  });

  test('outside debug mode: no stack, no X-Debug headers, no internal message for a 5xx', async () => {
    const res = await request(prod).get('/boom');
    expect(res.status).toBe(500);
    expect(res.headers['x-debug-exception']).toBeUndefined();
    expect(res.headers['x-debug-token']).toBeUndefined();
    expect(res.text).not.toContain('Kaboom');
    expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
    const json = await request(prod).get('/boom').set('Accept', 'application/json');
    expect(JSON.parse(json.text).detail).toBe('Internal Server Error');
  });

  test('outside debug mode a 4xx still says what was wrong', async () => {
    const res = await request(prod).get('/nope').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).detail).toMatch(/^No route found for "GET http:\/\/127\.0\.0\.1:\d+\/nope"$/);
  });

  test('everything echoed is HTML-escaped', async () => {
    const res = await request(debug).get('/%3Cscript%3Ealert(1)%3C/script%3E').set('Referer', '"><img src=x onerror=alert(1)>');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
  });

  test('an invalid Host is a 400 with Symfony\'s message', async () => {
    const res = await request(debug).get('/nope').set('Host', 'bad_host!');
    expect(res.status).toBe(400);
    expect(decodeURIComponent(String(res.headers['x-debug-exception']))).toBe('Invalid Host "bad_host!".');
  });

  test('an invalid method override is a 400, a valid one is honoured for POST', async () => {
    const bad = await request(debug).post('/api/books/5').set('X-HTTP-Method-Override', 'DE LETE');
    expect(bad.status).toBe(400);
    expect(decodeURIComponent(String(bad.headers['x-debug-exception']))).toBe('Invalid method override "DE LETE".');
    // routed as DELETE (a POST would be a 405): book_delete needs ROLE_ADMIN, so the anonymous
    // client gets the Basic challenge
    const ok = await request(debug).post('/api/books/1').set('X-HTTP-Method-Override', 'DELETE');
    expect(ok.status).toBe(401);
    expect(ok.headers['www-authenticate']).toMatch(/^Basic /);
  });
});

describe('exceptionChain(error): X-Debug-Exception-File', () => {
  test('names the frame V8 wrote, never a frame-like line of the message', () => {
    const top = exceptionChain(new Error('bad input\n    at forged (/etc/passwd.js:1:1)'), { sourceMaps: false })[0];
    expect(top.file).toBe(__filename);
  });
});

describe('framesOf(entry): the frames of an exceptionChain entry', () => {
  test('parses each error of the chain once: the page and the panel get the same frames', () => {
    const cause = new Error('inner');
    const chain = exceptionChain(new Error('outer', { cause }));
    expect(chain).toHaveLength(2);
    for (const entry of chain) {
      const frames = framesOf(entry);
      expect(frames).toEqual(parseStack(entry.stack, entry.message));
      expect(frames.length).toBeGreaterThan(0);
      expect(framesOf(entry)).toBe(frames);
      expect(Object.isFrozen(frames)).toBe(true);
    }
    // the top frame named by the entry is the first parsed frame
    expect(framesOf(chain[0])[0].file).toBe(chain[0].file);
  });

  test('an entry of the same shape from elsewhere (a stored profile) is parsed as well', () => {
    const stack = 'Error: x\n    at f (/app/a.js:3:7)\n    at g (/app/b.js:9:1)';
    const frames = framesOf({ class: 'Error', message: 'x', status: 500, stack });
    expect(frames.map((f) => [f.function, f.file, f.line])).toEqual([['f', '/app/a.js', 3], ['g', '/app/b.js', 9]]);
  });
});
