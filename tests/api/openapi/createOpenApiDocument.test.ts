/**
 * The OpenAPI 3.1 document generated from resources: valid for a real validator
 * (@readme/openapi-parser), and saying what a client needs: every operation, its parameters
 * (page, itemsPerPage, each filter's), request bodies by media type, responses by status with
 * the format's schema, and the security schemes.
 */
import { validate } from '@readme/openapi-parser';
import { z } from 'zod';
import {
  BooleanFilter, DateFilter, defineResource, Delete, describeApi, ExistsFilter, Get, GetCollection, OrderFilter, Patch,
  Post, Put, RangeFilter, relation, SearchFilter, writeOnly,
} from '../../../src/api';
import { createOpenApiDocument, type OpenApiDocument } from '../../../src/api/openapi/createOpenApiDocument';
import { createSqlState, type SqlStore } from '../../../src/api/sql';

let store: SqlStore;
let document: OpenApiDocument;
let api: ReturnType<typeof describeApi>;

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; schema: Record<string, unknown> }>;
  requestBody?: { content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  security?: unknown[];
};
const op = (path: string, method: string): Operation => document.paths[path][method] as Operation;

beforeAll(() => {
  store = createSqlState({ sqlitePath: ':memory:' });
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({ name: z.string().min(1).max(100), secret: writeOnly(z.string().optional()) }),
    provider: store.provider,
    processor: store.processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: z.int().readonly(),
      title: z.string().min(1).max(255),
      isbn: z.string().regex(/^97[89]\d{10}$/).nullable().optional(),
      publishedAt: z.iso.date().nullable().optional(),
      price: z.number().min(0).nullable().optional(),
      featured: z.boolean().default(false),
      author: relation('Author').nullable().optional(),
    }),
    provider: store.provider,
    processor: store.processor,
    operations: [
      GetCollection({ name: 'book_list' }), Post({ name: 'book_create', security: 'ROLE_USER' }),
      Get({ name: 'book_show' }), Put({ name: 'book_update', security: 'ROLE_USER' }),
      Patch({ name: 'book_update', security: 'ROLE_USER' }),
      // no requirement: the route takes any id, GET's only digits (as the demo's reference routing table)
      Delete({ name: 'book_delete', security: 'ROLE_ADMIN', requirements: {} }),
    ],
    filters: [
      SearchFilter({ title: 'partial', author: 'exact' }), OrderFilter(['title', 'price']), RangeFilter(['price']),
      BooleanFilter(['featured']), DateFilter(['publishedAt']), ExistsFilter(['author']),
    ],
  });
  api = describeApi([book, author]);
  document = createOpenApiDocument(api, { title: 'Library', version: '2.0.0' });
});

afterAll(async () => { await store.close(); });

describe('createOpenApiDocument(describeApi(resources))', () => {
  test('is a valid OpenAPI 3.1 document for @readme/openapi-parser', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Library', version: '2.0.0' });
  });

  test('lists every operation at its route path, PUT and PATCH with distinct operation ids', () => {
    const listed = Object.entries(document.paths)
      .flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(listed.sort()).toEqual([
      'DELETE /authors/{id}', 'DELETE /books/{id}', 'GET /authors', 'GET /authors/{id}',
      'GET /books',
      'GET /books/{id}', 'PATCH /authors/{id}', 'PATCH /books/{id}', 'POST /authors', 'POST /books',
      'PUT /authors/{id}', 'PUT /books/{id}',
    ]);
    expect([op('/books/{id}', 'put').operationId, op('/books/{id}', 'patch').operationId])
      .toEqual(['book_update_put', 'book_update_patch']);
  });

  test('the collection documents the pagination and each filter\'s query parameters', () => {
    const names = op('/books', 'get').parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining([
      'page', 'itemsPerPage', 'partial', 'title', 'title[]', 'author', 'author[]', 'order[title]', 'order[price]',
      'price[gt]', 'price[gte]', 'price[lt]', 'price[lte]', 'price[between]', 'featured',
      'publishedAt[before]', 'publishedAt[strictly_before]', 'publishedAt[after]', 'publishedAt[strictly_after]',
      'exists[author]',
    ]));
    const itemsPerPage = op('/books', 'get').parameters.find((p) => p.name === 'itemsPerPage');
    expect(itemsPerPage?.schema).toEqual({ type: 'integer', minimum: 0, maximum: 100, default: 30 });
  });

  test('bodies: JSON-LD and JSON for POST and PUT, merge-patch only for PATCH', () => {
    const types = ['application/ld+json', 'application/json'];
    expect(Object.keys(op('/books', 'post').requestBody!.content)).toEqual(types);
    expect(Object.keys(op('/books/{id}', 'put').requestBody!.content)).toEqual(types);
    expect(op('/books/{id}', 'patch').requestBody!.content).toEqual({
      'application/merge-patch+json': { schema: { $ref: '#/components/schemas/Book.patch' } },
    });
  });

  test('input and output schemas differ where the schema says readOnly or writeOnly', () => {
    type Shape = { properties: Record<string, unknown>; required?: string[] };
    const schemas = document.components.schemas as Record<string, Shape>;
    expect(Object.keys(schemas.Book.properties)).toContain('id');
    expect(schemas.Book.properties.id).toMatchObject({ readOnly: true });
    expect(Object.keys(schemas['Book.input'].properties)).not.toContain('id');
    expect(schemas['Book.input'].required).toEqual(['title']);
    expect(Object.keys(schemas['Book.jsonhal'].properties)).not.toContain('author');
    expect(schemas['Book.patch'].required).toBeUndefined();
    expect(Object.keys(schemas.Author.properties)).toEqual(['id', 'name']);
    expect(schemas['Author.input'].properties.secret).toMatchObject({ writeOnly: true });
    expect(schemas['Book.jsonld'].properties['@id']).toMatchObject({ type: 'string' });
  });

  test('servers: the API\'s entrypoint, with paths relative to it (a client\'s URL is servers[0] + path)', () => {
    expect(document.servers).toEqual([{ url: '/api' }]);
    const operations = api.resources.flatMap((r) => r.operations);
    for (const o of operations) {
      expect(document.paths[o.path.slice('/api'.length)]).toHaveProperty(o.method.toLowerCase());
    }
  });

  test('servers: `/` with the routes\' full paths when an operation lives outside the entrypoint', () => {
    const doc = createOpenApiDocument({ ...api, entrypoint: '/v2' });
    expect(doc.servers).toEqual([{ url: '/' }]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/books', '/api/books/{id}']));
  });

  test('a nullable property is `type: [T, "null"]` (OpenAPI 3.1), not an anyOf without a type', () => {
    type Shape = { properties: Record<string, Record<string, unknown>> };
    const schemas = document.components.schemas as Record<string, Shape>;
    for (const name of ['Book', 'Book.input', 'Book.patch', 'Book.jsonld']) {
      expect([name, schemas[name].properties.price]).toEqual([name, { type: ['number', 'null'], minimum: 0 }]);
      expect([name, schemas[name].properties.publishedAt]).toMatchObject([name, { type: ['string', 'null'], format: 'date' }]);
      expect([name, schemas[name].properties.author])
        .toEqual([name, { type: ['string', 'null'], format: 'iri-reference', 'x-relation': 'Author' }]);
    }
    // a property with a default is never null on the wire (zod fills it in on every write)
    expect(schemas.Book.properties.featured).toMatchObject({ type: 'boolean' });
    expect(JSON.stringify(document)).not.toContain('{"type":"null"}');
  });

  test('required lists only what every item has: id and the properties a write must carry', () => {
    type Shape = { required?: string[] };
    const schemas = document.components.schemas as Record<string, Shape>;
    expect(schemas.Book.required).toEqual(['id', 'title']);
    expect(schemas['Book.jsonld'].required).toEqual(['@id', '@type', 'id', 'title']);
    expect(schemas['Book.jsonhal'].required).toEqual(['_links', 'id', 'title']);
    expect(schemas.Author.required).toEqual(['id', 'name']);
  });

  test('no default in a request body (a generated client would have to send it); POST and PUT say it', () => {
    type Shape = { properties: Record<string, Record<string, unknown>> };
    const schemas = document.components.schemas as Record<string, Shape>;
    expect(schemas['Book.input'].properties.featured).toEqual({ type: 'boolean', description: 'Defaults to false when left out.' });
    expect(schemas['Book.patch'].properties.featured).toEqual({ type: 'boolean' });
  });

  test('the id has one schema on every operation of a path, the identifier\'s type', () => {
    for (const path of ['/books/{id}', '/authors/{id}']) {
      const ids = Object.keys(document.paths[path])
        .map((m) => op(path, m).parameters.find((p) => p.in === 'path' && p.name === 'id')?.schema);
      expect([path, ids]).toEqual([path, ids.map(() => ({ type: 'integer', minimum: 0 }))]);
    }
  });

  test('responses: each status an operation can answer, errors as problem details, 422 with violations', () => {
    const statuses = (path: string, method: string): string[] => Object.keys(op(path, method).responses);
    expect(statuses('/books', 'get')).toEqual(['200', '400', '401', '406']);
    // GET /api/books/abc: DELETE's route takes it, GET's does not (a 405)
    expect(statuses('/books/{id}', 'get')).toEqual(['200', '304', '401', '404', '405', '406']);
    expect(statuses('/books', 'post')).toEqual(['201', '400', '401', '403', '406', '413', '415', '422']);
    expect(statuses('/books/{id}', 'patch'))
      .toEqual(['200', '400', '401', '403', '404', '405', '406', '412', '413', '415', '422']);
    expect(statuses('/books/{id}', 'delete')).toEqual(['204', '401', '403', '404', '406', '409', '412']);
    const created = op('/books', 'post').responses['201'].content!;
    expect(Object.keys(created)).toEqual(['application/ld+json', 'application/hal+json', 'application/json']);
    expect(op('/books', 'post').responses['422'].content).toEqual({
      // every format's errors are problem+json, JSON-LD's included (API Platform 3.4; issue 24)
      'application/problem+json': { schema: { $ref: '#/components/schemas/ConstraintViolationList' } },
    });
  });

  test('security schemes: HTTP Basic and bearer; secured operations require one, reads are open', () => {
    expect(document.components.securitySchemes).toEqual({
      basicAuth: expect.objectContaining({ type: 'http', scheme: 'basic' }),
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(op('/books', 'post').security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }]);
    expect(op('/books', 'get').security).toBeUndefined();
    expect(document.security).toEqual([{}, { basicAuth: [] }, { bearerAuth: [] }]);
  });
});
