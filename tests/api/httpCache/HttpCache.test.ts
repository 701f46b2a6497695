/**
 * API Platform's HTTP cache headers on the API's responses (issue 25, point 5): `cacheHeaders`
 * API-wide, per resource and per operation, written as Symfony writes `Cache-Control`; the IRIs
 * a cacheable response contains in `Cache-Tags` (or the purger's header); the IRIs a write
 * changed handed to the purger before the answer.
 */
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, defineResource, type Purger, type CacheHeaders } from '../../../src/api';
import { resolveCacheHeaders } from '../../../src/api/httpCache/cacheHeaders';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createKernel } from '../../../src/kernel/createKernel';
import { KernelConfigError } from '../../../src/config/KernelConfigError';
import { libraryResources } from './library';

const JSON_TYPE = 'application/json';

/** A purger that keeps what it was asked (what Varnish would have received). */
class RecordingPurger implements Purger {
  readonly purged: string[][] = [];
  async purge(iris: readonly string[]): Promise<void> { this.purged.push([...iris]); }
  getResponseHeaders(iris: readonly string[]): Record<string, string> { return { xkey: iris.join(' ') }; }
}

interface LibraryOptions { api?: CacheHeaders; book?: CacheHeaders; show?: CacheHeaders; purger?: Purger }

async function library(options: LibraryOptions = {}) {
  const state = new MemoryState();
  const { author, book } = libraryResources(state, options);
  await state.create(author.metadata, { name: 'Ursula' });
  await state.create(book.metadata, { title: 'The Dispossessed', author: 1 });
  await state.create(book.metadata, { title: 'Lathe of Heaven', author: 1 });
  await state.create(book.metadata, { title: 'Anonymous', author: null });
  return createKernel({
    routes: apiRoutes({
      resources: [book, author],
      ...(options.api !== undefined ? { cacheHeaders: options.api } : {}),
      ...(options.purger !== undefined ? { purger: options.purger } : {}),
    }),
    debug: false,
  });
}

describe('resolveCacheHeaders(operation, api)', () => {
  it.each<[string, string, CacheHeaders]>([
    ['nothing configured (API Platform 3.4\'s defaults)', 'no-cache, private', {}],
    ['features/http_cache/headers.feature\'s configuration', 'max-age=60, public, s-maxage=3600', { max_age: 60, shared_max_age: 3600, public: true }],
    ['max_age alone (Symfony adds private)', 'max-age=60, private', { max_age: 60 }],
    ['shared_max_age alone (Symfony\'s setSharedMaxAge makes it public)', 'public, s-maxage=600', { shared_max_age: 600 }],
    ['public false drops s-maxage', 'max-age=5, private', { max_age: 5, shared_max_age: 600, public: false }],
    ['the RFC 5861 extensions', 'max-age=0, public, stale-if-error=86400, stale-while-revalidate=30', { max_age: 0, public: true, stale_while_revalidate: 30, stale_if_error: 86400 }],
  ])('%s: Cache-Control: %s', (_name, expected, headers) => {
    expect(resolveCacheHeaders(headers, {}).cacheControl).toBe(expected);
  });

  it('takes each key of the operation over the API\'s, the API\'s over the default', () => {
    const api: CacheHeaders = { max_age: 60, public: true, vary: ['Accept', 'Cookie'] };
    expect(resolveCacheHeaders({ shared_max_age: 120 }, api)).toEqual({
      cacheControl: 'max-age=60, public, s-maxage=120', vary: ['Accept', 'Cookie'],
    });
    expect(resolveCacheHeaders(undefined, {}).vary).toEqual(['Accept']);
  });
});

describe('cacheHeaders options', () => {
  const state = new MemoryState();
  const declare = (cacheHeaders: unknown) => () => defineResource({
    shortName: 'Book', schema: z.object({ title: z.string() }), provider: state, processor: state,
    cacheHeaders: cacheHeaders as CacheHeaders,
  });
  it('are checked when declared, naming the option', () => {
    expect(declare({ max_age: -1 })).toThrow(KernelConfigError);
    expect(declare({ max_age: -1 })).toThrow(/resources\.Book\.cacheHeaders\.max_age/);
    expect(declare({ maxAge: 60 })).toThrow(/did you mean "max_age"/);
    expect(declare({ vary: ['Accept Language'] })).toThrow(/cacheHeaders\.vary\[0\].*header name/);
    expect(() => apiRoutes({ resources: [], cacheHeaders: { public: 'yes' as unknown as boolean } }))
      .toThrow(/api\.cacheHeaders\.public/);
  });
});

describe('the headers of GET responses', () => {
  it('are API Platform\'s defaults when nothing is configured: no-cache, private; Vary: Accept; no Cache-Tags', async () => {
    const kernel = await library();
    for (const path of ['/api/books', '/api/books/1', '/api', '/api/docs.jsonld']) {
      const res = await request(kernel).get(path).set('Accept', JSON_TYPE);
      expect([path, res.status, res.headers['cache-control'], res.headers['cache-tags']])
        .toEqual([path, 200, 'no-cache, private', undefined]);
      expect(res.headers.vary).toMatch(/\bAccept\b/);
    }
  });

  it('tag a cacheable collection with its items, their relations, then the collection', async () => {
    const kernel = await library({ api: { shared_max_age: 3600 } });
    const res = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    expect(res.headers['cache-tags']).toBe('/api/books/1,/api/authors/1,/api/books/2,/api/books/3,/api/books');
    const item = await request(kernel).get('/api/books/3').set('Accept', JSON_TYPE);
    expect(item.headers['cache-tags']).toBe('/api/books/3');
  });

  it('follow the resource\'s cacheHeaders over the API\'s, and an operation\'s over the resource\'s', async () => {
    const kernel = await library({
      api: { max_age: 10, vary: ['Accept', 'Cookie'] }, book: { max_age: 60, public: true }, show: { shared_max_age: 600 },
    });
    const list = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
    expect(list.headers['cache-control']).toBe('max-age=60, public');
    expect(list.headers.vary).toBe('Accept, Cookie');
    const show = await request(kernel).get('/api/books/1').set('Accept', JSON_TYPE);
    expect(show.headers['cache-control']).toBe('max-age=10, public, s-maxage=600');
    const authors = await request(kernel).get('/api/authors').set('Accept', JSON_TYPE);
    expect(authors.headers['cache-control']).toBe('max-age=10, private');
    expect(authors.headers['cache-tags']).toBeUndefined(); // private: no shared cache keeps it
  });

  it('come with a 304 too; errors and writes keep their own', async () => {
    const kernel = await library({ api: { shared_max_age: 3600 } });
    const revalidated = await request(kernel).get('/api/books/1').set('If-None-Match', '"1-1"');
    expect([revalidated.status, revalidated.headers['cache-control'], revalidated.headers['cache-tags']])
      .toEqual([304, 'public, s-maxage=3600', '/api/books/1,/api/authors/1']);
    const missing = await request(kernel).get('/api/books/99').set('Accept', JSON_TYPE);
    expect([missing.status, missing.headers['cache-control'], missing.headers['cache-tags']])
      .toEqual([404, 'no-cache, private', undefined]);
    const created = await request(kernel).post('/api/books').set('Content-Type', JSON_TYPE)
      .send(JSON.stringify({ title: 'New', author: null }));
    expect([created.status, created.headers['cache-control'], created.headers['cache-tags']]).toEqual([201, undefined, undefined]);
  });
});

describe('with a purger', () => {
  it('tags with the purger\'s header instead of Cache-Tags', async () => {
    const kernel = await library({ api: { shared_max_age: 3600 }, purger: new RecordingPurger() });
    const res = await request(kernel).get('/api/books/1').set('Accept', JSON_TYPE);
    expect([res.headers.xkey, res.headers['cache-tags']]).toEqual(['/api/books/1 /api/authors/1', undefined]);
  });

  it('purges what each write changed: the collection, the item, the relations before and after', async () => {
    const purger = new RecordingPurger();
    const kernel = await library({ purger });
    await request(kernel).post('/api/books').set('Content-Type', JSON_TYPE)
      .send(JSON.stringify({ title: 'New', author: '/api/authors/1' })).expect(201);
    await request(kernel).patch('/api/books/3').set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ author: '/api/authors/1' })).expect(200);
    await request(kernel).delete('/api/books/2').expect(204);
    await request(kernel).patch('/api/books/99').set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ title: 'x' })).expect(404);
    expect(purger.purged).toEqual([
      ['/api/books', '/api/authors/1'],
      ['/api/books', '/api/books/3', '/api/authors/1'],
      ['/api/books', '/api/books/2', '/api/authors/1'],
    ]);
  });

  it('answers the write when the purge fails, and logs it', async () => {
    const failing: Purger = {
      purge: () => Promise.reject(new Error('varnish is down')),
      getResponseHeaders: () => ({}),
    };
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const kernel = await library({ purger: failing });
      const res = await request(kernel).patch('/api/books/1').set('Content-Type', 'application/merge-patch+json')
        .set('Accept', JSON_TYPE).send(JSON.stringify({ title: 'Kept' }));
      expect([res.status, res.body.title]).toEqual([200, 'Kept']);
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        'http cache: purge of /api/books /api/books/1 /api/authors/1 failed: varnish is down',
      ]);
    } finally {
      warn.mockRestore();
    }
  });
});
