/**
 * Issue 24, point 3 (the `Link` to the Hydra documentation on every API response, which
 * `@api-platform/api-doc-parser` starts from) and issue 27, point 7 (every response header
 * bounded: 800 × `title[]=a` made a 16 KB `Link` that Node's own client refused with
 * HPE_HEADER_OVERFLOW).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';

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
