/**
 * UUID and string identifiers (issue 25 point 3, API Platform's uuid.feature and
 * custom_identifier.feature): the schema's `id` chooses the type; IRIs, 404s for malformed ids,
 * client ids on POST, relations (to-one and to-many) to such resources, the `id` route
 * requirement, on every store (MemoryState, SQLite, PostgreSQL).
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, readOnly, relation, SearchFilter, toMany, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISBN = /^97[89]\d{10}$/;

function define(provider: StateProvider, processor: StateProcessor) {
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: z.uuid(), name: z.string().min(1) }), provider, processor,
  });
  const label = defineResource({
    shortName: 'Label', schema: z.object({ id: z.string().max(40), name: z.string() }),
    provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: z.string().regex(ISBN), title: z.string().min(1), author: relation('Author').nullable(),
      labels: toMany('Label'),
    }),
    filters: [SearchFilter({ author: 'exact', labels: 'exact' })],
    provider, processor,
  });
  const review = defineResource({
    shortName: 'Review', schema: z.object({ id: readOnly(z.uuid()), book: relation('Book'), stars: z.int() }),
    provider, processor,
  });
  return [author, label, book, review];
}

describeOnEveryStore('uuid and string identifiers', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const send = (method: 'post' | 'put', url: string, body: object, type = JSON_TYPE) =>
    request(kernel)[method](url).set('Content-Type', type).set('Accept', type).send(JSON.stringify(body));

  test('a uuid resource: the store picks a v7 UUID; the IRI, Location and GET use it', async () => {
    const res = await send('post', '/api/authors', { name: 'Ursula' }, LD);
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(UUID_V7);
    expect(res.body['@id']).toBe(`/api/authors/${res.body.id}`);
    expect(res.headers.location).toBe(`/api/authors/${res.body.id}`);
    const got = await request(kernel).get(`/api/authors/${res.body.id}`).set('Accept', JSON_TYPE);
    expect(got.body).toEqual({ id: res.body.id, name: 'Ursula' });
    // as Ramsey's Uuid reads it: the upper-case form names the same item
    const upper = await request(kernel).get(`/api/authors/${String(res.body.id).toUpperCase()}`).set('Accept', JSON_TYPE);
    expect(upper.status).toBe(200);
    expect(upper.body.id).toBe(res.body.id);
  });

  test('a uuid resource takes the client\'s UUID on POST (uuid.feature), a bad one is a 400', async () => {
    const id = '41b29566-144b-11e6-a148-3e1d05defe78';
    const res = await send('post', '/api/authors', { id: id.toUpperCase(), name: 'My Dummy' }, LD);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/authors/${id}`);
    expect(res.body.id).toBe(id);
    const bad = await send('post', '/api/authors', { id: '41b29566-144b-e1d05defe78', name: 'x' });
    expect(bad.status).toBe(400);
    const twice = await send('post', '/api/authors', { id, name: 'again' });
    expect(twice.status).toBe(422);
    expect(twice.body.violations).toEqual([expect.objectContaining({ propertyPath: 'id' })]);
  });

  test('a readOnly uuid is always the store\'s', async () => {
    const book = await send('post', '/api/books', { id: '9780262033848', title: 'CLRS' });
    const res = await send('post', '/api/reviews', {
      id: '41b29566-144b-11e6-a148-3e1d05defe78', book: `/api/books/${book.body.id}`, stars: 5,
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(UUID_V7);
  });

  test('a malformed id in the URL is a 404 (uuid.feature: a bad Ramsey Uuid)', async () => {
    const notUuid = await request(kernel).get('/api/authors/41B29566-144B-E1D05DEFE78').set('Accept', JSON_TYPE);
    expect(notUuid.status).toBe(404);
    const missing = await request(kernel).get('/api/authors/41b29566-144b-11e6-a148-3e1d05defe78')
      .set('Accept', JSON_TYPE);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/json/);
    // a string id its schema refuses names no item
    const notIsbn = await request(kernel).get('/api/books/12345').set('Accept', JSON_TYPE);
    expect(notIsbn.status).toBe(404);
  });

  test('a string resource: the client chooses the id on POST; missing, refused or taken is a 422', async () => {
    const res = await send('post', '/api/books', { id: '9780262033848', title: 'CLRS' }, LD);
    expect(res.status).toBe(201);
    expect(res.body['@id']).toBe('/api/books/9780262033848');
    expect(res.body.id).toBe('9780262033848');
    const got = await request(kernel).get('/api/books/9780262033848').set('Accept', JSON_TYPE);
    expect(got.body).toEqual({ id: '9780262033848', title: 'CLRS', author: null, labels: [] });
    const none = await send('post', '/api/books', { title: 'No id' });
    expect(none.status).toBe(422);
    expect(none.body.violations).toEqual([expect.objectContaining({ propertyPath: 'id' })]);
    const refused = await send('post', '/api/books', { id: '12345', title: 'Bad' });
    expect(refused.status).toBe(422);
    expect(refused.body.violations).toEqual([expect.objectContaining({ propertyPath: 'id' })]);
    const taken = await send('post', '/api/books', { id: '9780262033848', title: 'Again' });
    expect(taken.status).toBe(422);
    expect(taken.body.violations).toEqual([
      { propertyPath: 'id', message: 'This value is already used.', code: 'not_unique' },
    ]);
    const number = await send('post', '/api/books', { id: 9780262033848, title: 'Typed' });
    expect(number.status).toBe(400);
    // the first one is untouched
    expect((await request(kernel).get('/api/books/9780262033848').set('Accept', JSON_TYPE)).body.title).toBe('CLRS');
  });

  test('PUT, PATCH and DELETE reach a string id; an edit keeps it', async () => {
    await send('post', '/api/labels', { id: 'sci-fi', name: 'SF' });
    const put = await send('put', '/api/labels/sci-fi', { id: 'other', name: 'Science fiction' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ id: 'sci-fi', name: 'Science fiction' });
    const patched = await request(kernel).patch('/api/labels/sci-fi').set('Content-Type', 'application/merge-patch+json')
      .set('Accept', JSON_TYPE).send(JSON.stringify({ name: 'SF' }));
    expect(patched.body).toEqual({ id: 'sci-fi', name: 'SF' });
    expect((await request(kernel).delete('/api/labels/sci-fi')).status).toBe(204);
    expect((await request(kernel).get('/api/labels/sci-fi').set('Accept', JSON_TYPE)).status).toBe(404);
  });

  test('relations to uuid and string resources: IRIs in and out, filters by IRI or id, 400s', async () => {
    const author = (await send('post', '/api/authors', { name: 'Ursula' })).body.id as string;
    await send('post', '/api/labels', { id: 'sf', name: 'SF' });
    await send('post', '/api/labels', { id: 'classic', name: 'Classic' });
    const res = await send('post', '/api/books', {
      id: '9780441478125', title: 'The Left Hand of Darkness', author: `/api/authors/${author}`,
      labels: ['/api/labels/sf', '/api/labels/classic'],
    }, LD);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ author: `/api/authors/${author}`, labels: ['/api/labels/classic', '/api/labels/sf'] });
    await send('post', '/api/books', { id: '9780262033848', title: 'CLRS' });
    const byAuthor = await request(kernel).get(`/api/books?author=${author}`).set('Accept', LD);
    expect(byAuthor.body['hydra:member'].map((b: { id: string }) => b.id)).toEqual(['9780441478125']);
    const byIri = await request(kernel).get(`/api/books?author=${encodeURIComponent(`/api/authors/${author}`)}`)
      .set('Accept', LD);
    expect(byIri.body['hydra:totalItems']).toBe(1);
    const byLabel = await request(kernel).get('/api/books?labels=classic').set('Accept', LD);
    expect(byLabel.body['hydra:totalItems']).toBe(1);
    const missing = await send('post', '/api/books', {
      id: '9780000000002', title: 'x', author: '/api/authors/41b29566-144b-11e6-a148-3e1d05defe78',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/Item not found/);
    const malformed = await send('post', '/api/books', { id: '9780000000002', title: 'x', author: '/api/authors/3' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/Invalid IRI/);
    const noLabel = await send('post', '/api/books', { id: '9780000000002', title: 'x', labels: ['/api/labels/nope'] });
    expect(noLabel.status).toBe(400);
    // a label still linked cannot go; a book's review keeps it
    expect((await request(kernel).delete('/api/labels/sf')).status).toBe(409);
  });

  test('a string id with characters to escape round-trips through its percent-encoded IRI', async () => {
    const id = 'Science fiction & ü?#%';
    const res = await send('post', '/api/labels', { id, name: 'x' }, LD);
    expect(res.status).toBe(201);
    const iri = `/api/labels/${encodeURIComponent(id)}`;
    expect(res.body['@id']).toBe(iri);
    expect(res.headers.location).toBe(iri);
    const got = await request(kernel).get(iri).set('Accept', JSON_TYPE);
    expect(got.body).toEqual({ id, name: 'x' });
    const book = await send('post', '/api/books', { id: '9780262033848', title: 'CLRS', labels: [iri] });
    expect(book.body.labels).toEqual([iri]);
    const slash = await send('post', '/api/labels', { id: 'a/b', name: 'x' });
    expect(slash.status).toBe(422);
  });
});
