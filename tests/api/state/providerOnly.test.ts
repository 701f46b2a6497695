/**
 * A resource with no store at all (issue 25, point 1): a read-only "top books" collection that a
 * provider computes from an array. Served and paged by the API, listed by the entrypoint, the
 * Hydra documentation and the OpenAPI document with only its operations.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, createOpenApiDocument, defineResource, describeApi, Get, GetCollection, Post, readOnly,
  type ProviderFunction, type Resource,
} from '../../../src/api';
import { createKernel } from '../../../src/kernel/createKernel';

const TOP = [
  { title: 'Dune', score: 9.5 }, { title: 'Hyperion', score: 9.1 }, { title: 'Solaris', score: 8.7 },
];
const calls: Parameters<ProviderFunction>[] = [];
// one function for both operations: the collection, or the item of `uriVariables.id`
const topBooks: ProviderFunction = (operation, uriVariables, context) => {
  calls.push([operation, uriVariables, context]);
  const all = TOP.map((data, i) => ({ id: i + 1, version: 1, data }));
  return operation.kind === 'GetCollection' ? all : (all.find((b) => b.id === uriVariables.id) ?? null);
};

const topBook: Resource = defineResource({
  shortName: 'TopBook',
  schema: z.object({ id: readOnly(z.int()), title: z.string(), score: z.number() }),
  provider: topBooks,
  operations: [GetCollection(), Get()],
  pagination: { itemsPerPage: 2 },
});
const kernel = createKernel({ routes: apiRoutes({ resources: [topBook] }), debug: false });

beforeEach(() => { calls.length = 0; });

describe('a resource with a provider and no store', () => {
  test('GET /api/top_books: the provider\'s array, paged by the API (2 per page, 3 in all)', async () => {
    const res = await request(kernel).get('/api/top_books').set('Accept', 'application/ld+json').expect(200);
    expect(res.body.member ?? res.body['hydra:member']).toEqual([
      expect.objectContaining({ '@id': '/api/top_books/1', title: 'Dune', score: 9.5 }),
      expect.objectContaining({ '@id': '/api/top_books/2', title: 'Hyperion' }),
    ]);
    expect(res.body.totalItems ?? res.body['hydra:totalItems']).toBe(3);
    const page2 = await request(kernel).get('/api/top_books?page=2').set('Accept', 'application/json').expect(200);
    expect(page2.body).toEqual([{ id: 3, title: 'Solaris', score: 8.7 }]);
    const [operation, uriVariables, context] = calls[0];
    expect([operation.name, uriVariables, context.query?.itemsPerPage, context.request.path])
      .toEqual(['top_book_get_collection', {}, 2, '/api/top_books']);
  });

  test('GET /api/top_books/{id}: the item the provider returns, 404 when it returns null', async () => {
    const res = await request(kernel).get('/api/top_books/2').set('Accept', 'application/json').expect(200);
    expect(res.body).toEqual({ id: 2, title: 'Hyperion', score: 9.1 });
    expect(calls[0][1]).toEqual({ id: 2 });
    await request(kernel).get('/api/top_books/9').set('Accept', 'application/json').expect(404);
  });

  test('it has no write: POST and DELETE are 405s', async () => {
    await request(kernel).post('/api/top_books').set('Content-Type', 'application/json').send('{}').expect(405);
    await request(kernel).delete('/api/top_books/1').expect(405);
  });

  test('the Hydra documentation lists its class with only its Get, and the collection with only its GetCollection', async () => {
    const res = await request(kernel).get('/api/docs.jsonld').set('Accept', 'application/ld+json').expect(200);
    const text = JSON.stringify(res.body);
    const classes = (res.body['hydra:supportedClass'] ?? res.body.supportedClass) as Array<Record<string, unknown>>;
    const cls = classes.find((c) => c['hydra:title'] === 'TopBook' || c.title === 'TopBook')!;
    const methods = (cls['hydra:supportedOperation'] ?? cls.supportedOperation) as Array<Record<string, unknown>>;
    expect(methods.map((m) => m['hydra:method'] ?? m.method)).toEqual(['GET']);
    expect(text).not.toMatch(/"(hydra:)?method":"(POST|PUT|PATCH|DELETE)"/);
  });

  test('the OpenAPI document has its two paths with only GET', () => {
    const doc = createOpenApiDocument(describeApi([topBook]));
    // relative to the document's server, the API's entrypoint
    expect(doc.servers).toEqual([{ url: '/api' }]);
    expect(Object.keys(doc.paths).sort()).toEqual(['/top_books', '/top_books/{id}']);
    for (const ops of Object.values(doc.paths)) expect(Object.keys(ops as object).filter((k) => k !== 'parameters')).toEqual(['get']);
  });
});

describe('defineResource without a store', () => {
  test('an operation that reads with no provider anywhere is refused at declaration, naming the operation', () => {
    expect(() => defineResource({
      shortName: 'Orphan', schema: z.object({ title: z.string() }), operations: [GetCollection()],
    })).toThrow(/resources\.Orphan\.operations\[0\]\.provider/);
  });

  test('a write operation with no processor anywhere is refused at declaration', () => {
    expect(() => defineResource({
      shortName: 'Orphan', schema: z.object({ title: z.string() }), provider: topBooks, operations: [Get(), Post()],
    })).toThrow(/resources\.Orphan\.operations\[1\]\.processor/);
  });
});
