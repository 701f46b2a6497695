import fc from 'fast-check';
import request from 'supertest';
import { createKernel } from '../../../src/kernel/createKernel';
import { Route } from '../../../src/routing/Route';
import { RouteCollection } from '../../../src/routing/RouteCollection';
import { bodyParsing } from '../../../src/http/body/bodyParsing';

function kernel() {
  const routes = new RouteCollection();
  const echo = new Route('/echo', { methods: ['POST'], controller: (req, res) => { res.json({ body: req.body ?? null }); } });
  routes.add('echo', echo);
  routes.add('json_only', new Route('/json-only', { methods: ['POST'], options: { json: true }, controller: (req, res) => { res.json({ body: req.body ?? null }); } }));
  return createKernel({ routes, debug: true, routeHandlers: [bodyParsing({ limit: '1kb' })] });
}

describe('bodyParsing(options)', () => {
  const k = kernel();

  test('reads application/json and application/*+json bodies into req.body', async () => {
    expect((await request(k).post('/echo').send({ a: 1 })).body).toEqual({ body: { a: 1 } });
    const ld = await request(k).post('/echo').set('Content-Type', 'application/ld+json').send('{"@id":"/books/1"}');
    expect(ld.body).toEqual({ body: { '@id': '/books/1' } });
  });

  test('a malformed JSON body is a 400 "Malformed JSON body: <reason>", as HTML or problem+json', async () => {
    const json = await request(k).post('/echo').set('Content-Type', 'application/json').set('Accept', 'application/json').send('{"a":');
    expect(json.status).toBe(400);
    expect(json.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(json.body.detail).toMatch(/^Malformed JSON body: ./);
    const html = await request(k).post('/echo').set('Content-Type', 'application/json').send('nope');
    expect(html.status).toBe(400);
    expect(decodeURIComponent(html.headers['x-debug-exception'])).toMatch(/^Malformed JSON body: /);
  });

  test('a body over the limit is a 413', async () => {
    const res = await request(k).post('/echo').set('Content-Type', 'application/json').send(JSON.stringify({ a: 'x'.repeat(2000) }));
    expect(res.status).toBe(413);
  });

  test('other media types are left unread, except on json: true routes (415)', async () => {
    expect((await request(k).post('/echo').type('text/plain').send('hello')).body).toEqual({ body: null });
    const res = await request(k).post('/json-only').type('text/plain').set('Accept', 'application/json').send('hello');
    expect(res.status).toBe(415);
    expect(res.body.detail).toBe('Unsupported Media Type: expected application/json, got "text/plain".');
    expect((await request(k).post('/json-only')).status).toBe(200);
  });

  test('property: no body, however malformed, is answered with a 5xx', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })), async (body) => {
      const res = await request(k).post('/echo').set('Content-Type', 'application/json').send(body);
      expect([200, 400]).toContain(res.status);
    }), { numRuns: 100 });
  });
});
