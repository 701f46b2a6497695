import net from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import request from 'supertest';
import { createKernel } from '../../../src/kernel/createKernel';
import { Route } from '../../../src/routing/Route';
import { RouteCollection } from '../../../src/routing/RouteCollection';
import { bodyParsing } from '../../../src/http/body/bodyParsing';
import { scaled } from '../../helpers/timeScale';

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
    // one listening server for every run (supertest would start and stop one per request)
    const server = k.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      await fc.assert(fc.asyncProperty(fc.oneof(fc.string(), fc.json(), fc.string({ unit: 'binary' })), async (body) => {
        const res = await request(server).post('/echo').set('Content-Type', 'application/json').send(body);
        expect([200, 400]).toContain(res.status);
      }), { numRuns: 100 });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('a body over the limit', () => {
  test('announced by Content-Length (50 MB) is a 413 with Connection: close at once, the body unread', async () => {
    const server = kernel().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    try {
      const started = Date.now();
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`POST /echo HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n{"a":`);
        });
        let data = '';
        socket.on('data', (d) => { data += d.toString(); });
        socket.on('close', () => resolve(data));
        socket.on('error', () => resolve(data));
        setTimeout(() => socket.destroy(), scaled(3000)).unref();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(Date.now() - started).toBeLessThan(scaled(2000));
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test('new limits are checked at construction', () => {
    expect(() => bodyParsing({ limit: '10 parsecs' })).toThrow('Invalid option "limit": expected a number of bytes or a size such as "100kb" or "1mb" (got "10 parsecs").');
  });
});
