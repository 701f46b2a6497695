/**
 * Issue 24, point 3 (the `Link` to the Hydra documentation on every API response, which
 * `@api-platform/api-doc-parser` starts from) and issue 27, point 7 (every response header
 * bounded: 800 × `title[]=a` made a 16 KB `Link` that Node's own client refused with
 * HPE_HEADER_OVERFLOW).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, defineResource, MemoryState } from '../../../src/api';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { createKernel } from '../../../src/kernel/createKernel';

const DOCS_REL = 'rel="http://www.w3.org/ns/hydra/core#apiDocumentation"';

let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: false }); });
afterEach(async () => { await kernel.close(); });

describe('the Link to the API documentation', () => {
  test.each([
    ['GET', '/api'], ['GET', '/api/books'], ['GET', '/api/books/1'], ['GET', '/api/books/999'],
    ['GET', '/api/contexts/Book'], ['GET', '/api/docs.jsonld'], ['POST', '/api/books'], ['GET', '/api/nothing'],
  ])('%s %s carries it, once, as an absolute URL', async (method, path) => {
    const res = await request(kernel)[method === 'GET' ? 'get' : 'post'](path).set('Accept', 'application/ld+json');
    const link = String(res.headers.link ?? '');
    expect(link).toMatch(new RegExp(`<http://127\\.0\\.0\\.1:\\d+/api/docs\\.jsonld>; ${DOCS_REL.replace(/[.#]/g, '\\$&')}`));
    expect(link.split(DOCS_REL)).toHaveLength(2);
  });
});

/** The raw response of a GET through Node's own client (its default 16 KB header limit). */
function nodeGet(port: number, path: string, accept: string): Promise<{ status: number; headers: string[] }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers: { accept } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.rawHeaders }));
    }).on('error', reject);
  });
}

describe('response headers stay bounded', () => {
  test('800 × title[]=e: every header under 8 KB for Node\'s client, and the body\'s links intact', async () => {
    const server = kernel.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const query = Array.from({ length: 800 }, () => 'title[]=e').join('&');
      for (const accept of ['application/json', 'application/ld+json', 'application/hal+json']) {
        const res = await nodeGet(port, `/api/books?itemsPerPage=1&${query}`, accept);
        expect(res.status).toBe(200);
        for (let i = 1; i < res.headers.length; i += 2) expect(Buffer.byteLength(res.headers[i])).toBeLessThan(8192);
      }
      const ld = await request(server).get(`/api/books?itemsPerPage=1&${query}`).set('Accept', 'application/ld+json');
      const encoded = Array.from({ length: 800 }, () => 'title%5B%5D=e').join('&');
      expect(ld.body['hydra:view']['hydra:next']).toBe(`/api/books?itemsPerPage=1&${encoded}&page=2`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

const ADMIN = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

describe('the headers of API Platform\'s RespondProcessor', () => {
  test.each([
    ['GET', '/api', 200], ['GET', '/api/books', 200], ['GET', '/api/books/1', 200], ['GET', '/api/books/999', 404],
    ['GET', '/api/contexts/Book', 200], ['GET', '/api/docs.jsonld', 200], ['POST', '/api/books', 401],
    ['GET', '/api/nothing', 404],
  ])('%s %s (%i): X-Content-Type-Options nosniff, X-Frame-Options deny, Vary with Accept', async (method, path, status) => {
    const res = await request(kernel)[method === 'GET' ? 'get' : 'post'](path).set('Accept', 'application/ld+json');
    expect(res.status).toBe(status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('deny');
    expect(String(res.headers.vary).split(/\s*,\s*/)).toContain('Accept');
  });

  test.each([
    ['GET', '/api/books/1', 200], ['PUT', '/api/books/1', 200], ['PATCH', '/api/books/1', 200],
    ['POST', '/api/books', 201], ['DELETE', '/api/books/3', 204],
  ])('%s %s (%i) carries Accept-Patch: application/merge-patch+json', async (method, path, status) => {
    const body = method === 'PATCH' ? { title: 'Changed' } : { title: 'Changed', featured: false };
    const type = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
    const req = request(kernel)[method.toLowerCase() as 'get'](path).set('Accept', 'application/ld+json');
    if (method !== 'GET' && method !== 'DELETE') req.set('Authorization', ADMIN).set('Content-Type', type).send(body);
    if (method === 'DELETE') req.set('Authorization', ADMIN);
    const res = await req;
    expect(res.status).toBe(status);
    expect(res.headers['accept-patch']).toBe('application/merge-patch+json');
  });

  test('a collection carries no Accept-Patch (API Platform sets it on every operation but the collection\'s)', async () => {
    const res = await request(kernel).get('/api/books').set('Accept', 'application/ld+json').expect(200);
    expect(res.headers['accept-patch']).toBeUndefined();
  });

  test.each([['GET'], ['PUT'], ['PATCH']])('%s of an item: Content-Location is the item\'s IRI', async (method) => {
    const req = request(kernel)[method.toLowerCase() as 'get']('/api/books/2').set('Accept', 'application/json');
    if (method !== 'GET') {
      req.set('Authorization', ADMIN).send({ title: 'Changed', featured: false })
        .set('Content-Type', method === 'PATCH' ? 'application/merge-patch+json' : 'application/json');
    }
    const res = await req.expect(200);
    expect(res.headers['content-location']).toBe('/api/books/2');
  });
});

test('the API sets them itself, in a kernel without security headers (securityHeaders: false)', async () => {
  const state = new MemoryState();
  const note = defineResource({ shortName: 'Note', schema: z.object({ text: z.string() }), provider: state, processor: state });
  const bare = createKernel({ routes: apiRoutes({ resources: [note] }), debug: false, environment: 'test', securityHeaders: false });
  try {
    for (const path of ['/api/notes', '/api/notes/1', '/api/nothing']) {
      const res = await request(bare).get(path).set('Accept', 'application/ld+json');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('deny');
      expect(res.headers.vary).toBe('Accept');
    }
  } finally {
    await bare.close();
  }
});

describe('a browser (Accept: text/html) under the API', () => {
  test('an item that exists: the documentation page', async () => {
    const res = await request(kernel).get('/api/books/1').set('Accept', 'text/html').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  test.each([['/api/books/999'], ['/api/authors/999']])('%s, which does not exist: a 404, not the documentation page', async (path) => {
    const res = await request(kernel).get(path).set('Accept', 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8');
    expect(res.status).toBe(404);
  });
});
