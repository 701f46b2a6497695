/**
 * Embeddable value objects, by property: any valid value of an embeddable round-trips through
 * POST and GET on every store (MemoryState, SQLite, PostgreSQL: a column per field), and random
 * filters and orders on its fields (`address.city`, `address.zip[gt]`, `exists[address]`,
 * `order[address.since]`) select the same items in the same order on the SQL stores as on
 * MemoryState, the reference (the query strings parsed by the API's own parser).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, DateFilter, defineResource, embeddable, ExistsFilter, MemoryState, OrderFilter, RangeFilter, readOnly,
  SearchFilter, type Resource, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { parseCollectionQuery } from '../../../src/api/query/collectionQuery';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { toStoredData } from '../../../src/api/write/inputData';
import { createKernel } from '../../../src/kernel/createKernel';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';
import { describeOnEveryStore } from '../relations/relationStores';

const ADDRESS = embeddable(z.object({
  street: z.string().min(1),
  city: z.string().min(1),
  zip: z.int().min(-1_000_000).max(1_000_000).optional(),
  ratio: z.number().nullable(),
  verified: z.boolean().optional(),
  since: z.iso.date().optional(),
  kind: z.enum(['home', 'work']).optional(),
}), { name: 'Address' });

function define(provider: StateProvider, processor: StateProcessor): Resource[] {
  return [defineResource({
    shortName: 'Customer',
    schema: z.object({ id: readOnly(z.int()), name: z.string(), address: ADDRESS.nullable() }),
    filters: [
      SearchFilter({ 'address.city': 'exact', 'address.street': 'partial', 'address.kind': 'exact' }),
      OrderFilter(['address.city', 'address.since', 'address.zip', 'name']),
      RangeFilter(['address.zip', 'address.ratio']),
      DateFilter(['address.since']),
      ExistsFilter(['address', 'address.since', 'address.zip']),
    ],
    provider, processor,
  })];
}

/** A text of any well-formed characters but NUL (refused by every store, a 422). */
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000'));
const DATES = ['1999-12-31', '2000-02-29', '2020-01-01', '2024-06-15'];
const CITIES = ['Paris', 'Oslo', 'paris', 'Zoë'];

/** A valid address, as a client sends it: optional fields absent or given. */
function address(street: fc.Arbitrary<string>, city: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    street, city,
    zip: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    ratio: fc.oneof(fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
      .map((d) => (Object.is(d, -0) ? 0 : d))),
    verified: fc.boolean(),
    since: fc.constantFrom(...DATES),
    kind: fc.constantFrom('home', 'work'),
  }, { requiredKeys: ['street', 'city', 'ratio'] });
}

/** What the API sends back for a value sent: every field, null when absent. */
function expected(value: Readonly<Record<string, unknown>> | null): Record<string, unknown> | null {
  if (value === null) return null;
  const out: Record<string, unknown> = {};
  for (const f of ['street', 'city', 'zip', 'ratio', 'verified', 'since', 'kind']) out[f] = value[f] ?? null;
  return out;
}

describeOnEveryStore('an embeddable\'s random values', define, (open) => {
  test('round-trip through POST and GET', async () => {
    const opened = await open();
    try {
      const kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
      await fc.assert(fc.asyncProperty(fc.option(address(text, text), { nil: null }), async (value) => {
        const posted = await request(kernel).post('/api/customers').set('Content-Type', 'application/json')
          .set('Accept', 'application/json').send(JSON.stringify({ name: 'x', address: value }));
        expect(posted.status).toBe(201);
        const got = await request(kernel).get(`/api/customers/${posted.body.id}`).set('Accept', 'application/json');
        expect(got.body.address).toEqual(expected(value));
        expect(posted.body.address).toEqual(expected(value));
      }), { numRuns: 40 });
    } finally {
      await opened.close();
    }
  }, scaled(120_000));
});

/** The same customers on a store (ids 1..n in order on every store). */
async function seed(
  resource: Resource, processor: StateProcessor, values: ReadonlyArray<Record<string, unknown> | null>,
) {
  for (const [i, value] of values.entries()) {
    const data = toStoredData(resource, { name: `c${i % 3}`, address: value }, {}, '');
    const outcome = await processor.create(resource.metadata, data);
    expect(outcome.status).toBe('ok');
  }
}

const PAIRS: fc.Arbitrary<string>[] = [
  fc.constantFrom(...CITIES).map((v) => `address.city=${encodeURIComponent(v)}`),
  fc.constantFrom('a', 'R', 'ue', 'x').map((v) => `address.street=${v}`),
  fc.constantFrom('home', 'work').map((v) => `address.kind=${v}`),
  fc.tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte'), fc.integer({ min: -5, max: 5 })).map(([op, v]) => `address.zip[${op}]=${v}`),
  fc.tuple(fc.constantFrom('gt', 'lt'), fc.constantFrom(-0.5, 0, 0.5)).map(([op, v]) => `address.ratio[${op}]=${v}`),
  fc.tuple(fc.constantFrom('before', 'strictly_before', 'after', 'strictly_after'), fc.constantFrom(...DATES))
    .map(([op, v]) => `address.since[${op}]=${v}`),
  fc.tuple(fc.constantFrom('address', 'address.since', 'address.zip'), fc.boolean()).map(([p, v]) => `exists[${p}]=${v}`),
  fc.tuple(fc.constantFrom('address.city', 'address.since', 'address.zip', 'name'), fc.constantFrom('asc', 'desc'))
    .map(([p, d]) => `order[${p}]=${d}`),
];
const QUERY = fc.tuple(fc.array(fc.oneof(...PAIRS), { maxLength: 4 }), fc.integer({ min: 1, max: 3 }))
  .map(([pairs, page]) => [...pairs, 'itemsPerPage=6', `page=${page}`].join('&'));
const VALUES = fc.array(fc.option(address(fc.constantFrom('1 rue A', 'Main St', 'x', 'Rue B'),
  fc.constantFrom(...CITIES)).map((a) => ({ ...a, zip: typeof a.zip === 'number' ? a.zip % 6 : undefined })),
{ nil: null, freq: 4 }), { minLength: 8, maxLength: 16 });

function sameAsMemory(openSql: () => Promise<{ resource: Resource; provider: StateProvider; processor: StateProcessor;
  close(): Promise<void> }>) {
  test('random filters and orders on the fields: the same page as MemoryState', async () => {
    const values = fc.sample(VALUES, { numRuns: 1, seed: 25 })[0];
    const memory = new MemoryState();
    const [reference] = define(memory, memory);
    await seed(reference, memory, values);
    const sql = await openSql();
    try {
      await seed(sql.resource, sql.processor, values);
      await fc.assert(fc.asyncProperty(QUERY, async (raw) => {
        const query = parseCollectionQuery(raw, reference, { prefixes: { Customer: '/api/customers' } });
        const want = await memory.provideCollection(reference.metadata, query);
        const got = await sql.provider.provideCollection(sql.resource.metadata, query);
        expect({ raw, ids: got.items.map((i) => i.id), total: got.totalItems, data: got.items.map((i) => i.data) })
          .toEqual({
            raw, ids: want.items.map((i) => i.id), total: want.totalItems, data: want.items.map((i) => i.data),
          });
      }), { numRuns: 120 });
    } finally {
      await sql.close();
    }
  }, scaled(120_000));
}

async function openSql(options: { url: string } | { sqlitePath: string }) {
  const store = createSqlState(options);
  const [resource] = define(store.provider, store.processor);
  await store.migrate({ '0001-tables': resourceTablesMigration([resource.metadata]) });
  return { resource, provider: store.provider, processor: store.processor, close: () => store.close() };
}

describe('embeddable filters on SQLite', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-embeddable-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  sameAsMemory(() => openSql({ sqlitePath: path.join(dir, 'filters.sqlite') }));
});

describeWith('postgresql')('embeddable filters on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });
  sameAsMemory(async () => openSql({ url: await server.createDatabase('embeddable_property') }));
});
