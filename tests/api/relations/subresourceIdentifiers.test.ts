/**
 * Subresources whose parent has a uuid or a string identifier (issue 25, API Platform's
 * `uriVariables` with `Link` on uuid.feature's and custom_identifier.feature's resources): the link
 * variable matches the parent's ids (`/authors/{uuid}/books`, `/publishers/{any segment}/books`),
 * through `toProperty`, `fromProperty` and an item's `{id}` link, with `Link.security` on the
 * parent, on every store (MemoryState, SQLite, PostgreSQL).
 */
import request from 'supertest';
import { z } from 'zod';
import {
  defineResource, Get, GetCollection, link, Post, readOnly, relation, toMany,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { basic, basicAuthKernel } from './basicAuthKernel';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const ANN = '0193a7b2-0000-7000-8000-00000000000a';
const BOB = '0193a7b2-0000-7000-8000-00000000000b';
const NOBODY = '0193a7b2-0000-7000-8000-0000000000ff';
/** A string id with what a path segment must escape: a space, a dot, a percent sign, non-ASCII. */
const PENGUIN = 'Penguin Books 100%.co.uk·é';
const user = basic('user');

function define(provider: StateProvider, processor: StateProcessor) {
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: z.uuid(), name: z.string().min(1), secret: z.boolean() }),
    provider, processor,
  });
  const publisher = defineResource({
    shortName: 'Publisher', schema: z.object({ id: z.string().max(60), name: z.string() }), provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()), title: z.string().min(1), author: relation('Author').nullable(),
      publisher: relation('Publisher').nullable(),
    }),
    operations: [
      GetCollection(), Get(), Post(),
      GetCollection({
        name: 'author_books', uriTemplate: '/authors/{authorId}/books',
        uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) },
      }),
      GetCollection({
        name: 'publisher_books', uriTemplate: '/publishers/{publisherId}/books',
        uriVariables: { publisherId: link({ fromClass: 'Publisher', toProperty: 'publisher' }) },
      }),
      GetCollection({
        name: 'stack_books', uriTemplate: '/stacks/{id}/books',
        uriVariables: { id: link({ fromClass: 'Stack', fromProperty: 'books' }) },
      }),
      GetCollection({
        name: 'author_public_books', uriTemplate: '/authors/{authorId}/public_books',
        uriVariables: {
          authorId: link({
            fromClass: 'Author', toProperty: 'author',
            security: (c) => !(c.object as { secret: boolean }).secret,
            securityMessage: 'This author\'s books are private.',
          }),
        },
      }),
      Get({
        name: 'review_book', uriTemplate: '/reviews/{id}/book',
        uriVariables: { id: link({ fromClass: 'Review', fromProperty: 'book' }) },
      }),
    ],
    provider, processor,
  });
  const stack = defineResource({
    shortName: 'Stack', schema: z.object({ id: z.string().max(60), books: toMany('Book') }), provider, processor,
  });
  const review = defineResource({
    shortName: 'Review', schema: z.object({ id: readOnly(z.uuid()), book: relation('Book') }), provider, processor,
  });
  return [author, publisher, book, stack, review];
}

describeOnEveryStore('subresources of uuid and string parents', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  let review: string;
  beforeEach(async () => {
    opened = await open();
    kernel = basicAuthKernel(opened.resources, { user: ['ROLE_USER'] });
    const post = async (url: string, body: object): Promise<Record<string, unknown>> => {
      const res = await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', LD)
        .send(JSON.stringify(body));
      expect([res.status, res.body.detail]).toEqual([201, undefined]);
      return res.body as Record<string, unknown>;
    };
    await post('/api/authors', { id: ANN, name: 'Ann', secret: false });
    await post('/api/authors', { id: BOB, name: 'Bob', secret: true });
    const penguin = await post('/api/publishers', { id: PENGUIN, name: 'Penguin' });
    await post('/api/publishers', { id: 'faber', name: 'Faber' });
    const dune = await post('/api/books', { title: 'Dune', author: `/api/authors/${ANN}`, publisher: penguin['@id'] });
    await post('/api/books', { title: 'Emma', author: `/api/authors/${BOB}`, publisher: null });
    const messiah = await post('/api/books', {
      title: 'Dune Messiah', author: `/api/authors/${ANN}`, publisher: penguin['@id'],
    });
    await post('/api/stacks', { id: 'sci-fi.2024 top', books: [dune['@id'], messiah['@id']] });
    review = String((await post('/api/reviews', { book: messiah['@id'] })).id);
  });
  afterEach(() => opened.close());

  const get = (url: string) => request(kernel).get(url).set('Accept', LD);
  const titles = (res: { body: { 'hydra:member'?: Array<{ title: string }> } }) =>
    (res.body['hydra:member'] ?? []).map((m) => m.title);

  test('/authors/{uuid}/books: the uuid author\'s books, in either case; a non-UUID is a 404', async () => {
    const books = await get(`/api/authors/${ANN}/books`);
    expect([books.status, books.body['@id'], titles(books)])
      .toEqual([200, `/api/authors/${ANN}/books`, ['Dune', 'Dune Messiah']]);
    expect(titles(await get(`/api/authors/${BOB.toUpperCase()}/books`))).toEqual(['Emma']);
    const nobody = await get(`/api/authors/${NOBODY}/books`);
    expect([nobody.status, nobody.body['hydra:totalItems']]).toEqual([200, 0]);
    expect((await get('/api/authors/1/books')).status).toBe(404);
  });

  test('/publishers/{string id}/books and /stacks/{string id}/books (fromProperty), escaped in the URL', async () => {
    const books = await get(`/api/publishers/${encodeURIComponent(PENGUIN)}/books`);
    expect([books.status, titles(books)]).toEqual([200, ['Dune', 'Dune Messiah']]);
    expect(titles(await get('/api/publishers/faber/books'))).toEqual([]);
    const stack = await get(`/api/stacks/${encodeURIComponent('sci-fi.2024 top')}/books`);
    expect([stack.status, titles(stack)]).toEqual([200, ['Dune', 'Dune Messiah']]);
    expect((await get('/api/stacks/nothing-here/books')).body['hydra:totalItems']).toBe(0);
  });

  test('/reviews/{uuid}/book: the item a uuid parent points to; 404 for a review that does not exist', async () => {
    const book = await get(`/api/reviews/${review}/book`).set('Accept', JSON_TYPE);
    expect([book.status, book.body.title]).toEqual([200, 'Dune Messiah']);
    expect((await get(`/api/reviews/${NOBODY}/book`)).status).toBe(404);
  });

  test('Link security on a uuid parent: granted, 403 with its message, 404 for no parent', async () => {
    const granted = await get(`/api/authors/${ANN}/public_books`).set('Authorization', user);
    expect([granted.status, titles(granted)]).toEqual([200, ['Dune', 'Dune Messiah']]);
    const denied = await get(`/api/authors/${BOB}/public_books`).set('Authorization', user);
    expect([denied.status, denied.body.detail]).toEqual([403, 'This author\'s books are private.']);
    expect((await get(`/api/authors/${NOBODY}/public_books`).set('Authorization', user)).status).toBe(404);
  });
});
