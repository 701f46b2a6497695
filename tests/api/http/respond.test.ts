/**
 * How API responses are written (`sendJsonText`): HEAD answers GET's headers without a body, the
 * collection's Hydra search template follows the base URL the kernel is reached under, and an
 * application that turns Express's ETags back on gets them (and their 304) on API responses.
 * The demo kernel (debug off, in-memory store), over real HTTP.
 */
import express from 'express';
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';

const JSONLD = 'application/ld+json';
let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: false }); });
afterEach(() => kernel.close());

describe('HEAD on an API route', () => {
  it('answers the headers of GET (length, type, ETag, Vary) and no body', async () => {
    const get = await request(kernel).get('/api/books/1').set('Accept', JSONLD).expect(200);
    const head = await request(kernel).head('/api/books/1').set('Accept', JSONLD).expect(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers.vary).toMatch(/\bAccept\b/);
  });

  it('answers a collection\'s headers without its body', async () => {
    const get = await request(kernel).get('/api/books').expect(200);
    const head = await request(kernel).head('/api/books').expect(200);
    expect(head.text ?? '').toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });
});

describe('the hydra:search template of a collection', () => {
  it('names the collection path under each base URL the same kernel is reached under', async () => {
    const app = express();
    app.use('/v2', kernel);
    app.use(kernel);
    const template = async (url: string): Promise<string> =>
      ((await request(app).get(url).set('Accept', JSONLD).expect(200)).body as Record<string, { 'hydra:template': string }>)[
        'hydra:search']['hydra:template'];
    for (let round = 0; round < 2; round++) {
      expect(await template('/v2/api/books')).toMatch(/^\/v2\/api\/books\{\?title,/);
      expect(await template('/api/books?page=1')).toMatch(/^\/api\/books\{\?title,/);
    }
  });

  it('comes after the view, as the last member of the page', async () => {
    // a paginated request: a collection has a hydra:view only when paginated or filtered (issue 24)
    const res = await request(kernel).get('/api/books?itemsPerPage=1').set('Accept', JSONLD).expect(200);
    expect(Object.keys(res.body as object)).toEqual([
      '@context', '@id', '@type', 'hydra:totalItems', 'hydra:member', 'hydra:view', 'hydra:search',
    ]);
  });
});

describe('Express ETags turned back on by the application', () => {
  it('gives a collection a weak ETag, and its If-None-Match a 304', async () => {
    kernel.set('etag', 'weak');
    const first = await request(kernel).get('/api/books').set('Accept', JSONLD).expect(200);
    expect(first.headers.etag).toMatch(/^W\//);
    await request(kernel).get('/api/books').set('Accept', JSONLD).set('If-None-Match', String(first.headers.etag))
      .expect(304);
  });
});
