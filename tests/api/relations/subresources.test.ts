/**
 * Subresources (issue 25 point 2, API Platform's `uriVariables` with `Link`, docs "Subresources"
 * and features/main/sub_resource.feature): `/authors/{authorId}/books` (toProperty),
 * `/books/{id}/tags` (fromProperty through a to-many relation), `/books/{id}/author` (an item),
 * paged and filtered, on every store; `Link.security` on the parent (403 with its message, 401
 * for an anonymous client, 404 for a missing parent) and the operation's own security.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Get, GetCollection, link, Post, readOnly, relation, SearchFilter, toMany,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { basic, basicAuthKernel } from './basicAuthKernel';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';

function define(provider: StateProvider, processor: StateProcessor) {
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({ id: readOnly(z.int()), name: z.string().min(1), secret: z.boolean() }),
    operations: [
      GetCollection(), Get(), Post(),
      Get({
        name: 'book_author', uriTemplate: '/books/{id}/author',
        uriVariables: { id: link({ fromClass: 'Book', fromProperty: 'author' }) },
      }),
    ],
    provider, processor,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }),
    operations: [
      GetCollection(), Get(), Post(),
      GetCollection({
        name: 'book_tags', uriTemplate: '/books/{id}/tags',
        uriVariables: { id: link({ fromClass: 'Book', fromProperty: 'tags' }) },
      }),
    ],
    provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()), title: z.string().min(1), author: relation('Author').nullable(), tags: toMany('Tag'),
    }),
    filters: [SearchFilter({ title: 'partial' })],
    pagination: { itemsPerPage: 2 },
    operations: [
      GetCollection(), Get(), Post(),
      GetCollection({
        name: 'author_books', uriTemplate: '/authors/{authorId}/books',
        uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) },
      }),
      GetCollection({
        name: 'author_books_guarded', uriTemplate: '/authors/{authorId}/guarded_books',
        uriVariables: {
          authorId: link({
            fromClass: 'Author', toProperty: 'author',
            security: (c) => !(c.object as { secret: boolean }).secret || c.isGranted('ROLE_ADMIN'),
            securityMessage: 'This author\'s books are private.',
          }),
        },
        security: 'ROLE_USER',
      }),
    ],
    provider, processor,
  });
  return [author, tag, book];
}

describeOnEveryStore('subresources', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = basicAuthKernel(opened.resources, { admin: ['ROLE_ADMIN', 'ROLE_USER'], user: ['ROLE_USER'] });
    const post = async (url: string, body: object): Promise<string> => {
      const res = await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', LD)
        .send(JSON.stringify(body));
      expect(res.status).toBe(201);
      return String(res.body['@id']);
    };
    const ann = await post('/api/authors', { name: 'Ann', secret: false });
    const bob = await post('/api/authors', { name: 'Bob', secret: true });
    await post('/api/authors', { name: 'Cy', secret: false });
    const sf = await post('/api/tags', { name: 'sf' });
    const classic = await post('/api/tags', { name: 'classic' });
    await post('/api/tags', { name: 'unused' });
    await post('/api/books', { title: 'Dune', author: ann, tags: [sf, classic] });
    await post('/api/books', { title: 'Emma', author: bob, tags: [] });
    await post('/api/books', { title: 'Dune Messiah', author: ann, tags: [sf] });
    await post('/api/books', { title: 'Children of Dune', author: ann, tags: [] });
    await post('/api/books', { title: 'Anonymous', author: null, tags: [classic] });
  });
  afterEach(() => opened.close());

  const get = (url: string, user?: string) => {
    const r = request(kernel).get(url).set('Accept', LD);
    return user === undefined ? r : r.set('Authorization', basic(user));
  };
  const titles = (body: { 'hydra:member': Array<{ title?: string; name?: string }> }) =>
    body['hydra:member'].map((m) => m.title ?? m.name);

  test('/authors/{authorId}/books: the author\'s books, paged, filtered; @id is the subresource path', async () => {
    const res = await get('/api/authors/1/books');
    expect(res.status).toBe(200);
    expect(res.body['@id']).toBe('/api/authors/1/books');
    expect(res.body['hydra:totalItems']).toBe(3);
    expect(titles(res.body)).toEqual(['Dune', 'Dune Messiah']);
    expect(res.body['hydra:member'][0]['@id']).toBe('/api/books/1');
    expect(res.body['hydra:view']['hydra:next']).toBe('/api/authors/1/books?page=2');
    const next = await get(res.body['hydra:view']['hydra:next']);
    expect(titles(next.body)).toEqual(['Children of Dune']);
    const filtered = await get('/api/authors/1/books?title=messiah');
    expect([filtered.body['hydra:totalItems'], titles(filtered.body)]).toEqual([1, ['Dune Messiah']]);
    expect((await get('/api/authors/3/books')).body['hydra:totalItems']).toBe(0);
  });

  test('a parent that does not exist: an empty collection (API Platform\'s join), a 404 for an item', async () => {
    const none = await get('/api/authors/99/books');
    expect([none.status, none.body['hydra:totalItems']]).toEqual([200, 0]);
    expect((await get('/api/authors/x/books')).status).toBe(404);
    expect((await get('/api/books/99/author')).status).toBe(404);
    // a book without an author has no author subresource either
    expect((await get('/api/books/5/author')).status).toBe(404);
  });

  test('/books/{id}/tags through the to-many relation; /books/{id}/author, the item', async () => {
    const tags = await get('/api/books/1/tags');
    expect([tags.body['@id'], titles(tags.body)]).toEqual(['/api/books/1/tags', ['sf', 'classic']]);
    expect((await get('/api/books/2/tags')).body['hydra:totalItems']).toBe(0);
    const author = await get('/api/books/2/author').set('Accept', JSON_TYPE);
    expect(author.status).toBe(200);
    expect(author.body).toEqual({ id: 2, name: 'Bob', secret: true });
  });

  test('an item read through a subresource is named by that path (sub_resource.feature), in JSON-LD and HAL', async () => {
    const author = await get('/api/books/2/author');
    expect(author.body).toEqual({
      '@context': '/api/contexts/Author', '@id': '/api/books/2/author', '@type': 'Author', id: 2, name: 'Bob', secret: true,
    });
    // the item's own IRI stays its Content-Location (API Platform's RespondProcessor), and what relations name
    expect(author.headers['content-location']).toBe('/api/authors/2');
    expect((await get('/api/books/2')).body.author).toBe('/api/authors/2');
    const hal = await get('/api/books/2/author').set('Accept', 'application/hal+json');
    expect(hal.body._links).toEqual({ self: { href: '/api/books/2/author' } });
    // a subresource collection's members keep their own IRIs
    expect((await get('/api/books/1/tags')).body['hydra:member'].map((m: { '@id': string }) => m['@id']))
      .toEqual(['/api/tags/1', '/api/tags/2']);
  });

  test('Link security on the parent: 403 with its message, granted to an admin; 401 anonymous; 404 no parent', async () => {
    const granted = await get('/api/authors/1/guarded_books', 'user');
    expect([granted.status, granted.body.detail]).toEqual([200, undefined]);
    expect(titles(granted.body)).toEqual(['Dune', 'Dune Messiah']);
    const denied = await get('/api/authors/2/guarded_books', 'user');
    expect([denied.status, denied.body.detail]).toEqual([403, 'This author\'s books are private.']);
    expect(titles((await get('/api/authors/2/guarded_books', 'admin')).body)).toEqual(['Emma']);
    // the operation's own security: ROLE_USER
    const anonymous = await get('/api/authors/1/guarded_books');
    expect(anonymous.status).toBe(401);
    expect((await get('/api/authors/99/guarded_books', 'user')).status).toBe(404);
  });
});

describe('subresource links at start-up', () => {
  const store: StateProvider & StateProcessor = {
    provideCollection: () => { throw new Error('not used'); },
    provideItem: () => { throw new Error('not used'); },
    create: () => { throw new Error('not used'); },
    replace: () => { throw new Error('not used'); },
    remove: () => { throw new Error('not used'); },
  };
  const book = (uriVariables: Record<string, ReturnType<typeof link>>, uriTemplate = '/authors/{authorId}/books') =>
    () => defineResource({
      shortName: 'Book', schema: z.object({ author: relation('Author') }), provider: store,
      operations: [GetCollection({ uriTemplate, uriVariables })],
    });

  test('a variable not in the path, a toProperty that is no relation to fromClass, both properties', () => {
    expect(book({ authorID: link({ fromClass: 'Author', toProperty: 'author' }) }))
      .toThrow('Invalid option "resources.Book.operations[0].uriVariables.authorID": expected a placeholder');
    expect(book({ authorId: link({ fromClass: 'Author', toProperty: 'autor' }) }))
      .toThrow('expected a relation of Book to Author (author) (got "autor"); did you mean "author"?');
    expect(book({ authorId: link({ fromClass: 'Author', toProperty: 'author', fromProperty: 'books' }) }))
      .toThrow('expected one of toProperty and fromProperty');
  });

  test('a fromClass or fromProperty unknown to the API stops apiRoutes', () => {
    const author = defineResource({
      shortName: 'Author', schema: z.object({ name: z.string() }), provider: store, processor: store,
    });
    const tag = defineResource({
      shortName: 'Tag', schema: z.object({ name: z.string() }), provider: store,
      operations: [GetCollection({
        uriTemplate: '/authors/{id}/tags', uriVariables: { id: link({ fromClass: 'Author', fromProperty: 'tags' }) },
      })],
    });
    expect(() => apiRoutes({ resources: [author, tag] }))
      .toThrow('"resources.Tag.operations[0].uriVariables.id.fromProperty": expected a relation of Author to Tag');
    const lost = defineResource({
      shortName: 'Tag', schema: z.object({ name: z.string() }), provider: store,
      operations: [GetCollection({
        uriTemplate: '/authors/{id}/tags', uriVariables: { id: link({ fromClass: 'Autor', fromProperty: 'tags' }) },
      })],
    });
    expect(() => apiRoutes({ resources: [author, lost] }))
      .toThrow('"resources.Tag.operations[0].uriVariables.id.fromClass": expected a resource of the API (got "Autor"); '
        + 'did you mean "Author"?');
  });
});
