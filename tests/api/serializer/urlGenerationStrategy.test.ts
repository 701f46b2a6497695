/**
 * The URL generation strategy (issue 25, API Platform's `urlGenerationStrategy`, features
 * jsonld/absolute_url.feature, jsonld/network_path.feature, hal/absolute_url.feature,
 * absolute_url/jsonapi/absolute_url.feature and absolute_url/jsonld/entrypoint.feature): every
 * IRI the API writes follows the operation's, the resource's or the API's strategy (`@id`,
 * `@context`, relations, page links, HAL `_links`, JSON:API `id`s and links, `Location`,
 * `Content-Location`); absolute IRIs carry the request's scheme and host as the kernel sees them
 * (a trusted proxy's `X-Forwarded-*` only); IRIs are read back in every form, whatever the host.
 * MemoryState, and SQLite for one case (the stores only keep ids).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Get, GetCollection, MemoryState, Post, Put, readOnly, relation, SearchFilter, toMany,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { ReferenceType } from '../../../src/routing';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const HAL = 'application/hal+json';
const JSONAPI = 'application/vnd.api+json';
const HOST = 'example.com';

type Strategy = ReferenceType.ABSOLUTE_URL | ReferenceType.ABSOLUTE_PATH | ReferenceType.NETWORK_PATH;

interface Strategies {
  readonly api?: Strategy;
  readonly author?: Strategy;
  readonly book?: Strategy;
  /** The Book's Get alone. */
  readonly bookGet?: Strategy;
}

function define(provider: StateProvider, processor: StateProcessor, s: Strategies = {}) {
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }),
    operations: [
      GetCollection(), Get(), Post(),
      Get({
        name: 'book_author', uriTemplate: '/books/{id}/author',
        uriVariables: { id: { fromClass: 'Book', fromProperty: 'author' } },
      }),
    ],
    provider, processor,
    ...(s.author !== undefined ? { urlGenerationStrategy: s.author } : {}),
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }), provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()), title: z.string().min(1), author: relation('Author').nullable(), tags: toMany('Tag'),
    }),
    filters: [SearchFilter({ author: 'exact' })],
    pagination: { itemsPerPage: 1 },
    operations: [
      GetCollection(), Get(s.bookGet !== undefined ? { urlGenerationStrategy: s.bookGet } : {}), Post(), Put(),
      GetCollection({
        name: 'author_books', uriTemplate: '/authors/{authorId}/books',
        uriVariables: { authorId: { fromClass: 'Author', toProperty: 'author' } },
      }),
    ],
    provider, processor,
    ...(s.book !== undefined ? { urlGenerationStrategy: s.book } : {}),
  });
  return [author, tag, book];
}

function kernelOn(s: Strategies = {}, extra: { trustedProxies?: string[] } = {}, state = new MemoryState()): Kernel {
  const resources = define(state, state, s);
  return createKernel({
    routes: apiRoutes({ resources, ...(s.api !== undefined ? { urlGenerationStrategy: s.api } : {}) }),
    debug: false, ...extra,
  });
}

/** Sends a JSON body with Host: example.com. */
function send(kernel: Kernel, method: 'post' | 'put', url: string, body: object, accept = LD, host = HOST) {
  return request(kernel)[method](url).set('Host', host).set('Content-Type', JSON_TYPE).set('Accept', accept)
    .send(JSON.stringify(body));
}

function get(kernel: Kernel, url: string, accept = LD, host = HOST) {
  return request(kernel).get(url).set('Host', host).set('Accept', accept);
}

/** An author, a tag and two books by the author (`/api/books/1` has the tag). */
async function seed(kernel: Kernel): Promise<void> {
  expect((await send(kernel, 'post', '/api/authors', { name: 'Ursula' })).status).toBe(201);
  expect((await send(kernel, 'post', '/api/tags', { name: 'sf' })).status).toBe(201);
  for (const title of ['Dispossessed', 'Lathe']) {
    const res = await send(kernel, 'post', '/api/books', { title, author: '/api/authors/1', tags: ['/api/tags/1'] });
    expect(res.status).toBe(201);
  }
}

describe('urlGenerationStrategy: ABSOLUTE_URL on the resources (absolute_url.feature)', () => {
  let kernel: Kernel;
  beforeEach(async () => {
    kernel = kernelOn({ author: ReferenceType.ABSOLUTE_URL, book: ReferenceType.ABSOLUTE_URL });
    await seed(kernel);
  });

  test('a collection in JSON-LD: @context, @id, members, relations and page links are absolute URLs', async () => {
    const res = await get(kernel, '/api/books');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      '@context': 'http://example.com/api/contexts/Book',
      '@id': 'http://example.com/api/books',
      '@type': 'hydra:Collection',
      'hydra:totalItems': 2,
      'hydra:member': [{
        '@id': 'http://example.com/api/books/1', '@type': 'Book', id: 1,
        author: 'http://example.com/api/authors/1',
        // Tag keeps the API's default: a relation is written as its target names its items
        tags: ['/api/tags/1'],
      }],
      'hydra:view': {
        '@id': 'http://example.com/api/books?page=1',
        'hydra:first': 'http://example.com/api/books?page=1',
        'hydra:last': 'http://example.com/api/books?page=2',
        'hydra:next': 'http://example.com/api/books?page=2',
      },
    });
    const json = await get(kernel, '/api/books', JSON_TYPE);
    expect(json.headers.link).toContain('<http://example.com/api/books?page=2>; rel="next"');
  });

  test('an item in JSON-LD, and its Content-Location', async () => {
    const res = await get(kernel, '/api/books/1');
    expect(res.body).toEqual({
      '@context': 'http://example.com/api/contexts/Book', '@id': 'http://example.com/api/books/1', '@type': 'Book',
      id: 1, title: 'Dispossessed', author: 'http://example.com/api/authors/1', tags: ['/api/tags/1'],
    });
    expect(res.headers['content-location']).toBe('http://example.com/api/books/1');
  });

  test('POST with an absolute URL as the relation: 201, Location and the body absolute', async () => {
    const res = await send(kernel, 'post', '/api/books', { title: 'Tehanu', author: 'http://example.com/api/authors/1' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('http://example.com/api/books/3');
    expect(res.headers['content-location']).toBe('http://example.com/api/books/3');
    expect(res.body).toMatchObject({
      '@context': 'http://example.com/api/contexts/Book', '@id': 'http://example.com/api/books/3',
      author: 'http://example.com/api/authors/1',
    });
  });

  test('a subresource collection: its @id is the subresource path, its members their own IRIs', async () => {
    const res = await get(kernel, '/api/authors/1/books');
    expect(res.status).toBe(200);
    expect(res.body['@id']).toBe('http://example.com/api/authors/1/books');
    expect(res.body['hydra:member'][0]['@id']).toBe('http://example.com/api/books/1');
  });

  test('HAL: self, item, page and relation links are absolute URLs (hal/absolute_url.feature)', async () => {
    const list = await get(kernel, '/api/books', HAL);
    expect(list.body._links).toEqual({
      self: { href: 'http://example.com/api/books?page=1' },
      first: { href: 'http://example.com/api/books?page=1' },
      last: { href: 'http://example.com/api/books?page=2' },
      next: { href: 'http://example.com/api/books?page=2' },
      item: [{ href: 'http://example.com/api/books/1' }],
    });
    expect(list.body._embedded.item[0]._links).toEqual({
      self: { href: 'http://example.com/api/books/1' },
      author: { href: 'http://example.com/api/authors/1' },
      tags: [{ href: '/api/tags/1' }],
    });
    const item = await get(kernel, '/api/authors/1', HAL);
    expect(item.body).toEqual({ _links: { self: { href: 'http://example.com/api/authors/1' } }, id: 1, name: 'Ursula' });
  });

  test('JSON:API: resource ids, relationship ids and links are absolute URLs (jsonapi/absolute_url.feature)', async () => {
    const kernel2 = createKernel({
      routes: apiRoutes({ resources: defineAgain(), formats: ['jsonld', 'json', 'jsonapi'] }),
      debug: false,
    });
    await seed(kernel2);
    const list = await get(kernel2, '/api/books', JSONAPI);
    expect(list.status).toBe(200);
    expect(list.body.links).toMatchObject({
      self: 'http://example.com/api/books?page=1', next: 'http://example.com/api/books?page=2',
    });
    expect(list.body.data[0]).toMatchObject({
      id: 'http://example.com/api/books/1', type: 'Book',
      relationships: { author: { data: { type: 'Author', id: 'http://example.com/api/authors/1' } } },
    });
    const item = await get(kernel2, '/api/authors/1', JSONAPI);
    expect(item.body.data.id).toBe('http://example.com/api/authors/1');
    // an item read through a subresource is named by that path (sub_resource.feature)
    const sub = await get(kernel2, '/api/books/1/author', JSONAPI);
    expect(sub.body.data.id).toBe('http://example.com/api/books/1/author');
    expect((await get(kernel2, '/api/books/1/author')).body['@id']).toBe('http://example.com/api/books/1/author');
  });
});

/** The resources of {@link define} on one store, absolute URLs on Author and Book. */
function defineAgain() {
  const state = new MemoryState();
  return define(state, state, { author: ReferenceType.ABSOLUTE_URL, book: ReferenceType.ABSOLUTE_URL });
}

describe('urlGenerationStrategy: NETWORK_PATH (network_path.feature)', () => {
  let kernel: Kernel;
  beforeEach(async () => {
    kernel = kernelOn({ author: ReferenceType.NETWORK_PATH, book: ReferenceType.NETWORK_PATH });
    await seed(kernel);
  });

  test('a collection and an item: every IRI is //host/path', async () => {
    const list = await get(kernel, '/api/books');
    expect(list.body).toMatchObject({
      '@context': '//example.com/api/contexts/Book',
      '@id': '//example.com/api/books',
      'hydra:member': [{ '@id': '//example.com/api/books/1', author: '//example.com/api/authors/1' }],
      'hydra:view': { 'hydra:next': '//example.com/api/books?page=2' },
    });
    const item = await get(kernel, '/api/authors/1');
    expect(item.body['@id']).toBe('//example.com/api/authors/1');
  });

  test('POST with a network path as the relation, and a port kept in the authority', async () => {
    const res = await send(kernel, 'post', '/api/books', { title: 'Tehanu', author: '//example.com:8443/api/authors/1' },
      LD, 'example.com:8443');
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('//example.com:8443/api/books/3');
    expect(res.body.author).toBe('//example.com:8443/api/authors/1');
  });

  test('a filter by a network path or an absolute URL finds the author\'s books', async () => {
    for (const iri of ['//example.com/api/authors/1', 'http://example.com/api/authors/1', '/api/authors/1']) {
      const res = await get(kernel, `/api/books?author=${encodeURIComponent(iri)}`);
      expect(res.body['hydra:totalItems']).toBe(2);
    }
  });
});

describe('urlGenerationStrategy: where it is set', () => {
  test('API-wide: the entrypoint, its @context and its collection links (absolute_url/jsonld/entrypoint.feature)', async () => {
    const kernel = kernelOn({ api: ReferenceType.ABSOLUTE_URL });
    const res = await get(kernel, '/api');
    expect(res.body).toEqual({
      '@context': 'http://example.com/api/contexts/Entrypoint', '@id': 'http://example.com/api', '@type': 'Entrypoint',
      author: 'http://example.com/api/authors', book: 'http://example.com/api/books', tag: 'http://example.com/api/tags',
    });
    await seed(kernel);
    expect((await get(kernel, '/api/books/1')).body.tags).toEqual(['http://example.com/api/tags/1']);
  });

  test('a resource\'s own replaces the API\'s', async () => {
    const kernel = kernelOn({ api: ReferenceType.ABSOLUTE_URL, author: ReferenceType.ABSOLUTE_PATH });
    await seed(kernel);
    const res = await get(kernel, '/api/books/1');
    expect(res.body['@id']).toBe('http://example.com/api/books/1');
    expect(res.body.author).toBe('/api/authors/1');
    expect((await get(kernel, '/api')).body.author).toBe('/api/authors');
  });

  test('an operation\'s own: the Get writes absolute URLs, and names the items so in the collection too', async () => {
    const kernel = kernelOn({ bookGet: ReferenceType.ABSOLUTE_URL });
    await seed(kernel);
    const item = await get(kernel, '/api/books/1');
    expect(item.body['@id']).toBe('http://example.com/api/books/1');
    expect(item.body['@context']).toBe('http://example.com/api/contexts/Book');
    expect(item.body.author).toBe('/api/authors/1');
    const list = await get(kernel, '/api/books');
    // the GetCollection's own IRIs stay paths; its members are named as the Get names them
    expect(list.body['@id']).toBe('/api/books');
    expect(list.body['@context']).toBe('/api/contexts/Book');
    expect(list.body['hydra:member'][0]['@id']).toBe('http://example.com/api/books/1');
  });

  test('the default is unchanged: absolute paths', async () => {
    const kernel = kernelOn();
    await seed(kernel);
    const res = await get(kernel, '/api/books/1');
    expect(res.body).toMatchObject({ '@context': '/api/contexts/Book', '@id': '/api/books/1', author: '/api/authors/1' });
    expect(res.headers['content-location']).toBe('/api/books/1');
  });

  test.each([
    ['the API\'s', () => apiRoutes({ resources: [], urlGenerationStrategy: ReferenceType.RELATIVE_PATH as never }),
      'Invalid option "api.urlGenerationStrategy": expected ReferenceType.ABSOLUTE_PATH (1), ReferenceType.ABSOLUTE_URL (0) '
      + 'or ReferenceType.NETWORK_PATH (3) from express-kernel/routing: a relative path cannot be an IRI'],
    ['a resource\'s', () => defineResource({
      shortName: 'Book', schema: z.object({ title: z.string() }), provider: new MemoryState(),
      processor: new MemoryState(), urlGenerationStrategy: 'absolute' as never,
    }), 'Invalid option "resources.Book.urlGenerationStrategy": expected ReferenceType.ABSOLUTE_PATH (1)'],
    ['an operation\'s', () => defineResource({
      shortName: 'Book', schema: z.object({ title: z.string() }), provider: new MemoryState(),
      operations: [Get({ urlGenerationStrategy: 4 as never })],
    }), 'Invalid option "resources.Book.operations[0].urlGenerationStrategy": expected ReferenceType.ABSOLUTE_PATH'],
  ])('%s strategy is checked at start-up, naming the option', (_, build, message) => {
    expect(build).toThrow(message);
  });
});

describe('urlGenerationStrategy: the request\'s scheme and host as the kernel sees them', () => {
  test('behind a trusted proxy, X-Forwarded-Proto, -Host and -Port make the absolute URLs', async () => {
    const kernel = kernelOn({ api: ReferenceType.ABSOLUTE_URL }, { trustedProxies: ['loopback'] });
    await seed(kernel);
    const res = await get(kernel, '/api/books/1').set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'api.example.org').set('X-Forwarded-Port', '8443');
    expect(res.body['@id']).toBe('https://api.example.org:8443/api/books/1');
    expect(res.body.author).toBe('https://api.example.org:8443/api/authors/1');
  });

  test('from a peer that is no trusted proxy, X-Forwarded-* are ignored', async () => {
    const kernel = kernelOn({ api: ReferenceType.ABSOLUTE_URL });
    await seed(kernel);
    const res = await get(kernel, '/api/books/1').set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'evil.example');
    expect(res.body['@id']).toBe('http://example.com/api/books/1');
  });

  test('an IRI of another host is read by its path (as API Platform\'s IRI converter matches the path alone)', async () => {
    const kernel = kernelOn({ api: ReferenceType.ABSOLUTE_URL });
    await seed(kernel);
    const res = await send(kernel, 'post', '/api/books', { title: 'Tehanu', author: 'https://other.example/api/authors/1' });
    expect(res.status).toBe(201);
    expect(res.body.author).toBe('http://example.com/api/authors/1');
    // the path still has to name an item of the relation's target
    const wrong = await send(kernel, 'post', '/api/books', { title: 'Tehanu', author: 'http://example.com/api/tags/1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('Invalid IRI "http://example.com/api/tags/1".');
  });
});

describe('urlGenerationStrategy on SQLite', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-url-strategy-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('absolute URLs in and out, to-one and to-many', async () => {
    const store = createSqlState({ sqlitePath: path.join(dir, 'a.sqlite') });
    try {
      const resources = define(store.provider, store.processor, { api: ReferenceType.ABSOLUTE_URL });
      await store.migrate({ '0001-tables': resourceTablesMigration(resources.map((r) => r.metadata)) });
      const kernel = createKernel({
        routes: apiRoutes({ resources, urlGenerationStrategy: ReferenceType.ABSOLUTE_URL }), debug: false,
      });
      await seed(kernel);
      const put = await send(kernel, 'put', '/api/books/2', {
        title: 'Lathe', author: 'http://example.com/api/authors/1', tags: ['//example.com/api/tags/1'],
      });
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({
        '@id': 'http://example.com/api/books/2', author: 'http://example.com/api/authors/1',
        tags: ['http://example.com/api/tags/1'],
      });
    } finally {
      await store.close();
    }
  });
});

describe('urlGenerationStrategy: property', () => {
  const strategy = fc.constantFrom<Strategy>(
    ReferenceType.ABSOLUTE_URL, ReferenceType.ABSOLUTE_PATH, ReferenceType.NETWORK_PATH,
  );
  const maybe = fc.option(strategy, { nil: undefined });
  const host = fc.tuple(
    fc.stringMatching(/^[a-z][a-z0-9-]{0,10}(\.[a-z]{2,5}){0,2}$/), fc.option(fc.integer({ min: 1, max: 65535 })),
  ).map(([name, port]) => (port === null ? name : `${name}:${port}`));

  test('any IRI the API writes, under any strategy and host, is read back as a relation value', async () => {
    await fc.assert(fc.asyncProperty(
      fc.record({ api: maybe, author: maybe, book: maybe, bookGet: maybe }), host, fc.constantFrom(LD, HAL, JSONAPI),
      async (s, authority, accept) => {
        const state = new MemoryState();
        const kernel = createKernel({
          routes: apiRoutes({
            resources: define(state, state, s), formats: ['jsonld', 'jsonhal', 'json', 'jsonapi'],
            ...(s.api !== undefined ? { urlGenerationStrategy: s.api } : {}),
          }),
          debug: false,
        });
        const author = await send(kernel, 'post', '/api/authors', { name: 'Ursula' }, LD, authority);
        const tag = await send(kernel, 'post', '/api/tags', { name: 'sf' }, LD, authority);
        // the IRIs as written: the created items' @id, then the book's relations in the chosen format
        const book = await send(kernel, 'post', '/api/books',
          { title: 'A', author: author.body['@id'], tags: [tag.body['@id']] }, LD, authority);
        expect(book.status).toBe(201);
        const read = await get(kernel, book.headers['content-location'].replace(/^(https?:)?\/\/[^/]+/, ''),
          accept, authority);
        const [authorIri, tagIri] = accept === HAL
          ? [read.body._links.author.href, read.body._links.tags[0].href]
          : accept === JSONAPI
            ? [read.body.data.relationships.author.data.id, read.body.data.attributes.tags[0]]
            : [read.body.author, read.body.tags[0]];
        const again = await send(kernel, 'put', new URL(read.headers['content-location'], 'http://x').pathname,
          { title: 'B', author: authorIri, tags: [tagIri] }, LD, authority);
        expect(again.status).toBe(200);
        expect(again.body.author).toBe(book.body.author);
        expect(again.body.tags).toEqual(book.body.tags);
        // and as a filter value
        const found = await get(kernel, `/api/books?author=${encodeURIComponent(authorIri as string)}`, LD, authority);
        expect(found.body['hydra:totalItems']).toBe(1);
      },
    ), { numRuns: 40 });
  });
});
