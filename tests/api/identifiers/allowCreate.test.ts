/**
 * A PUT that creates (issue 25 point 3, API Platform 3.4's `Put({ allowCreate: true })`,
 * standard_put.feature): a PUT to an id that names no item creates it at that id (201 Created,
 * `Location`), for integer, uuid and string identifiers; without the option a 404. `security`
 * sees `object` null, `securityPostDenormalize` `previousObject` null; `If-Match` on an absent
 * item and `If-None-Match: *` on a present one are 412s (RFC 9110 §13.1). On MemoryState, SQLite
 * and PostgreSQL.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Get, GetCollection, Post, Put, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const UUID = 'fbcf5910-d915-4f7d-ba39-6b2957c57335';

/** What the security rules of `Room`'s Put saw, in order. */
const seen: { object: unknown; previousObject?: unknown; name?: unknown }[] = [];

function define(provider: StateProvider, processor: StateProcessor) {
  const creating = [Get(), GetCollection(), Post(), Put({ allowCreate: true })];
  const note = defineResource({
    shortName: 'Note', schema: z.object({ text: z.string() }), provider, processor, operations: creating,
  });
  const memo = defineResource({ shortName: 'Memo', schema: z.object({ text: z.string() }), provider, processor });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: z.string().regex(/^[a-z-]+$/), name: z.string() }),
    provider, processor, operations: creating,
  });
  const uid = defineResource({
    shortName: 'UidIdentified', schema: z.object({ id: z.uuid(), name: z.string() }),
    provider, processor, operations: creating,
  });
  const shelf = defineResource({
    shortName: 'Room', schema: z.object({ name: z.string() }), provider, processor,
    operations: [Get(), Put({
      allowCreate: true,
      security: ({ object }) => {
        seen.push({ object });
        return true;
      },
      securityPostDenormalize: ({ object, previousObject }) => {
        seen.push({ object: 'denormalized', previousObject, name: (object as { name?: unknown }).name });
        return (object as { name?: unknown }).name !== 'forbidden';
      },
    })],
  });
  return [note, memo, tag, uid, shelf];
}

describeOnEveryStore('a PUT that creates (allowCreate)', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    seen.length = 0;
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const put = (url: string, body: object, type = LD, headers: Record<string, string> = {}) => {
    let r = request(kernel).put(url).set('Content-Type', type).set('Accept', type);
    for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
    return r.send(JSON.stringify(body));
  };

  test('an integer id: created at the URL\'s id (201, Location), replaced on the next PUT (200); '
    + 'later POSTs continue past it', async () => {
    const created = await put('/api/notes/5', { text: 'a' });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/api/notes/5');
    expect(created.body).toMatchObject({ '@id': '/api/notes/5', '@type': 'Note', id: 5, text: 'a' });
    const replaced = await put('/api/notes/5', { text: 'c' });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.location).toBeUndefined();
    expect(replaced.body).toMatchObject({ id: 5, text: 'c' });
    const posted = await request(kernel).post('/api/notes').set('Content-Type', JSON_TYPE)
      .send(JSON.stringify({ text: 'next' }));
    expect(posted.status).toBe(201);
    expect(posted.body.id).toBe(6);
    const list = await request(kernel).get('/api/notes').set('Accept', JSON_TYPE);
    expect(list.body.map((n: { id: number }) => n.id)).toEqual([5, 6]);
  });

  test('a JSON-LD body may name the created item\'s own @id; another one is a 400', async () => {
    const own = await put('/api/notes/6', { '@id': '/api/notes/6', '@type': 'Note', text: 'a' });
    expect(own.status).toBe(201);
    expect(own.body['@id']).toBe('/api/notes/6');
    const other = await put('/api/notes/7', { '@id': '/api/notes/6', text: 'a' });
    expect(other.status).toBe(400);
    expect(other.body.detail).toContain('/api/notes/6');
    const elsewhere = await put('/api/notes/7', { '@id': '/api/memos/7', text: 'a' });
    expect(elsewhere.status).toBe(400);
    expect((await request(kernel).get('/api/notes/7')).status).toBe(404);
  });

  test('without allowCreate, a PUT to an unknown id is a 404 and creates nothing', async () => {
    const res = await put('/api/memos/3', { text: 'a' });
    expect(res.status).toBe(404);
    expect((await request(kernel).get('/api/memos/3')).status).toBe(404);
  });

  test('a uuid id (standard_put.feature\'s UidIdentified): created at the URL\'s UUID', async () => {
    const res = await put(`/api/uid_identifieds/${UUID.toUpperCase()}`, { name: 'test' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/api/uid_identifieds/${UUID}`);
    expect(res.body).toMatchObject({ '@id': `/api/uid_identifieds/${UUID}`, id: UUID, name: 'test' });
    const again = await put(`/api/uid_identifieds/${UUID}`, { name: 'bar' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: UUID, name: 'bar' });
  });

  test('a string id: created at the URL\'s id, which the body\'s id does not change; '
    + 'one the schema refuses names no item (404)', async () => {
    const res = await put('/api/tags/science-fiction', { id: 'other', name: 'SF' }, JSON_TYPE);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/api/tags/science-fiction');
    expect(res.body).toEqual({ id: 'science-fiction', name: 'SF' });
    expect((await request(kernel).get('/api/tags/other')).status).toBe(404);
    const refused = await put('/api/tags/Not%20A%20Slug', { name: 'x' }, JSON_TYPE);
    expect(refused.status).toBe(404);
  });

  test('an integer id beyond the store\'s column (2^31 - 1) names no item: a 404, not a 500', async () => {
    expect((await put('/api/notes/2147483648', { text: 'a' }, JSON_TYPE)).status).toBe(404);
    expect((await request(kernel).get('/api/notes/2147483648')).status).toBe(404);
    expect((await put('/api/notes/2147483647', { text: 'a' }, JSON_TYPE)).status).toBe(201);
  });

  test('security sees object null on a create, securityPostDenormalize previousObject null (denied: 401 when anonymous)', async () => {
    const denied = await put('/api/rooms/1', { name: 'forbidden' }, JSON_TYPE);
    expect(denied.status).toBe(401);
    expect((await request(kernel).get('/api/rooms/1')).status).toBe(404);
    expect(seen).toEqual([{ object: null }, { object: 'denormalized', previousObject: null, name: 'forbidden' }]);
    seen.length = 0;
    expect((await put('/api/rooms/1', { name: 'top' }, JSON_TYPE)).status).toBe(201);
    expect((await put('/api/rooms/1', { name: 'middle' }, JSON_TYPE)).status).toBe(200);
    expect(seen[2]).toEqual({ object: expect.objectContaining({ id: 1, name: 'top' }) });
    expect(seen[3]).toEqual({
      object: 'denormalized', previousObject: expect.objectContaining({ name: 'top' }), name: 'middle',
    });
  });

  test('If-Match on an absent item is a 412 and creates nothing; If-None-Match: * creates only', async () => {
    const matched = await put('/api/notes/9', { text: 'a' }, JSON_TYPE, { 'If-Match': '*' });
    expect(matched.status).toBe(412);
    expect((await request(kernel).get('/api/notes/9')).status).toBe(404);
    const first = await put('/api/notes/9', { text: 'a' }, JSON_TYPE, { 'If-None-Match': '*' });
    expect(first.status).toBe(201);
    const second = await put('/api/notes/9', { text: 'b' }, JSON_TYPE, { 'If-None-Match': '*' });
    expect(second.status).toBe(412);
    expect(second.headers.etag).toBe(first.headers.etag);
    const kept = await request(kernel).get('/api/notes/9').set('Accept', JSON_TYPE);
    expect(kept.body.text).toBe('a');
    // and If-Match with the current tag replaces as before
    const replaced = await put('/api/notes/9', { text: 'c' }, JSON_TYPE, { 'If-Match': first.headers.etag });
    expect(replaced.status).toBe(200);
  });

  test('the OpenAPI document lists the 201 and If-None-Match of a Put that creates, not of one that does not',
    async () => {
      const doc = (await request(kernel).get('/api/docs.json')).body as {
        paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string }[] }>>;
      };
      const creates = doc.paths['/notes/{id}'].put;
      expect(Object.keys(creates.responses)).toEqual(expect.arrayContaining(['200', '201', '409', '412']));
      expect(creates.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['If-Match', 'If-None-Match']));
      expect(Object.keys(doc.paths['/memos/{id}'].put.responses)).not.toContain('201');
    });

  test('allowCreate is a Put option only', () => {
    expect(() => defineResource({
      shortName: 'Bad', schema: z.object({ text: z.string() }), provider: opened.resources[0].provider!,
      operations: [Post({ allowCreate: true })],
    })).toThrow(/allowCreate.*only Put/);
  });
});
