/**
 * To-many relations (issue 25 point 2, API Platform's `relatedDummies`): IRIs in, IRIs out, over
 * HTTP on every store (MemoryState, SQLite's join table, PostgreSQL's), with the filters on them
 * and the ON DELETE rules.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, ExistsFilter, readOnly, SearchFilter, toMany, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from './relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';

function define(provider: StateProvider, processor: StateProcessor) {
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }), provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({ id: readOnly(z.int()), title: z.string().min(1), tags: toMany('Tag') }),
    filters: [SearchFilter({ tags: 'exact' }), ExistsFilter(['tags'])],
    provider, processor,
  });
  return [tag, book];
}

describeOnEveryStore('to-many relations', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const send = (method: 'post' | 'put', url: string, body: object, type = JSON_TYPE) =>
    request(kernel)[method](url).set('Content-Type', type).set('Accept', type).send(JSON.stringify(body));
  const tags = async (...names: string[]): Promise<string[]> => {
    const iris: string[] = [];
    for (const name of names) iris.push(String((await send('post', '/api/tags', { name })).body.id));
    return iris.map((id) => `/api/tags/${id}`);
  };

  test('POST takes an array of IRIs and answers them, distinct and in id order; GET gives them back', async () => {
    const [sf, classic, space] = await tags('sf', 'classic', 'space');
    const res = await send('post', '/api/books', { title: 'Dune', tags: [space, sf, space] }, LD);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ '@type': 'Book', title: 'Dune', tags: [sf, space] });
    const got = await request(kernel).get(String(res.headers.location)).set('Accept', JSON_TYPE);
    expect(got.body).toEqual({ id: res.body.id, title: 'Dune', tags: [sf, space] });
    const none = await send('post', '/api/books', { title: 'Solaris' });
    expect(none.body.tags).toEqual([]);
    expect(classic).toBe('/api/tags/2');
  });

  test('JSON-LD\'s context types the property as @id; HAL lists one link per item', async () => {
    const [sf, space] = await tags('sf', 'space');
    const created = await send('post', '/api/books', { title: 'Dune', tags: [sf, space] });
    const context = await request(kernel).get('/api/contexts/Book').set('Accept', LD);
    expect(context.body['@context'].tags).toEqual({ '@id': 'Book/tags', '@type': '@id' });
    const hal = await request(kernel).get(`/api/books/${created.body.id}`).set('Accept', 'application/hal+json');
    expect(hal.body._links.tags).toEqual([{ href: sf }, { href: space }]);
    expect(hal.body.tags).toBeUndefined();
  });

  test('PUT replaces the links; PATCH (merge patch) replaces the array; [] clears it', async () => {
    const [sf, classic, space] = await tags('sf', 'classic', 'space');
    const { body } = await send('post', '/api/books', { title: 'Dune', tags: [sf] });
    const url = `/api/books/${body.id}`;
    expect((await send('put', url, { title: 'Dune', tags: [classic, space] })).body.tags).toEqual([classic, space]);
    const patched = await request(kernel).patch(url).set('Content-Type', 'application/merge-patch+json')
      .set('Accept', JSON_TYPE).send(JSON.stringify({ tags: [sf] }));
    expect(patched.body.tags).toEqual([sf]);
    const titled = await request(kernel).patch(url).set('Content-Type', 'application/merge-patch+json')
      .set('Accept', JSON_TYPE).send(JSON.stringify({ title: 'Dune (1965)' }));
    expect(titled.body).toMatchObject({ title: 'Dune (1965)', tags: [sf] });
    expect((await send('put', url, { title: 'Dune', tags: [] })).body.tags).toEqual([]);
  });

  test('bad input is a 400 naming it: not an array, not a string, not a Tag IRI, a Tag that does not exist', async () => {
    const [sf] = await tags('sf');
    const cases: Array<[unknown, string]> = [
      [sf, 'The type of the "tags" attribute must be "array", "string" given.'],
      [[sf, 2], 'Expected IRI or nested document for attribute "tags", "integer" given.'],
      [['/api/books/1'], 'Invalid IRI "/api/books/1".'],
      [[sf, '/api/tags/999'], 'Item not found for "/api/tags/999".'],
    ];
    for (const [value, detail] of cases) {
      const res = await send('post', '/api/books', { title: 'Dune', tags: value });
      expect([res.status, res.body.detail]).toEqual([400, detail]);
    }
    const list = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
    expect(list.body).toEqual([]);
  });

  test('?tags= finds the books linked to any of the tags (IRI or id); exists[tags] those with a tag or none', async () => {
    const [sf, classic, space] = await tags('sf', 'classic', 'space');
    await send('post', '/api/books', { title: 'Dune', tags: [sf, space] });
    await send('post', '/api/books', { title: 'Emma', tags: [classic] });
    await send('post', '/api/books', { title: 'Notes', tags: [] });
    const titles = async (query: string): Promise<string[]> =>
      (await request(kernel).get(`/api/books?${query}`).set('Accept', JSON_TYPE)).body
        .map((b: { title: string }) => b.title);
    expect(await titles(`tags=${encodeURIComponent(space)}`)).toEqual(['Dune']);
    expect(await titles('tags[]=1&tags[]=2')).toEqual(['Dune', 'Emma']);
    expect(await titles(`exists[tags]=false`)).toEqual(['Notes']);
    expect(await titles(`exists[tags]=true`)).toEqual(['Dune', 'Emma']);
    const ld = await request(kernel).get('/api/books?tags=3').set('Accept', LD);
    expect(ld.body['hydra:totalItems']).toBe(1);
  });

  test('ON DELETE: a tag still linked is a 409 and stays; a book takes its links with it', async () => {
    const [sf] = await tags('sf');
    const { body } = await send('post', '/api/books', { title: 'Dune', tags: [sf] });
    const refused = await request(kernel).delete(sf).set('Accept', JSON_TYPE);
    expect(refused.status).toBe(409);
    expect((await request(kernel).get(sf).set('Accept', JSON_TYPE)).status).toBe(200);
    expect((await request(kernel).delete(`/api/books/${body.id}`)).status).toBe(204);
    expect((await request(kernel).delete(sf)).status).toBe(204);
  });
});
