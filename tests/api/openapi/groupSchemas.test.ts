/**
 * The OpenAPI document per serialization group, and JSON:API's schemas (issue 25, API Platform
 * 3.4's `SchemaFactory`, Hydra's and JSON:API's): definition names carry the groups
 * (`Book.jsonld-book.read`, `Book-book.write`), each operation references the schema of its own
 * contexts, embedded relations are `$ref`s to their target's schema under the same groups,
 * properties outside the groups are left out; and what a user notices: the running API's answers
 * (JSON-LD, HAL, JSON, JSON:API; items, collections, embedded relations, a cycle) validate with
 * ajv against the schema the document gives for that operation, status and media type, and the
 * bodies the API accepts validate against the request schema. The Hydra documentation's
 * `hydra:readable`/`hydra:writeable` follow the resource's groups.
 */
import { validate } from '@readme/openapi-parser';
import request from 'supertest';
import { z } from 'zod';
import {
  defineResource, Get, GetCollection, groups, MemoryState, Patch, Post, Put, readOnly, relation, toMany,
} from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { documentChecker, servedDocuments, type Doc, type HydraDoc, type Schema } from './documentChecker';

const LD = 'application/ld+json';
const HAL = 'application/hal+json';
const JSON_TYPE = 'application/json';
const JSONAPI = 'application/vnd.api+json';
const MERGE = 'application/merge-patch+json';

function define(state: MemoryState) {
  const store = { provider: state, processor: state };
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string().min(1), ['book:read', 'author:read', 'book:write']),
      born: groups(z.int().nullable(), ['author:read']),
    }),
    ...store,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read']) }),
    ...store,
  });
  // no property in book:read: a relation to it stays an IRI
  const publisher = defineResource({
    shortName: 'Publisher', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }), ...store,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()),
      title: groups(z.string().min(1), ['book:read', 'book:write']),
      isbn: groups(z.string().nullable(), ['book:write']),
      rating: groups(z.int().nullable(), ['book:read']),
      author: groups(relation('Author').nullable(), ['book:read', 'book:write']),
      tags: groups(toMany('Tag'), ['book:read', 'book:write']),
      publisher: groups(relation('Publisher').nullable(), ['book:read', 'book:write']),
    }),
    normalizationContext: { groups: ['book:read'] },
    denormalizationContext: { groups: ['book:write'] },
    operations: [
      GetCollection(), Get(), Post(), Put(), Patch(),
      Get({ name: 'book_detail', uriTemplate: '/books/{id}/detail', normalizationContext: { groups: ['book:read', 'author:read'] } }),
    ],
    ...store,
  });
  // a relation to itself under its groups: a cycle, written as an IRI where it closes
  const person = defineResource({
    shortName: 'Person',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string().min(1), ['person:read']),
      parent: groups(relation('Person').nullable(), ['person:read']),
    }),
    normalizationContext: { groups: ['person:read'] },
    routePrefix: '/api/people',
    ...store,
  });
  return [author, tag, publisher, book, person];
}

let kernel: Kernel;
let doc: Doc;
let hydra: HydraDoc;

beforeAll(async () => {
  ({ kernel, doc, hydra } = await servedDocuments(define(new MemoryState())));
});
afterAll(() => kernel.close());

const schemas = (): Doc['components']['schemas'] => doc.components.schemas;
const { errorsOf, responseSchema, requestSchema } = documentChecker(() => doc);
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

describe('the document', () => {
  test('is valid OpenAPI 3.1 and names each schema by resource, format and groups, each operation its own', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    const names = Object.keys(schemas());
    expect(names).toEqual(expect.arrayContaining([
      'Book-book.read', 'Book.jsonld-book.read', 'Book.jsonhal-book.read', 'Book.jsonapi-book.read',
      'Book.jsonld-book.read_author.read', 'Book-book.write', 'Book.patch-book.write',
      'Author.jsonld-book.read', 'Author.jsonld-book.read_author.read', 'Tag.jsonld-book.read', 'Author-book.write',
    ]));
    // no operation of Book writes or reads it without groups; Publisher has no property in book:read
    expect(names).not.toContain('Book.jsonld');
    expect(names).not.toContain('Book');
    expect(names).not.toContain('Publisher.jsonld-book.read');
    expect(responseSchema('/books/{id}', 'get', 200, LD)).toEqual(ref('Book.jsonld-book.read'));
    expect(responseSchema('/books/{id}', 'get', 200, JSON_TYPE)).toEqual(ref('Book-book.read'));
    expect(responseSchema('/books/{id}', 'get', 200, HAL)).toEqual(ref('Book.jsonhal-book.read'));
    expect(responseSchema('/books/{id}', 'get', 200, JSONAPI)).toEqual(ref('Book.jsonapi-book.read'));
    expect(responseSchema('/books/{id}/detail', 'get', 200, LD)).toEqual(ref('Book.jsonld-book.read_author.read'));
    expect(responseSchema('/books', 'get', 200, JSON_TYPE)).toEqual({ type: 'array', items: ref('Book-book.read') });
    expect(requestSchema('/books', 'post', JSON_TYPE)).toEqual(ref('Book-book.write'));
    expect(requestSchema('/books', 'post', LD)).toEqual(ref('Book-book.write'));
    expect(requestSchema('/books/{id}', 'patch', MERGE)).toEqual(ref('Book.patch-book.write'));
    expect(responseSchema('/books', 'post', 201, LD)).toEqual(ref('Book.jsonld-book.read'));
  });

  test('leaves out the properties outside the groups and embeds relations as $ref under the same groups', () => {
    const read = schemas()['Book.jsonld-book.read'];
    expect(Object.keys(read.properties!).sort())
      .toEqual(['@context', '@id', '@type', 'author', 'id', 'publisher', 'rating', 'tags', 'title']);
    expect(read.properties!.author.anyOf).toEqual([ref('Author.jsonld-book.read'), { type: 'null' }]);
    expect(read.properties!.tags).toMatchObject({ type: 'array', items: ref('Tag.jsonld-book.read') });
    expect(read.properties!.publisher).toMatchObject({ format: 'iri-reference' });
    expect(Object.keys(schemas()['Author.jsonld-book.read'].properties!).sort()).toEqual(['@context', '@id', '@type', 'id', 'name']);
    expect(schemas()['Author.jsonld-book.read_author.read'].properties).toHaveProperty('born');
    expect(schemas()['Book.jsonld-book.read_author.read'].properties!.author.anyOf)
      .toEqual([ref('Author.jsonld-book.read_author.read'), { type: 'null' }]);
    expect(schemas()['Book-book.read'].properties!.author.anyOf).toEqual([ref('Author-book.read'), { type: 'null' }]);
    expect(schemas()['Book.jsonhal-book.read'].properties!._embedded).toMatchObject({
      properties: { author: ref('Author.jsonhal-book.read'), tags: { type: 'array', items: ref('Tag.jsonhal-book.read') } },
    });
    const write = schemas()['Book-book.write'];
    expect(Object.keys(write.properties!).sort()).toEqual(['author', 'isbn', 'publisher', 'tags', 'title']);
    // Author has a property in book:write: an IRI or a nested document; Tag has none: IRIs
    expect(write.properties!.author.anyOf).toEqual([
      { type: 'string', format: 'iri-reference' }, ref('Author-book.write'), { type: 'null' },
    ]);
    expect(write.properties!.tags).toMatchObject({ type: 'array', items: { type: 'string', format: 'iri-reference' } });
    expect(Object.keys(schemas()['Author-book.write'].properties!)).toEqual(['name']);
    expect(schemas()['Book.jsonld-book.read'].properties!.id).toMatchObject({ readOnly: true });
    // a relation that may close a cycle is its target's document or an IRI
    expect(schemas()['Person-person.read'].properties!.parent.anyOf).toEqual([
      { anyOf: [ref('Person-person.read'), { type: 'string', format: 'iri-reference' }] }, { type: 'null' },
    ]);
  });

  test('JSON:API: a resource object with id, type, attributes and relationships, what the API never sends refused', () => {
    const item = responseSchema('/books/{id}', 'get', 200, JSONAPI);
    const good = {
      data: {
        id: '/api/books/1', type: 'Book',
        attributes: { _id: 1, title: 'Dune', rating: null, tags: [] },
        relationships: { author: { data: { type: 'Author', id: '/api/authors/1' } }, publisher: { data: null } },
      },
    };
    expect(errorsOf(item, good)).toEqual([]);
    // isbn is outside book:read; a relationship names its type; type is the resource's
    expect(errorsOf(item, { data: { ...good.data, attributes: { ...good.data.attributes, isbn: 'x' } } })).not.toEqual([]);
    expect(errorsOf(item, { data: { ...good.data, relationships: { author: { data: { id: '/api/authors/1' } } } } }))
      .not.toEqual([]);
    expect(errorsOf(item, { data: { ...good.data, type: 'Author' } })).not.toEqual([]);
    expect(errorsOf(responseSchema('/books', 'get', 200, JSONAPI), { links: { self: '/api/books' }, data: [good.data] }))
      .toEqual([]);
    expect(errorsOf(requestSchema('/books', 'post', JSONAPI), { data: { type: 'Book', attributes: { isbn: 'x' } } }))
      .not.toEqual([]);
  });
});

describe('real answers validate against the schema the document gives', () => {
  let author: string;
  beforeAll(async () => {
    const post = async (url: string, body: object): Promise<Record<string, unknown>> =>
      (await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', JSON_TYPE)
        .send(JSON.stringify(body)).expect(201)).body as Record<string, unknown>;
    // Author, Tag and Publisher have no groups: their bodies are plain
    const iri = (prefix: string, item: Record<string, unknown>): string => `${prefix}/${item.id as number}`;
    author = iri('/api/authors', await post('/api/authors', { name: 'Herbert', born: 1920 }));
    await post('/api/tags', { name: 'sf' });
    await post('/api/publishers', { name: 'Chilton' });
    await post('/api/books', { title: 'Dune', isbn: '0-441', author, tags: ['/api/tags/1'], publisher: null });
    const p1 = await post('/api/people', { name: 'Ann', parent: null });
    const p2 = await post('/api/people', { name: 'Bob', parent: iri('/api/people', p1) });
    await request(kernel).patch(iri('/api/people', p1)).set('Content-Type', MERGE)
      .send(JSON.stringify({ parent: iri('/api/people', p2) })).expect(200);
  });

  test('bodies in JSON, JSON-LD and JSON:API that the request schema accepts are created, and the answers validate', async () => {
    const plain = { title: 'Dune', isbn: '0-441', author, tags: ['/api/tags/1'], publisher: '/api/publishers/1' };
    const bodies: Array<[string, object]> = [
      [JSON_TYPE, plain],
      [LD, { ...plain, title: 'Dune Messiah' }],
      [JSONAPI, {
        data: {
          type: 'Book',
          attributes: { title: 'Children of Dune', isbn: null, tags: ['/api/tags/1'] },
          relationships: { author: { data: { type: 'Author', id: author } }, publisher: { data: null } },
        },
      }],
    ];
    for (const [type, body] of bodies) {
      expect([type, errorsOf(requestSchema('/books', 'post', type), body)]).toEqual([type, []]);
      const res = await request(kernel).post('/api/books').set('Content-Type', type).set('Accept', type)
        .send(JSON.stringify(body));
      expect([type, res.status]).toEqual([type, 201]);
      expect([type, errorsOf(responseSchema('/books', 'post', 201, type), JSON.parse(res.text))]).toEqual([type, []]);
    }
    const put = { title: 'Dune (2nd ed.)', isbn: null, author, tags: [], publisher: null };
    expect(errorsOf(requestSchema('/books/{id}', 'put', JSON_TYPE), put)).toEqual([]);
    const replaced = await request(kernel).put('/api/books/1').set('Content-Type', JSON_TYPE).set('Accept', LD)
      .send(JSON.stringify(put)).expect(200);
    expect(errorsOf(responseSchema('/books/{id}', 'put', 200, LD), replaced.body)).toEqual([]);
    const patch = { title: 'Dune' };
    expect(errorsOf(requestSchema('/books/{id}', 'patch', MERGE), patch)).toEqual([]);
    const patched = await request(kernel).patch('/api/books/1').set('Content-Type', MERGE).set('Accept', HAL)
      .send(JSON.stringify(patch)).expect(200);
    expect(errorsOf(responseSchema('/books/{id}', 'patch', 200, HAL), patched.body)).toEqual([]);
  });

  test.each([LD, HAL, JSON_TYPE, JSONAPI])('%s: items, collections and the detail with its embedded author', async (type) => {
    const gets: Array<[string, string]> = [
      ['/books/{id}', '/api/books/1'], ['/books', '/api/books'], ['/books/{id}/detail', '/api/books/1/detail'],
      ['/people', '/api/people'], ['/people/{id}', '/api/people/1'],
    ];
    for (const [path, url] of gets) {
      const res = await request(kernel).get(url).set('Accept', type).expect(200);
      const body = JSON.parse(res.text) as Record<string, unknown>;
      expect([url, errorsOf(responseSchema(path, 'get', 200, type), body)]).toEqual([url, []]);
    }
    // what was validated embeds the author (JSON:API: a relationship)
    const detail = JSON.parse((await request(kernel).get('/api/books/1/detail').set('Accept', type)).text);
    const embedded = type === HAL ? detail._embedded.author
      : type === JSONAPI ? detail.data.relationships.author : detail.author;
    expect(embedded).toEqual(type === JSONAPI ? { data: { type: 'Author', id: author } }
      : expect.objectContaining({ name: 'Herbert', born: 1920 }));
    // and the schema holds it to that: the author without its name, or a resource object without its type, is refused
    if (type === JSONAPI) delete detail.data.type;
    else delete embedded.name;
    expect(errorsOf(responseSchema('/books/{id}/detail', 'get', 200, type), detail)).not.toEqual([]);
  });
});

describe('the Hydra documentation', () => {
  const property = (cls: string, name: string): Record<string, unknown> => {
    const c = hydra['hydra:supportedClass'].find((k) => k['@id'] === `#${cls}`)!;
    return (c['hydra:supportedProperty'] as Array<Record<string, unknown>>)
      .find((p) => (p['hydra:property'] as { 'rdfs:label': string })['rdfs:label'] === name)!;
  };

  test('hydra:readable and hydra:writeable follow the resource\'s normalization and denormalization groups', () => {
    const flags = (cls: string, name: string) => {
      const p = property(cls, name);
      return [name, p['hydra:readable'], p['hydra:writeable'], p['hydra:required']];
    };
    expect(['title', 'isbn', 'rating', 'author'].map((n) => flags('Book', n))).toEqual([
      ['title', true, true, true], ['isbn', false, true, false], ['rating', true, false, false],
      ['author', true, true, false],
    ]);
    // a resource without groups: every property as its schema says
    expect(flags('Author', 'born')).toEqual(['born', true, true, false]);
    // Person has normalization groups only: writeable as its schema says, only the properties in them
    expect(flags('Person', 'name')).toEqual(['name', true, true, true]);
  });
});
