/**
 * State providers and processors per operation (issue 25, point 1), over HTTP on every store
 * (MemoryState, SQLite, PostgreSQL): a processor decorating the store's (mails after persist), a
 * custom operation on a custom `uriTemplate` (`POST /api/books/{id}/publish`), a per-operation
 * provider that sees the operation, the URI variables and the request's user.
 */
import request from 'supertest';
import {
  apiRoutes, defineResource, Delete, Get, GetCollection, Patch, Post, Put, storeProcessor, storeProvider,
  type Processor, type ProcessorContext, type Provider, type ResolvedOperation, type UriVariables,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { authorSchema, bookSchema } from '../../../src/demo/resources';
import type { DemoStore } from '../../../src/demo/resources';
import { describeOnEveryStore, type OpenedDemoStore } from '../http/demoOnEveryStore';

const JSON_TYPE = 'application/json';

/** What the mailing processor sent, and what its processors and providers were given. */
interface Seen {
  mails: string[];
  processed: Array<{ operation: string; uriVariables: UriVariables; previousId?: number | string; data: object }>;
  provided: Array<{ operation: string; uriVariables: UriVariables; user: string | null; path: string }>;
}

function apiOn(store: DemoStore, seen: Seen): Kernel {
  const persist = storeProcessor(store.processor);
  const books = storeProvider(store.provider);
  // API Platform's decoration: the store's processor runs first, the mail only once it persisted
  const mailing: Processor = {
    async process(data, operation, uriVariables, context: ProcessorContext) {
      seen.processed.push({ operation: operation.name, uriVariables, previousId: context.previousData?.id, data });
      const book = await persist.process(data, operation, uriVariables, context);
      if (operation.kind === 'Post' && book !== null) seen.mails.push(`New book #${book.id}: ${String(data.title)}`);
      return book;
    },
  };
  const publish: Processor = {
    process: (data, operation: ResolvedOperation, uriVariables, context) =>
      persist.process({ ...data, publishedAt: '2026-11-27' }, operation, uriVariables, context),
  };
  const watched: Provider = {
    provide(operation, uriVariables, context) {
      seen.provided.push({
        operation: operation.name, uriVariables, user: context.user?.identifier ?? null, path: context.request.path,
      });
      return books.provide(operation, uriVariables, context);
    },
  };
  const author = defineResource({
    shortName: 'Author', schema: authorSchema, provider: store.provider, operations: [Get()],
  });
  const book = defineResource({
    shortName: 'Book',
    schema: bookSchema,
    provider: store.provider,
    processor: mailing,
    operations: [
      GetCollection(), Get({ provider: watched }), Post(), Put(), Patch(), Delete(),
      Post({ name: 'book_publish', uriTemplate: '/books/{id}/publish', processor: publish, deserialize: false, status: 200 }),
    ],
  });
  return createKernel({ routes: apiRoutes({ resources: [book, author] }), debug: false });
}

describeOnEveryStore('providers and processors per operation', (open) => {
  let opened: OpenedDemoStore;
  let kernel: Kernel;
  let seen: Seen;
  beforeEach(async () => {
    opened = await open();
    seen = { mails: [], processed: [], provided: [] };
    kernel = apiOn(opened.store, seen);
  });
  afterEach(() => opened.close());

  const post = (body: object) => request(kernel).post('/api/books').set('Content-Type', JSON_TYPE)
    .set('Accept', JSON_TYPE).send(JSON.stringify(body));

  describe('a processor that decorates the store\'s', () => {
    test('mails after the store persisted the book: 201, the book stored, one mail naming its id', async () => {
      const res = await post({ title: 'Ubik' });
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`/api/books/${res.body.id}`);
      expect(seen.mails).toEqual([`New book #${res.body.id}: Ubik`]);
      const stored = await request(kernel).get(`/api/books/${res.body.id}`).set('Accept', JSON_TYPE);
      expect(stored.body).toMatchObject({ title: 'Ubik' });
    });

    test('sends nothing when the store refuses the write (a relation to no author: 400)', async () => {
      const res = await post({ title: 'Ubik', author: '/api/authors/999' });
      expect([res.status, res.body.detail]).toEqual([400, 'Item not found for "/api/authors/999".']);
      expect(seen.mails).toEqual([]);
    });

    test('receives the data, the operation, the URI variables and the item read (previous_data) on a PATCH', async () => {
      const res = await request(kernel).patch('/api/books/2').set('Content-Type', 'application/merge-patch+json')
        .set('Accept', JSON_TYPE).send(JSON.stringify({ price: 12 }));
      expect(res.status).toBe(200);
      expect(seen.processed).toEqual([{
        operation: 'book_patch', uriVariables: { id: 2 }, previousId: 2,
        data: expect.objectContaining({ title: 'Hyperion', price: 12 }) as object,
      }]);
      expect(seen.mails).toEqual([]);
    });

    test('a stale If-Match is a 412 before the processor runs', async () => {
      const res = await request(kernel).delete('/api/books/3').set('If-Match', '"3-99"');
      expect(res.status).toBe(412);
      expect(seen.processed).toEqual([]);
    });

    test('DELETE: the processor gets the stored properties and the item; 204, and the book is gone', async () => {
      const res = await request(kernel).delete('/api/books/3');
      expect(res.status).toBe(204);
      expect(seen.processed).toEqual([{
        operation: 'book_delete', uriVariables: { id: 3 }, previousId: 3,
        data: expect.objectContaining({ title: 'Solaris' }) as object,
      }]);
      expect((await request(kernel).get('/api/books/3').set('Accept', JSON_TYPE)).status).toBe(404);
    });
  });

  describe('a custom operation on a custom uriTemplate (POST /api/books/{id}/publish)', () => {
    test('reads the book, writes it through its own processor and answers 200 with it', async () => {
      const before = await request(kernel).get('/api/books/2').set('Accept', JSON_TYPE);
      const res = await request(kernel).post('/api/books/2/publish').set('Accept', JSON_TYPE);
      expect([res.status, res.body.publishedAt, res.body.title]).toEqual([200, '2026-11-27', before.body.title]);
      expect(res.headers.location).toBeUndefined();
      const after = await request(kernel).get('/api/books/2').set('Accept', JSON_TYPE);
      expect(after.body).toEqual({ ...before.body, publishedAt: '2026-11-27' });
      expect(seen.mails).toEqual([]);
    });

    test('answers 404 for a book that does not exist, and an id that cannot be one', async () => {
      for (const id of ['999', 'abc']) {
        const res = await request(kernel).post(`/api/books/${id}/publish`).set('Accept', JSON_TYPE);
        expect([id, res.status]).toEqual([id, 404]);
      }
    });
  });

  describe('a provider of one operation (Get({ provider }))', () => {
    test('receives the operation, the integer id and the request; the other operations keep the store\'s', async () => {
      const res = await request(kernel).get('/api/books/1').set('Accept', JSON_TYPE);
      expect([res.status, res.body.title]).toEqual([200, 'Dune']);
      expect(seen.provided).toEqual([{ operation: 'book_get', uriVariables: { id: 1 }, user: null, path: '/api/books/1' }]);
      await request(kernel).get('/api/books').set('Accept', JSON_TYPE).expect(200);
      expect(seen.provided).toHaveLength(1);
    });
  });
});
