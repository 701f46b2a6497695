/**
 * Issue 24, point 2: collections as API Platform 3.4 writes them (`PartialCollectionViewNormalizer`,
 * `IriHelper`, the HAL `CollectionNormalizer`, `features/hal/collection.feature`): `hydra:view`
 * only when paginated or filtered, its links keeping the client's query in PHP's encoding,
 * `itemsPerPage` clamped (0 allowed), unknown and unreadable parameters ignored unless the
 * operation's `strictQueryParameterValidation`, `order[…]` without a value ascending, HAL's
 * `itemsPerPage`, `prev` and empty collections.
 */
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, defineResource, GetCollection, OrderFilter, SearchFilter } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { createKernel } from '../../../src/kernel/createKernel';

const LD = 'application/ld+json';
const HAL = 'application/hal+json';

let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: false }); });
afterEach(async () => { await kernel.close(); });

const get = (url: string, accept = LD) => request(kernel).get(url).set('Accept', accept);

describe('hydra:view', () => {
  test('absent from a one-page collection without query parameters', async () => {
    const res = await get('/api/books');
    expect(res.status).toBe(200);
    expect(res.body['hydra:totalItems']).toBe(3);
    expect(res.body['hydra:view']).toBeUndefined();
  });

  test('present when filtered: its @id keeps the query in API Platform\'s encoding, without a page', async () => {
    const res = await get('/api/books?title=dune&order[title]=desc');
    expect(res.body['hydra:view']).toEqual({
      '@id': '/api/books?title=dune&order%5Btitle%5D=desc', '@type': 'hydra:PartialCollectionView',
    });
  });

  test('paginated: the links keep every parameter as sent (unknown ones too), page last', async () => {
    const res = await get('/api/books?itemsPerPage=1&foo=a+b&title[]=e&title[]=z&page=2');
    expect(res.status).toBe(200);
    const q = 'itemsPerPage=1&foo=a%20b&title%5B%5D=e&title%5B%5D=z';
    expect(res.body['hydra:view']).toEqual({
      '@id': `/api/books?${q}&page=2`,
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': `/api/books?${q}&page=1`,
      'hydra:last': `/api/books?${q}&page=2`,
      'hydra:previous': `/api/books?${q}&page=1`,
    });
  });
});

describe('query parameters', () => {
  test('unknown and unreadable parameters are ignored, as API Platform\'s filters do (Admin\'s order[id] included)', async () => {
    const all = await get('/api/books?order[id]=ASC&nope=1&price[gt]=cheap&featured=maybe&a[b][c]=1', 'application/json');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
  });

  test('itemsPerPage above the maximum is clamped; 0 gives the count alone', async () => {
    const many = await get('/api/books?itemsPerPage=1000');
    expect(many.status).toBe(200);
    expect(many.body['hydra:member']).toHaveLength(3);
    const none = await get('/api/books?itemsPerPage=0');
    expect(none.status).toBe(200);
    expect(none.body['hydra:member']).toEqual([]);
    expect(none.body['hydra:totalItems']).toBe(3);
    expect((await get('/api/books?itemsPerPage=-1')).status).toBe(400);
    expect((await get('/api/books?itemsPerPage=0&page=2')).status).toBe(400);
  });

  test('order[...] without a value sorts ascending (the filter\'s default direction)', async () => {
    const res = await get('/api/books?order[title]=&order[price]', 'application/json');
    expect(res.status).toBe(200);
    expect(res.body.map((b: { title: string }) => b.title)).toEqual(['Dune', 'Hyperion', 'Solaris']);
    const desc = await get('/api/books?order[price]', 'application/json');
    expect(desc.body.map((b: { price: number }) => b.price)).toEqual([8.99, 9.99, 12.5]);
  });

  test('a page past the last is an empty page (200), as API Platform answers', async () => {
    const res = await get('/api/books?page=9');
    expect(res.status).toBe(200);
    expect(res.body['hydra:member']).toEqual([]);
  });

  test('strictQueryParameterValidation: unknown parameters, bad values and too many items are 400s', async () => {
    const store = new MemoryState();
    const note = defineResource({
      shortName: 'Note', schema: z.object({ text: z.string() }), provider: store, processor: store,
      operations: [GetCollection({ strictQueryParameterValidation: true })],
      filters: [SearchFilter({ text: 'exact' }), OrderFilter(['text'])],
    });
    const strict = createKernel({ routes: apiRoutes({ resources: [note] }), debug: false });
    for (const q of ['nope=1', 'order[id]=asc', 'order[text]=up', 'itemsPerPage=101', 'text=a&text[x]=b']) {
      const res = await request(strict).get(`/api/notes?${q}`).set('Accept', LD);
      expect([q, res.status]).toEqual([q, 400]);
    }
    expect((await request(strict).get('/api/notes?text=a&order[text]=desc')).status).toBe(200);
  });
});

describe('HAL collections', () => {
  test('itemsPerPage is the page size, prev (not previous), first and last when paginated', async () => {
    const res = await get('/api/books?itemsPerPage=2&page=2', HAL);
    expect(res.body._links).toEqual({
      self: { href: '/api/books?itemsPerPage=2&page=2' },
      first: { href: '/api/books?itemsPerPage=2&page=1' },
      last: { href: '/api/books?itemsPerPage=2&page=2' },
      prev: { href: '/api/books?itemsPerPage=2&page=1' },
      item: [{ href: '/api/books/3' }],
    });
    expect(res.body.totalItems).toBe(3);
    expect(res.body.itemsPerPage).toBe(2);
    expect(res.body._embedded.item).toHaveLength(1);
  });

  test('an empty collection: self, totalItems, itemsPerPage, no _embedded', async () => {
    const res = await get('/api/books?title=nothing-matches', HAL);
    expect(res.body).toEqual({
      _links: { self: { href: '/api/books?title=nothing-matches' } }, totalItems: 0, itemsPerPage: 30,
    });
  });
});
