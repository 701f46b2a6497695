/**
 * Turning pagination off and on (issue 25, API Platform's `pagination_client_enabled` with the
 * `pagination` query parameter, `paginationEnabled` and the other `pagination*` attributes of an
 * operation; `State/Pagination/Pagination::isEnabled`, `features/main/pagination.feature`), over
 * HTTP on every store (MemoryState, SQLite, PostgreSQL).
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, describeApi, GetCollection, MemoryState, Post, readOnly, SearchFilter,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const LD = 'application/ld+json';

function resources(provider: StateProvider, processor: StateProcessor) {
  const schema = z.object({ id: readOnly(z.int()), title: z.string() });
  const book = defineResource({
    shortName: 'Book', schema, provider, processor,
    filters: [SearchFilter({ title: 'partial' })],
    pagination: { clientEnabled: true, itemsPerPage: 10 },
    operations: [GetCollection(), Post()],
  });
  const strictBook = defineResource({
    shortName: 'StrictBook', schema, provider, processor, routePrefix: '/api/strict_books',
    pagination: { clientEnabled: true, itemsPerPage: 10 },
    operations: [GetCollection({ strictQueryParameterValidation: true })],
  });
  const note = defineResource({
    shortName: 'Note', schema, provider, processor, routePrefix: '/api/notes',
    operations: [GetCollection({ paginationEnabled: false })],
  });
  const memo = defineResource({
    shortName: 'Memo', schema, provider, processor, routePrefix: '/api/memos',
    pagination: { enabled: false, clientEnabled: true },
    operations: [GetCollection({ paginationItemsPerPage: 5, paginationMaximumItemsPerPage: 7 })],
  });
  const plain = defineResource({
    shortName: 'Plain', schema, provider, processor, routePrefix: '/api/plains',
    pagination: { itemsPerPage: 10 }, operations: [GetCollection()],
  });
  return [book, strictBook, note, memo, plain];
}

/** The processor of the store the last `resources` call declared on (to seed every resource). */
let seedWith: StateProcessor;


describeOnEveryStore('client pagination', (provider, processor) => {
  seedWith = processor;
  return resources(provider, processor);
}, (open, store) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
    for (const r of opened.resources) {
      for (let i = 1; i <= 40; i++) await seedWith.create(r.metadata, { title: `Book ${i}` });
    }
  });
  afterEach(() => opened.close());

  const get = async (url: string, status = 200) => {
    const res = await request(kernel).get(url).set('Accept', LD);
    expect({ url, status: res.status }).toEqual({ url, status });
    return res.body as Record<string, unknown> & { 'hydra:member': unknown[] };
  };

  test(`pagination=false gives every item, the count and no view (${store})`, async () => {
    const paged = await get('/api/books');
    expect(paged['hydra:member']).toHaveLength(10);
    expect(paged['hydra:view']).toMatchObject({ 'hydra:next': '/api/books?page=2', 'hydra:last': '/api/books?page=4' });
    const all = await get('/api/books?pagination=false');
    expect(all['hydra:member']).toHaveLength(40);
    expect(all['hydra:totalItems']).toBe(40);
    expect(all['hydra:view']).toBeUndefined();
    for (const off of ['0', 'FALSE', 'no', 'maybe']) { // PHP's FILTER_VALIDATE_BOOLEAN: anything but 1/true/on/yes
      expect((await get(`/api/books?pagination=${off}`))['hydra:member']).toHaveLength(40);
    }
    expect((await get('/api/books?pagination=on'))['hydra:member']).toHaveLength(10);
    expect((await get('/api/books?pagination=false&page=3'))['hydra:member']).toHaveLength(40);
  });

  test('filtered without pagination: a view with its @id only, no page links', async () => {
    const body = await get('/api/books?pagination=false&title=Book%201');
    expect(body['hydra:member']).toHaveLength(11); // Book 1, Book 10 … Book 19
    expect(body['hydra:view']).toEqual({
      '@id': '/api/books?pagination=false&title=Book%201', '@type': 'hydra:PartialCollectionView',
    });
  });

  test('plain JSON without pagination: no Link header of pages', async () => {
    const paged = await request(kernel).get('/api/books').set('Accept', 'application/json');
    expect(paged.headers.link).toContain('rel="next"');
    const all = await request(kernel).get('/api/books?pagination=false').set('Accept', 'application/json');
    expect(all.body).toHaveLength(40);
    expect(all.headers.link ?? '').not.toContain('rel="next"');
  });

  test('strict: a value other than true, false, 1 or 0 is a 400 naming the parameter', async () => {
    expect((await get('/api/strict_books?pagination=0'))['hydra:member']).toHaveLength(40);
    const res = await request(kernel).get('/api/strict_books?pagination=maybe').set('Accept', LD);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/"maybe".*"pagination"/);
    const twice = await request(kernel).get('/api/strict_books?pagination=0&pagination=1').set('Accept', LD);
    expect(twice.status).toBe(400);
  });

  test('without clientEnabled the parameter is unknown, so ignored (not strict)', async () => {
    expect((await get('/api/plains?pagination=false'))['hydra:member']).toHaveLength(10);
  });

  test('per operation: paginationEnabled false gives every item; paginationItemsPerPage and the maximum', async () => {
    const notes = await get('/api/notes');
    expect(notes['hydra:member']).toHaveLength(40);
    expect(notes['hydra:view']).toBeUndefined();
    const memos = await get('/api/memos');
    expect(memos['hydra:member']).toHaveLength(40); // the resource's pagination is off
    const paged = await get('/api/memos?pagination=true&itemsPerPage=50');
    expect(paged['hydra:member']).toHaveLength(7);
    expect((await get('/api/memos?pagination=1'))['hydra:member']).toHaveLength(5);
  });
});

describe('client pagination in the documentation and the options', () => {
  test('the collection documents `pagination` when clients may toggle it, and `page` only when it may be on', () => {
    const state = new MemoryState();
    const api = describeApi(resources(state, state));
    const names = (shortName: string) => api.resources.find((r) => r.shortName === shortName)!
      .operations[0].parameters.map((p) => p.name);
    expect(names('Book')).toEqual(['pagination', 'page', 'itemsPerPage', 'partial', 'title', 'title[]']);
    expect(names('Note')).toEqual([]);
    expect(names('Plain')).toEqual(['page', 'itemsPerPage', 'partial']);
  });

  test('a pagination option on an operation that is no GetCollection stops the start-up', () => {
    const state = new MemoryState();
    expect(() => defineResource({
      shortName: 'Book', schema: z.object({ title: z.string() }), provider: state, processor: state,
      operations: [Post({ paginationItemsPerPage: 5 })],
    })).toThrow(/"resources\.Book\.operations\[0\]\.paginationItemsPerPage": only GetCollection paginates/);
    expect(() => defineResource({
      shortName: 'Book', schema: z.object({ title: z.string() }), provider: state, processor: state,
      operations: [GetCollection({ paginationItemsPerPage: 500 })],
    })).toThrow(/paginationItemsPerPage": expected at most maximumItemsPerPage \(100\)/);
  });
});
