/**
 * Composite identifiers (issue 25 point 3, API Platform 3.4's features/main/composite.feature and
 * its CompositePrimitiveItem): a resource identified by several properties (`identifiers:
 * ['name', 'year']`) is at `/api/composite_primitive_items/name=Bar;year=2017`; the parts in any
 * order name it, a partial or malformed id is a 404; Get, Post, Put (and a Put that creates),
 * Patch, Delete; a relation to it takes and gives that IRI; the SQL stores' primary key is the
 * parts' columns. On MemoryState, SQLite and PostgreSQL.
 */
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Delete, Get, GetCollection, Patch, Post, Put, relation,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const MERGE = 'application/merge-patch+json';
const BAR = '/api/composite_primitive_items/name=Bar;year=2017';

function define(provider: StateProvider, processor: StateProcessor) {
  const item = defineResource({
    shortName: 'CompositePrimitiveItem',
    schema: z.object({ name: z.string().max(40), year: z.int(), description: z.string() }),
    identifiers: ['name', 'year'],
    operations: [GetCollection(), Get(), Post(), Put({ allowCreate: true }), Patch(), Delete()],
    provider, processor,
  });
  const review = defineResource({
    shortName: 'Review', schema: z.object({ item: relation('CompositePrimitiveItem'), stars: z.int() }),
    provider, processor,
  });
  return [item, review];
}

describeOnEveryStore('composite identifiers', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const send = (method: 'post' | 'put' | 'patch', url: string, body: object, type = JSON_TYPE) =>
    request(kernel)[method](url).set('Content-Type', type).set('Accept', type === MERGE ? JSON_TYPE : type)
      .send(JSON.stringify(body));
  const get = (url: string) => request(kernel).get(url).set('Accept', LD);
  const bar = () => send('post', '/api/composite_primitive_items', { name: 'Bar', year: 2017, description: 'Bar' });

  test('a POST makes the id of the parts: its @id, Location and GET are name=Bar;year=2017, no id property', async () => {
    const res = await send('post', '/api/composite_primitive_items',
      { name: 'Bar', year: 2017, description: 'This is bar.' }, LD);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(BAR);
    expect(res.body).toEqual({
      '@context': '/api/contexts/CompositePrimitiveItem', '@id': BAR, '@type': 'CompositePrimitiveItem',
      name: 'Bar', year: 2017, description: 'This is bar.',
    });
    const got = await get(BAR);
    expect(got.status).toBe(200);
    expect(got.body['@id']).toBe(BAR);
    expect(got.body.description).toBe('This is bar.');
    const list = await get('/api/composite_primitive_items');
    expect(list.body['hydra:member'].map((m: { '@id': string }) => m['@id'])).toEqual([BAR]);
  });

  test('the parts in reverse order name the item (composite.feature); its @id is the canonical one', async () => {
    await bar();
    const got = await get('/api/composite_primitive_items/year=2017;name=Bar');
    expect(got.status).toBe(200);
    expect(got.body['@id']).toBe(BAR);
  });

  test('a partial, malformed or unknown id is a 404, never a 500 (composite.feature: compositeLabel=1;)', async () => {
    await bar();
    for (const id of ['name=Bar;', 'name=Bar', 'year=2017', 'name=Bar;year=abc', 'name=Bar;year=2017;x=1',
      'name=Bar;name=Bar', 'Bar;2017', 'name=Bar;year=99999999999', 'name=Bar;year=2016', `name=${'x'.repeat(41)};year=1`]) {
      const res = await get(`/api/composite_primitive_items/${encodeURIComponent(id).replace(/%3[BD]/g, decodeURIComponent)}`);
      expect([id, res.status]).toEqual([id, 404]);
    }
  });

  test('the same parts twice is a 422; a ";" in a part is a 422 on that property', async () => {
    await bar();
    const twice = await bar();
    expect(twice.status).toBe(422);
    const semicolon = await send('post', '/api/composite_primitive_items', { name: 'a;b', year: 1, description: '' });
    expect(semicolon.status).toBe(422);
    expect(semicolon.body.violations).toEqual([expect.objectContaining({ propertyPath: 'name' })]);
    const missing = await send('post', '/api/composite_primitive_items', { name: 'Foo', description: '' });
    expect(missing.status).toBe(422);
    expect(missing.body.violations).toEqual([expect.objectContaining({ propertyPath: 'year' })]);
  });

  test('Put and Patch change the other properties; the parts stay the URL\'s; Delete removes it', async () => {
    await bar();
    const put = await send('put', BAR, { name: 'Moved', year: 1999, description: 'Replaced' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ name: 'Bar', year: 2017, description: 'Replaced' });
    const patch = await send('patch', BAR, { description: 'Patched', year: 3 }, MERGE);
    expect(patch.status).toBe(200);
    expect(patch.body).toEqual({ name: 'Bar', year: 2017, description: 'Patched' });
    expect((await get('/api/composite_primitive_items')).body['hydra:totalItems']).toBe(1);
    expect((await request(kernel).delete(BAR)).status).toBe(204);
    expect((await get(BAR)).status).toBe(404);
  });

  test('a Put that creates takes the parts of its URL', async () => {
    const res = await send('put', '/api/composite_primitive_items/year=1984;name=Orwell', { description: 'Novel' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/api/composite_primitive_items/name=Orwell;year=1984');
    expect(res.body).toEqual({ name: 'Orwell', year: 1984, description: 'Novel' });
    expect((await get('/api/composite_primitive_items/name=Orwell;year=1984')).status).toBe(200);
  });

  test('a relation to a composite-identified item takes its IRI and gives it back', async () => {
    await bar();
    const review = await send('post', '/api/reviews', { item: '/api/composite_primitive_items/name=Bar;year=2017', stars: 4 });
    expect(review.status).toBe(201);
    expect(review.body.item).toBe(BAR);
    const unknown = await send('post', '/api/reviews', { item: '/api/composite_primitive_items/name=Foo;year=2017', stars: 1 });
    expect(unknown.status).toBe(400);
    // a referenced item cannot go
    expect((await request(kernel).delete(BAR)).status).toBe(409);
  });

  test('a store given no id (the back office\'s create) makes it of the parts', async () => {
    const [item] = opened.resources;
    const made = await item.processor!.create(item.metadata, { name: 'Baz', year: 2001, description: 'Made' });
    expect(made).toMatchObject({ status: 'ok' });
    const got = await get('/api/composite_primitive_items/name=Baz;year=2001');
    expect([got.status, got.body.description]).toEqual([200, 'Made']);
  });

  test('any text after the collection path is a 404 or the item, never a 500 (fast-check)', async () => {
    await bar();
    const piece = fc.oneof(fc.constantFrom('name', 'year', 'Bar', '2017', '=', ';', '-1', '', '%', '%3B', '%00'),
      fc.string({ maxLength: 6 }));
    await fc.assert(fc.asyncProperty(fc.array(piece, { maxLength: 6 }), async (pieces) => {
      const text = pieces.join('');
      if (text === '') return; // the collection's path with a slash: Symfony's redirect
      let path: string;
      try {
        path = encodeURI(text).replace(/[?#/]/g, encodeURIComponent);
      } catch {
        return; // a lone surrogate: no URL
      }
      const res = await request(kernel).get(`/api/composite_primitive_items/${path}`).set('Accept', JSON_TYPE);
      expect([200, 404]).toContain(res.status);
      if (res.status === 200) expect(res.body).toMatchObject({ name: 'Bar', year: 2017 });
    }), { numRuns: 60 });
  });
});
