/**
 * Embeddable value objects (issue 25 point 3; Doctrine embeddables, API Platform's
 * EmbeddedDummy/EmbeddableDummy and its Behat scenarios on `embeddedDummy.dummyName`): an
 * `embeddable()` property is written and read as a nested object, validated field by field,
 * merged by PATCH and replaced by PUT, stored as a column per field on SQL (`address_city`),
 * filtered and ordered by dotted paths (`address.city`), on every store (MemoryState, SQLite,
 * PostgreSQL).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, DateFilter, defineResource, embeddable, ExistsFilter, MemoryState, OrderFilter, RangeFilter, readOnly,
  SearchFilter, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const JSON_TYPE = 'application/json';
const LD = 'application/ld+json';
const MERGE = 'application/merge-patch+json';

const ADDRESS = embeddable(z.object({
  street: z.string().min(1),
  city: z.string().min(1),
  zip: z.int().optional(),
  since: z.iso.date().optional(),
}), { name: 'Address' });

function define(provider: StateProvider, processor: StateProcessor) {
  return [defineResource({
    shortName: 'Customer',
    schema: z.object({ id: readOnly(z.int()), name: z.string(), address: ADDRESS.nullable() }),
    filters: [
      SearchFilter({ 'address.city': 'exact', 'address.street': 'partial' }),
      OrderFilter(['address.city', 'address.since', 'name']),
      RangeFilter(['address.zip']),
      DateFilter(['address.since']),
      ExistsFilter(['address', 'address.since']),
    ],
    provider, processor,
  })];
}

describeOnEveryStore('embeddable value objects', define, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const send = (method: 'post' | 'put' | 'patch', url: string, body: unknown, type = JSON_TYPE) =>
    request(kernel)[method](url).set('Content-Type', type).set('Accept', type === MERGE ? JSON_TYPE : type)
      .send(JSON.stringify(body));
  const ids = async (query: string): Promise<unknown[]> => {
    const res = await request(kernel).get(`/api/customers?${query}`).set('Accept', JSON_TYPE);
    expect(res.status).toBe(200);
    return (res.body as Array<{ id: number }>).map((c) => c.id);
  };

  test('a nested object in and out, every field (null when empty); no address is null', async () => {
    const res = await send('post', '/api/customers', {
      name: 'Ann', address: { street: '1 rue de Rivoli', city: 'Paris', since: '2020-02-29' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: 1, name: 'Ann', address: { street: '1 rue de Rivoli', city: 'Paris', zip: null, since: '2020-02-29' },
    });
    const got = await request(kernel).get('/api/customers/1').set('Accept', JSON_TYPE);
    expect(got.body).toEqual(res.body);
    const none = await send('post', '/api/customers', { name: 'Bob' });
    expect(none.body.address).toBeNull();
    expect((await request(kernel).get('/api/customers/2').set('Accept', JSON_TYPE)).body.address).toBeNull();
  });

  test('JSON-LD writes the value object with its @type and no @id (API Platform\'s embeddable)', async () => {
    await send('post', '/api/customers', { name: 'Ann', address: { street: 'Main St', city: 'Oslo', zip: 150 } });
    const got = await request(kernel).get('/api/customers/1').set('Accept', LD);
    expect(got.body.address).toEqual({ '@type': 'Address', street: 'Main St', city: 'Oslo', zip: 150, since: null });
    // what the API wrote, sent back, is accepted (a null field its schema does not take reads as absent)
    const back = await send('put', '/api/customers/1', { name: 'Ann', address: got.body.address }, LD);
    expect(back.status).toBe(200);
    expect(back.body.address).toEqual(got.body.address);
  });

  test('validation per field: a 422 names address.city; a field of the wrong type is a 400', async () => {
    const missing = await send('post', '/api/customers', { name: 'Ann', address: { street: 'Main St' } });
    expect(missing.status).toBe(422);
    expect(missing.body.violations).toEqual([expect.objectContaining({ propertyPath: 'address.city' })]);
    const empty = await send('post', '/api/customers', { name: 'Ann', address: { street: '', city: 'Oslo' } });
    expect(empty.status).toBe(422);
    expect(empty.body.violations).toEqual([expect.objectContaining({ propertyPath: 'address.street' })]);
    const badDate = await send('post', '/api/customers', {
      name: 'Ann', address: { street: 'a', city: 'b', since: '2021-02-30' },
    });
    expect(badDate.status).toBe(422);
    expect(badDate.body.violations).toEqual([expect.objectContaining({ propertyPath: 'address.since' })]);
    const type = await send('post', '/api/customers', { name: 'Ann', address: { street: 'a', city: 7 } });
    expect(type.status).toBe(400);
    expect(type.body.detail).toBe('The type of the "address.city" attribute must be "string", "integer" given.');
    const notObject = await send('post', '/api/customers', { name: 'Ann', address: 'Paris' });
    expect(notObject.status).toBe(400);
    expect(notObject.body.detail).toBe('The type of the "address" attribute must be "Address", "string" given.');
  });

  test('PATCH merges inside the object; PUT replaces it', async () => {
    await send('post', '/api/customers', { name: 'Ann', address: { street: 'Main St', city: 'Oslo', zip: 150 } });
    const patched = await send('patch', '/api/customers/1', { address: { city: 'Bergen' } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.body.address).toEqual({ street: 'Main St', city: 'Bergen', zip: 150, since: null });
    const removed = await send('patch', '/api/customers/1', { address: { zip: null } }, MERGE);
    expect(removed.body.address).toEqual({ street: 'Main St', city: 'Bergen', zip: null, since: null });
    const put = await send('put', '/api/customers/1', { name: 'Ann', address: { street: 'Storgata', city: 'Bergen' } });
    expect(put.body.address).toEqual({ street: 'Storgata', city: 'Bergen', zip: null, since: null });
    const cleared = await send('patch', '/api/customers/1', { address: null }, MERGE);
    expect(cleared.body.address).toBeNull();
    const stored = await request(kernel).get('/api/customers/1').set('Accept', JSON_TYPE);
    expect(stored.body.address).toBeNull();
  });

  test('filters and orders on the fields by dotted path, as embeddable.feature\'s embeddedDummy.dummyName', async () => {
    const rows = [
      { name: 'Ann', address: { street: '1 rue de Rivoli', city: 'Paris', zip: 75001, since: '2020-01-01' } },
      { name: 'Bob', address: { street: 'Main St', city: 'Oslo', zip: 150 } },
      { name: 'Cid' },
      { name: 'Dan', address: { street: '9 rue Oberkampf', city: 'Paris', zip: 75011, since: '2010-06-30' } },
    ];
    for (const row of rows) expect((await send('post', '/api/customers', row)).status).toBe(201);
    expect(await ids('address.city=Paris')).toEqual([1, 4]);
    expect(await ids('address.street=RUE')).toEqual([1, 4]);
    expect(await ids('address.zip[gte]=1000')).toEqual([1, 4]);
    expect(await ids('address.zip[lt]=1000')).toEqual([2]);
    expect(await ids('address.since[after]=2015-01-01')).toEqual([1]);
    expect(await ids('exists[address]=false')).toEqual([3]);
    expect(await ids('exists[address]=true')).toEqual([1, 2, 4]);
    expect(await ids('exists[address.since]=true')).toEqual([1, 4]);
    // nulls first ascending, as on every order
    expect(await ids('order[address.city]=asc&order[name]=desc')).toEqual([3, 2, 4, 1]);
    expect(await ids('order[address.since]=desc')).toEqual([1, 4, 2, 3]);
    const view = await request(kernel).get('/api/customers?address.city=Paris&order[address.city]=asc')
      .set('Accept', LD);
    expect(view.body['hydra:view']['@id']).toBe('/api/customers?address.city=Paris&order%5Baddress.city%5D=asc');
  });
});

describe('embeddable columns on SQLite', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-embeddable-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a column per field named <property>_<field> (Doctrine\'s prefix), all null for a null value', async () => {
    const file = path.join(dir, 'columns.sqlite');
    const store = createSqlState({ sqlitePath: file });
    const [customer] = define(store.provider, store.processor);
    await store.migrate({ '0001': resourceTablesMigration([customer.metadata]) });
    await store.processor.create(customer.metadata, {
      name: 'Ann', address: { street: 'Main St', city: 'Oslo', zip: null, since: null },
    });
    await store.processor.create(customer.metadata, { name: 'Bob', address: null });
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      const columns = (db.prepare('pragma table_info(customers)').all() as Array<{ name: string }>).map((c) => c.name);
      expect(columns).toEqual(['id', 'version', 'name', 'address_street', 'address_city', 'address_zip', 'address_since']);
      expect(db.prepare('select address_street, address_city, address_zip from customers order by id').all()).toEqual([
        { address_street: 'Main St', address_city: 'Oslo', address_zip: null },
        { address_street: null, address_city: null, address_zip: null },
      ]);
    } finally {
      db.close();
    }
  });

  test('a field whose column another property takes is refused at migration, naming it', async () => {
    const store = createSqlState({ sqlitePath: path.join(dir, 'clash.sqlite') });
    const clash = defineResource({
      shortName: 'Clash', provider: store.provider, processor: store.processor,
      schema: z.object({ address_city: z.string(), address: ADDRESS }),
    });
    await expect(store.migrate({ '0001': resourceTablesMigration([clash.metadata]) }))
      .rejects.toThrow('Clash.address: the column "address_city" is taken');
    await store.close();
  });
});

describe('embeddable declarations', () => {
  const memory = new MemoryState();
  const declare = (filters: Parameters<typeof defineResource>[0]['filters'], address: z.ZodType = ADDRESS) =>
    defineResource({
      shortName: 'Customer', provider: memory, processor: memory, filters,
      schema: z.object({ id: readOnly(z.int()), name: z.string(), address }),
    });

  test('a filter on an unknown field fails at start-up with a did-you-mean', () => {
    expect(() => declare([SearchFilter({ 'address.citty': 'exact' })]))
      .toThrow('"citty" is no property of Address (got "address.citty"); did you mean "city"?');
  });

  test('a filter that does not fit the field\'s kind, or a path beyond a field, fails at start-up', () => {
    expect(() => declare([RangeFilter(['address.city'])])).toThrow('a range filter does not apply to a string property');
    expect(() => declare([SearchFilter({ 'address.city.x': 'exact' })])).toThrow(/"city" of Address is no relation/);
  });

  test('embeddable() refuses what is not an object, and a relation field at start-up', () => {
    expect(() => embeddable(z.string() as never, { name: 'Address' })).toThrow('embeddable() expects a z.object');
    expect(() => embeddable(z.object({ a: z.string() }), { name: '1 bad' })).toThrow('class name');
    expect(() => declare(undefined, embeddable(z.object({ a: z.array(z.string()).meta({ relation: 'X', many: true }) }),
      { name: 'Bad' }))).toThrow('may not be a relation');
  });
});
