/**
 * Serialization groups and embedded relations (issue 25 point 2, API Platform's
 * `normalizationContext`/`denormalizationContext` groups, readable links, `enable_max_depth`),
 * over HTTP on every store: which properties a response writes and a body may write, relations
 * embedded as documents in JSON-LD, HAL and JSON (to-one and to-many), read in batches (the
 * statements of a page do not grow with its size), cycles and max depth.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Get, GetCollection, groups, maxDepth, Patch, Post, Put, readOnly, relation, toMany,
  type QueryLogEntry, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const HAL = 'application/hal+json';

function define(provider: StateProvider, processor: StateProcessor) {
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string().min(1), ['book:read', 'author:read']),
      born: groups(z.int().nullable(), ['author:read']),
    }),
    provider, processor,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read']) }),
    provider, processor,
  });
  // no property in book:read: a relation to it stays an IRI
  const publisher = defineResource({
    shortName: 'Publisher', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }), provider, processor,
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
    provider, processor,
  });
  const person = defineResource({
    shortName: 'Person',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string().min(1), ['person:read']),
      parent: groups(relation('Person').nullable(), ['person:read']),
    }),
    normalizationContext: { groups: ['person:read'] },
    routePrefix: '/api/people',
    provider, processor,
  });
  const comment = defineResource({
    shortName: 'Comment',
    schema: z.object({
      id: readOnly(z.int()),
      text: groups(z.string().min(1), ['comment:read']),
      replyTo: maxDepth(groups(relation('Comment').nullable(), ['comment:read']), 1),
    }),
    normalizationContext: { groups: ['comment:read'], enable_max_depth: true },
    provider, processor,
  });
  return [author, tag, publisher, book, person, comment];
}

describeOnEveryStore('serialization groups and embedded relations', define, (open, store) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  let queries: QueryLogEntry[];
  beforeEach(async () => {
    opened = await open();
    queries = [];
    kernel = createKernel({
      routes: apiRoutes({ resources: opened.resources, stateContext: () => ({ logQuery: (q) => queries.push(q) }) }),
      debug: false,
    });
  });
  afterEach(() => opened.close());

  const post = async (url: string, body: object): Promise<Record<string, unknown>> => {
    const res = await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', JSON_TYPE)
      .send(JSON.stringify(body));
    expect(res.status).toBe(201);
    return res.body as Record<string, unknown>;
  };
  /** Author Herbert (born 1920), tags sf and space, publisher Chilton, book Dune with all of them. */
  const dune = async (): Promise<number> => {
    await post('/api/authors', { name: 'Herbert', born: 1920 });
    await post('/api/tags', { name: 'sf' });
    await post('/api/tags', { name: 'space' });
    await post('/api/publishers', { name: 'Chilton' });
    const book = await post('/api/books', {
      title: 'Dune', isbn: '0-441', author: '/api/authors/1', tags: ['/api/tags/2', '/api/tags/1'],
      publisher: '/api/publishers/1',
    });
    return book.id as number;
  };

  test('JSON-LD embeds the relations whose target has a property in the groups, each with its @id and @type', async () => {
    const id = await dune();
    const res = await request(kernel).get(`/api/books/${id}`).set('Accept', LD);
    expect(res.body).toEqual({
      '@context': '/api/contexts/Book', '@id': `/api/books/${id}`, '@type': 'Book', id,
      title: 'Dune', rating: null,
      author: { '@id': '/api/authors/1', '@type': 'Author', id: 1, name: 'Herbert' },
      tags: [
        { '@id': '/api/tags/1', '@type': 'Tag', id: 1, name: 'sf' },
        { '@id': '/api/tags/2', '@type': 'Tag', id: 2, name: 'space' },
      ],
      publisher: '/api/publishers/1',
    });
    const page = await request(kernel).get('/api/books').set('Accept', LD);
    expect(page.body['hydra:member'][0].author).toEqual(res.body.author);
  });

  test('HAL moves embedded documents to _embedded (links kept); plain JSON nests them', async () => {
    const id = await dune();
    const hal = await request(kernel).get(`/api/books/${id}`).set('Accept', HAL);
    expect(hal.body).toEqual({
      _links: {
        self: { href: `/api/books/${id}` }, author: { href: '/api/authors/1' },
        tags: [{ href: '/api/tags/1' }, { href: '/api/tags/2' }], publisher: { href: '/api/publishers/1' },
      },
      _embedded: {
        author: { _links: { self: { href: '/api/authors/1' } }, id: 1, name: 'Herbert' },
        tags: [
          { _links: { self: { href: '/api/tags/1' } }, id: 1, name: 'sf' },
          { _links: { self: { href: '/api/tags/2' } }, id: 2, name: 'space' },
        ],
      },
      id, title: 'Dune', rating: null,
    });
    const json = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
    expect(json.body).toEqual([{
      id, title: 'Dune', rating: null, author: { id: 1, name: 'Herbert' },
      tags: [{ id: 1, name: 'sf' }, { id: 2, name: 'space' }], publisher: '/api/publishers/1',
    }]);
  });

  test('an operation\'s normalizationContext replaces the resource\'s: more groups, more of the author', async () => {
    const id = await dune();
    const res = await request(kernel).get(`/api/books/${id}/detail`).set('Accept', JSON_TYPE);
    expect(res.body.author).toEqual({ id: 1, name: 'Herbert', born: 1920 });
    // the author's own resource has no groups: every property
    expect((await request(kernel).get('/api/authors/1').set('Accept', JSON_TYPE)).body)
      .toEqual({ id: 1, name: 'Herbert', born: 1920 });
  });

  test('a body\'s properties outside the denormalization groups are ignored; PUT keeps their stored value', async () => {
    const id = await dune();
    const rated = await request(kernel).patch(`/api/books/${id}`).set('Content-Type', 'application/merge-patch+json')
      .set('Accept', JSON_TYPE).send(JSON.stringify({ rating: 5, title: 'Dune!' }));
    expect(rated.body).toMatchObject({ title: 'Dune!', rating: null });
    const created = await post('/api/books', { title: 'Emma', rating: 4 });
    expect(created.rating).toBeNull();
    // isbn is written (book:write) but never read (not in book:read)
    expect(created).not.toHaveProperty('isbn');
    const put = await request(kernel).put(`/api/books/${id}`).set('Content-Type', JSON_TYPE).set('Accept', JSON_TYPE)
      .send(JSON.stringify({ title: 'Dune', isbn: '0-442', rating: 1 }));
    expect(put.body).toMatchObject({ title: 'Dune', rating: null, author: null, tags: [] });
  });

  test('a nested document where the denormalization groups allow none is API Platform\'s 400', async () => {
    await dune();
    const res = await request(kernel).post('/api/books').set('Content-Type', JSON_TYPE).set('Accept', JSON_TYPE)
      .send(JSON.stringify({ title: 'Emma', publisher: { name: 'Penguin' } }));
    expect([res.status, res.body.detail])
      .toEqual([400, 'Nested documents for attribute "publisher" are not allowed. Use IRIs instead.']);
  });

  test('a self-referencing resource embeds its chain and writes an item already above as its IRI (a cycle)', async () => {
    await post('/api/people', { name: 'Abe' });
    await post('/api/people', { name: 'Homer', parent: '/api/people/1' });
    await post('/api/people', { name: 'Bart', parent: '/api/people/2' });
    const bart = await request(kernel).get('/api/people/3').set('Accept', JSON_TYPE);
    expect(bart.body).toEqual({
      id: 3, name: 'Bart', parent: { id: 2, name: 'Homer', parent: { id: 1, name: 'Abe', parent: null } },
    });
    await request(kernel).patch('/api/people/1').set('Content-Type', 'application/merge-patch+json')
      .send(JSON.stringify({ parent: '/api/people/3' })).expect(200);
    const abe = await request(kernel).get('/api/people/1').set('Accept', LD);
    expect(abe.body.parent).toEqual({
      '@id': '/api/people/3', '@type': 'Person', id: 3, name: 'Bart',
      parent: { '@id': '/api/people/2', '@type': 'Person', id: 2, name: 'Homer', parent: '/api/people/1' },
    });
  });

  test('enable_max_depth with maxDepth(1): the nested document has no replyTo (symfony leaves it out)', async () => {
    await post('/api/comments', { text: 'first' });
    await post('/api/comments', { text: 'second', replyTo: '/api/comments/1' });
    await post('/api/comments', { text: 'third', replyTo: '/api/comments/2' });
    const third = await request(kernel).get('/api/comments/3').set('Accept', LD);
    expect(third.body).toEqual({
      '@context': '/api/contexts/Comment', '@id': '/api/comments/3', '@type': 'Comment', id: 3, text: 'third',
      replyTo: { '@id': '/api/comments/2', '@type': 'Comment', id: 2, text: 'second' },
    });
    const page = await request(kernel).get('/api/comments').set('Accept', JSON_TYPE);
    expect(page.body.map((c: { replyTo: unknown }) => c.replyTo))
      .toEqual([null, { id: 1, text: 'first' }, { id: 2, text: 'second' }]);
  });

  if (store !== 'MemoryState') {
    test('a page reads its embedded authors and tags in one statement each: 30 books cost what 3 do', async () => {
      for (let a = 1; a <= 10; a++) await post('/api/authors', { name: `Author ${a}`, born: null });
      for (let t = 1; t <= 5; t++) await post('/api/tags', { name: `tag ${t}` });
      for (let b = 1; b <= 30; b++) {
        await post('/api/books', {
          title: `Book ${b}`, author: `/api/authors/${(b % 10) + 1}`, tags: [`/api/tags/${(b % 5) + 1}`, '/api/tags/1'],
        });
      }
      const statementsOf = async (itemsPerPage: number): Promise<string[]> => {
        queries.length = 0;
        const res = await request(kernel).get(`/api/books?itemsPerPage=${itemsPerPage}`).set('Accept', LD);
        expect(res.body['hydra:member']).toHaveLength(itemsPerPage);
        expect(res.body['hydra:member'][itemsPerPage - 1].author).toMatchObject({ '@type': 'Author' });
        return queries.map((q) => q.sql);
      };
      // the page's count is left out: SQLite keeps it while nothing changes (sql/countCache.ts)
      const reads = (statements: string[]): string[] => statements.filter((sql) => !/count\(\*\)/i.test(sql));
      const three = reads(await statementsOf(3));
      const thirty = reads(await statementsOf(30));
      expect(thirty.length).toBe(three.length);
      // the page, its tags' join table, the authors, the tags
      expect(thirty).toHaveLength(4);
      expect(thirty.filter((sql) => /from "authors"/.test(sql))).toHaveLength(1);
      expect(thirty.filter((sql) => /from "tags"/.test(sql))).toHaveLength(1);
    });
  }
});
