/**
 * Writable embedded relations (issue 25 point 2, API Platform 3.4's writable links:
 * `AbstractItemNormalizer::denormalizeRelation`, the JSON-LD `ItemNormalizer::denormalize` with
 * `api_allow_update`, features/main/relation.feature's "Create a related dummy with a relation"
 * and "Update an embedded relation using an IRI"), over HTTP on every store: a nested document
 * without `@id` creates the related item, with one updates it, to-one and to-many, in one
 * transaction with the parent; the nested document's violations at `author.name`; the related
 * resource's own rules (its Post's and Patch's security, its properties' security) apply; without
 * denormalization groups reaching the target, the 400 stays; HAL and JSON:API refuse them.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Get, GetCollection, groups, Patch, Post, Put, readOnly, relation, toMany,
  type Purger, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { HttpBasicAuthenticator } from '../../../src/security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../../../src/security/InMemoryUserProvider';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const HAL = 'application/hal+json';
const JSONAPI = 'application/vnd.api+json';
const MERGE = 'application/merge-patch+json';
const ADMIN = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
const EDIT_MESSAGE = 'Only an admin may edit an author.';
const NAME_MESSAGE = 'No author may be called Forbidden.';

function define(provider: StateProvider, processor: StateProcessor) {
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({
      id: readOnly(z.int()),
      name: groups(z.string().min(2), ['book:read', 'book:write']),
      born: groups(z.int().min(1000).nullable(), ['book:write']),
      vip: groups(z.boolean().default(false), ['book:write', 'author:read']),
    }),
    operations: [
      GetCollection(), Get({ normalizationContext: { groups: ['book:read', 'book:write', 'author:read'] } }),
      Post({ securityPostDenormalize: ({ object }) => (object as { name?: unknown }).name !== 'Forbidden', securityPostDenormalizeMessage: NAME_MESSAGE }),
      Patch({ security: 'ROLE_ADMIN', securityMessage: EDIT_MESSAGE }),
    ],
    properties: { vip: { security: 'ROLE_ADMIN' } },
    provider, processor,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read', 'book:write']) }),
    provider, processor,
  });
  // a property in book:write, but no Post nor Patch: a nested document can neither create nor update one
  const publisher = defineResource({
    shortName: 'Publisher',
    schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read', 'book:write']) }),
    operations: [GetCollection(), Get()],
    provider, processor,
  });
  // no property in book:write: a relation to it takes IRIs only
  const editor = defineResource({
    shortName: 'Editor',
    schema: z.object({ id: readOnly(z.int()), name: groups(z.string().min(1), ['book:read']) }),
    provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()),
      title: groups(z.string().min(1), ['book:read', 'book:write']),
      author: groups(relation('Author').nullable(), ['book:read', 'book:write']),
      tags: groups(toMany('Tag'), ['book:read', 'book:write']),
      publisher: groups(relation('Publisher').nullable(), ['book:read', 'book:write']),
      editor: groups(relation('Editor').nullable(), ['book:read', 'book:write']),
    }),
    normalizationContext: { groups: ['book:read'] },
    denormalizationContext: { groups: ['book:write'] },
    operations: [GetCollection(), Get(), Post(), Put(), Patch()],
    provider, processor,
  });
  // no denormalization groups at all: relations are IRIs
  const review = defineResource({
    shortName: 'Review',
    schema: z.object({ id: readOnly(z.int()), text: z.string(), author: relation('Author').nullable() }),
    provider, processor,
  });
  return [author, tag, publisher, editor, book, review];
}

/** A purger that keeps what it was asked. */
class RecordingPurger implements Purger {
  readonly purged: string[] = [];
  async purge(iris: readonly string[]): Promise<void> { this.purged.push(...iris); }
  getResponseHeaders(iris: readonly string[]): Record<string, string> { return { xkey: iris.join(' ') }; }
}

describeOnEveryStore('writable embedded relations', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  let purger: RecordingPurger;
  beforeEach(async () => {
    opened = await open();
    purger = new RecordingPurger();
    kernel = createKernel({
      routes: apiRoutes({
        resources: opened.resources, purger, formats: ['jsonld', 'jsonhal', 'json', 'jsonapi'],
      }),
      debug: false,
      security: {
        firewalls: [{
          name: 'main', pattern: '^/',
          provider: new InMemoryUserProvider({ users: { admin: { password: 'admin', roles: ['ROLE_ADMIN'] } } }),
          authenticators: [new HttpBasicAuthenticator()], entryPoint: 'http_basic',
        }],
      },
    });
  });
  afterEach(() => opened.close());

  const send = (method: 'post' | 'put' | 'patch', url: string, body: object, type = LD, auth?: string) => {
    const r = request(kernel)[method](url).set('Content-Type', type).set('Accept', LD);
    return (auth === undefined ? r : r.set('Authorization', auth)).send(JSON.stringify(body));
  };
  const get = async (url: string): Promise<Record<string, unknown>> =>
    (await request(kernel).get(url).set('Accept', JSON_TYPE).set('Authorization', ADMIN)).body as Record<string, unknown>;
  const count = async (collection: string): Promise<number> =>
    ((await request(kernel).get(collection).set('Accept', LD)).body as { 'hydra:totalItems': number })['hydra:totalItems'];

  describe('a nested document without @id', () => {
    test('creates the related item with the book, and the response embeds it', async () => {
      const res = await send('post', '/api/books', { title: 'Dune', author: { name: 'Herbert', born: 1920 } });
      expect(res.status).toBe(201);
      expect(res.body.author).toEqual({ '@id': '/api/authors/1', '@type': 'Author', id: 1, name: 'Herbert' });
      expect(await get('/api/authors/1')).toEqual({ id: 1, name: 'Herbert', born: 1920, vip: false });
    });

    test('creates to-many elements next to IRIs, in the order sent', async () => {
      await send('post', '/api/tags', { name: 'sf' }).expect(201);
      const res = await send('post', '/api/books', { title: 'Dune', tags: [{ name: 'space' }, '/api/tags/1'] });
      expect(res.status).toBe(201);
      const names = (res.body.tags as { name: string }[]).map((t) => t.name).sort();
      expect(names).toEqual(['sf', 'space']);
      expect(await get('/api/tags/2')).toEqual({ id: 2, name: 'space' });
    });

    test('several nested documents in one body are created with the book', async () => {
      const first = await send('post', '/api/books', { title: 'Dune', author: { name: 'Herbert' }, tags: [{ name: 'a' }, { name: 'b' }] });
      expect(first.status).toBe(201);
      expect(await count('/api/tags')).toBe(2);
      expect(await count('/api/authors')).toBe(1);
    });

    test('is validated with its own schema: 422 at author.name and tags[1].name, and nothing is stored', async () => {
      const res = await send('post', '/api/books', {
        title: '', author: { name: 'H', born: 12 }, tags: [{ name: 'ok' }, { name: '' }],
      });
      expect(res.status).toBe(422);
      const paths = (res.body.violations as { propertyPath: string }[]).map((v) => v.propertyPath).sort();
      expect(paths).toEqual(['author.born', 'author.name', 'tags[1].name', 'title']);
      expect(await count('/api/authors')).toBe(0);
      expect(await count('/api/tags')).toBe(0);
      expect(await count('/api/books')).toBe(0);
    });

    test('is rolled back with the book when the book\'s write fails in the store', async () => {
      const res = await send('post', '/api/books', {
        title: 'Dune', author: { name: 'Herbert' }, tags: [{ name: 'sf' }], publisher: '/api/publishers/999',
      });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('Item not found for "/api/publishers/999".');
      expect(await count('/api/authors')).toBe(0);
      expect(await count('/api/tags')).toBe(0);
      expect(await count('/api/books')).toBe(0);
    });
  });

  describe('a nested document with @id', () => {
    beforeEach(async () => {
      await send('post', '/api/books', { title: 'Dune', author: { name: 'Herbert', born: 1920 } }).expect(201);
    });

    test('updates the related item (only the properties sent) on PATCH, PUT and POST, as API Platform allows', async () => {
      // a merge-patch body is plain JSON (API Platform's patch_formats): `id` names the item
      const patch = await send('patch', '/api/books/1', { author: { id: '/api/authors/1', name: 'Frank Herbert' } }, MERGE, ADMIN);
      expect(patch.status).toBe(200);
      expect(patch.body.author).toEqual({ '@id': '/api/authors/1', '@type': 'Author', id: 1, name: 'Frank Herbert' });
      expect(await get('/api/authors/1')).toEqual({ id: 1, name: 'Frank Herbert', born: 1920, vip: false });
      await send('put', '/api/books/1', { title: 'Dune', author: { '@id': '/api/authors/1', born: 1921 } }, LD, ADMIN).expect(200);
      await send('post', '/api/books', { title: 'Dune II', author: { '@id': '/api/authors/1', vip: true } }, LD, ADMIN)
        .expect(201);
      expect(await get('/api/authors/1')).toEqual({ id: 1, name: 'Frank Herbert', born: 1921, vip: true });
      expect(await count('/api/authors')).toBe(1);
    });

    test('is refused as a direct PATCH of the author would be: 403 with its message, nothing changed', async () => {
      const res = await send('patch', '/api/books/1', { title: 'Dune!', author: { id: '/api/authors/1', name: 'Mallory' } }, MERGE);
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(EDIT_MESSAGE);
      expect((await get('/api/authors/1')).name).toBe('Herbert');
      expect((await get('/api/books/1')).title).toBe('Dune');
    });

    test('names a stored item of the target, else a 400 as API Platform gives', async () => {
      const missing = await send('put', '/api/books/1', { title: 'D', author: { '@id': '/api/authors/99', name: 'X' } }, LD, ADMIN);
      expect(missing.status).toBe(400);
      expect(missing.body.detail).toBe('Item not found for "/api/authors/99".');
      const wrong = await send('put', '/api/books/1', { title: 'D', author: { '@id': '/api/tags/1', name: 'X' } }, LD, ADMIN);
      expect(wrong.status).toBe(400);
      expect(wrong.body.detail).toBe('Invalid IRI "/api/tags/1".');
    });

    test('in plain JSON (and merge-patch) is `id`, an IRI or the identifier alone', async () => {
      const res = await send('patch', '/api/books/1', { author: { id: 1, name: 'F. Herbert' } }, MERGE, ADMIN);
      expect(res.status).toBe(200);
      const put = await send('put', '/api/books/1', { title: 'Dune', author: { id: '/api/authors/1', born: 1900 } }, JSON_TYPE, ADMIN);
      expect(put.status).toBe(200);
      expect(await get('/api/authors/1')).toEqual({ id: 1, name: 'F. Herbert', born: 1900, vip: false });
    });

    test('purges the related item\'s IRI with the book\'s', async () => {
      purger.purged.length = 0;
      await send('patch', '/api/books/1', { author: { id: 1, name: 'Frank' } }, MERGE, ADMIN).expect(200);
      expect(purger.purged).toEqual(expect.arrayContaining(['/api/books/1', '/api/authors/1', '/api/authors']));
    });
  });

  describe("the related resource's rules", () => {
    test("its Post's securityPostDenormalize: 403 with its message, nothing stored", async () => {
      const res = await send('post', '/api/books', { title: 'Dune', author: { name: 'Forbidden' } });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe(NAME_MESSAGE);
      expect(await count('/api/books')).toBe(0);
      expect(await count('/api/authors')).toBe(0);
    });

    test("its properties' security: a value the client may not write is ignored", async () => {
      await send('post', '/api/books', { title: 'A', author: { name: 'Anon', vip: true } }).expect(201);
      await send('post', '/api/books', { title: 'B', author: { name: 'Admin', vip: true } }, LD, ADMIN).expect(201);
      expect((await get('/api/authors/1')).vip).toBe(false);
      expect((await get('/api/authors/2')).vip).toBe(true);
    });

    test('a resource without Post (or Patch) takes no nested document to create (or update) one: 400', async () => {
      const res = await send('post', '/api/books', { title: 'Dune', publisher: { name: 'Chilton' } });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(
        'Nested documents for attribute "publisher" of Book cannot create a Publisher: it has no Post operation.',
      );
      expect(await count('/api/publishers')).toBe(0);
    });

    test('a purge names the created item\'s collection', async () => {
      await send('post', '/api/books', { title: 'Dune', author: { name: 'Herbert' } }).expect(201);
      expect(purger.purged).toEqual(expect.arrayContaining(['/api/books', '/api/authors']));
    });
  });

  describe('where no writable link is', () => {
    test('without denormalization groups reaching the target, the 400 stays', async () => {
      const editor = await send('post', '/api/books', { title: 'Dune', editor: { name: 'Ed' } });
      expect(editor.status).toBe(400);
      expect(editor.body.detail).toBe('Nested documents for attribute "editor" are not allowed. Use IRIs instead.');
      const review = await send('post', '/api/reviews', { text: 'Good', author: { name: 'Herbert' } });
      expect(review.status).toBe(400);
      expect(review.body.detail).toBe('Nested documents for attribute "author" are not allowed. Use IRIs instead.');
      expect(await count('/api/authors')).toBe(0);
    });

    test('HAL and JSON:API bodies refuse nested documents (API Platform: HAL is read-only, JSON:API takes linkage)', async () => {
      const hal = await send('post', '/api/books', { title: 'Dune', author: { name: 'Herbert' } }, HAL);
      expect(hal.status).toBe(400);
      expect(hal.body.detail).toBe(
        'Nested documents for attribute "author" are not read in the jsonhal format: send IRIs, or the body as JSON-LD or JSON.',
      );
      const api = await send('post', '/api/books', {
        data: { type: 'Book', attributes: { title: 'Dune', author: { name: 'Herbert' } } },
      }, JSONAPI);
      expect(api.status).toBe(400);
      expect(await count('/api/authors')).toBe(0);
    });
  });
});
