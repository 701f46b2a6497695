/**
 * DateFilter's null strategies, as a property: random date-filter queries (every operator, on
 * properties with each strategy, with nulls in the data, dates and datetimes) give the ids a
 * model of API Platform's `DateFilter::addWhere` gives, on MemoryState, SQLite and PostgreSQL.
 * The query strings are parsed by the API's own parser, then each store answers the same query.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import {
  DateFilter, defineResource, MemoryState, readOnly, type DateNullStrategy, type Resource, type StateProcessor,
  type StateProvider,
} from '../../../src/api';
import { parseCollectionQuery } from '../../../src/api/query/collectionQuery';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

/** Property name → strategy (`none`: DateFilter's default). */
const STRATEGIES: Record<string, DateNullStrategy | null> = {
  none: null, excluded: 'exclude_null', before: 'include_null_before', after: 'include_null_after',
  both: 'include_null_before_and_after', at: 'include_null_after',
};
const OPERATORS = ['before', 'strictly_before', 'after', 'strictly_after'] as const;
type Operator = typeof OPERATORS[number];
const DATES = ['2020-01-01', '2020-01-02', '2020-06-30', '2021-12-31', null];
const TIMES = ['2020-01-01T00:00:00.000Z', '2020-01-01T23:59:59.999Z', '2020-06-30T12:00:00.000Z', null];

function define(provider: StateProvider, processor: StateProcessor): Resource {
  return defineResource({
    shortName: 'Event',
    schema: z.object({
      id: readOnly(z.int()),
      none: z.iso.date().nullable(), excluded: z.iso.date().nullable(), before: z.iso.date().nullable(),
      after: z.iso.date().nullable(), both: z.iso.date().nullable(), at: z.iso.datetime().nullable(),
    }),
    filters: [DateFilter(STRATEGIES)],
    pagination: { maximumItemsPerPage: 200 },
    provider, processor,
  });
}

/** 40 events, each property's value chosen from the pools by a fixed pattern (nulls included). */
const ROWS = Array.from({ length: 40 }, (_, i) => ({
  none: DATES[i % 5], excluded: DATES[(i * 3) % 5], before: DATES[(i * 7 + 1) % 5],
  after: DATES[(i * 11 + 2) % 5], both: DATES[(i * 13 + 3) % 5], at: TIMES[(i * 3 + 1) % 4],
}));

async function seed(resource: Resource, processor: StateProcessor): Promise<void> {
  for (const row of ROWS) await processor.create(resource.metadata, row);
}

/** API Platform's semantics, written independently: `date <op> value`, or null where the strategy says. */
function model(conditions: Array<[string, Operator, string]>): number[] {
  const ids: number[] = [];
  ROWS.forEach((row, i) => {
    const holds = conditions.every(([property, op, value]) => {
      const v = row[property as keyof typeof row];
      if (v === null) {
        const s = STRATEGIES[property];
        const beforeOp = op === 'before' || op === 'strictly_before';
        return s === 'include_null_before_and_after' || (s === 'include_null_before' && beforeOp)
          || (s === 'include_null_after' && !beforeOp);
      }
      const a = Date.parse(v);
      const b = Date.parse(value);
      return op === 'before' ? a <= b : op === 'strictly_before' ? a < b : op === 'after' ? a >= b : a > b;
    });
    if (holds) ids.push(i + 1);
  });
  return ids;
}

const CONDITION: fc.Arbitrary<[string, Operator, string]> = fc.oneof(
  fc.tuple(fc.constantFrom('none', 'excluded', 'before', 'after', 'both'), fc.constantFrom(...OPERATORS),
    fc.constantFrom(...DATES.filter((d) => d !== null), '2019-12-31', '2020-03-01')),
  fc.tuple(fc.constant('at'), fc.constantFrom(...OPERATORS),
    fc.constantFrom(...TIMES.filter((d) => d !== null), '2020-01-01T12:00:00.000Z')),
);
const QUERY = fc.array(CONDITION, { maxLength: 3 });

function sameAsModel(open: () => Promise<{ resource: Resource; provider: StateProvider; close(): Promise<void> }>) {
  test('random date filters with null strategies: the ids the model gives', async () => {
    const store = await open();
    try {
      await fc.assert(fc.asyncProperty(QUERY, async (conditions) => {
        const raw = [...conditions.map(([p, op, v]) => `${p}[${op}]=${encodeURIComponent(v)}`), 'itemsPerPage=200']
          .join('&');
        const query = parseCollectionQuery(raw, store.resource, { prefixes: { Event: '/api/events' }, strict: true });
        const got = await store.provider.provideCollection(store.resource.metadata, query);
        expect({ raw, ids: got.items.map((i) => i.id) }).toEqual({ raw, ids: model(conditions) });
      }), { numRuns: 120 });
    } finally {
      await store.close();
    }
  }, scaled(120_000));
}

async function openSql(options: { url: string } | { sqlitePath: string }) {
  const store = createSqlState(options);
  const resource = define(store.provider, store.processor);
  await store.migrate({ '0001-tables': resourceTablesMigration([resource.metadata]) });
  await seed(resource, store.processor);
  return { resource, provider: store.provider, close: () => store.close() };
}

describe('date null strategies on MemoryState', () => {
  sameAsModel(async () => {
    const state = new MemoryState();
    const resource = define(state, state);
    await seed(resource, state);
    return { resource, provider: state, close: () => Promise.resolve() };
  });
});

describe('date null strategies on SQLite', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-datenull-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  sameAsModel(() => openSql({ sqlitePath: path.join(dir, 'dates.sqlite') }));
});

describeWith('postgresql')('date null strategies on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });
  sameAsModel(async () => openSql({ url: await server.createDatabase('date_null_property') }));
});
