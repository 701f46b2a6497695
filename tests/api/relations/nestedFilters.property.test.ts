/**
 * The SQL stores (SQLite, PostgreSQL) and MemoryState, the reference, return the same items in
 * the same order for random filters and orders on nested properties (`author.name`,
 * `author.birthDate`, `tags.name`, `author.id`) and on `id`: the query strings are parsed by the
 * API's own parser (parseCollectionQuery), then each store answers the same CollectionQuery.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { z } from 'zod';
import {
  DateFilter, defineResource, ExistsFilter, MemoryState, OrderFilter, RangeFilter, readOnly, relation, SearchFilter,
  toMany, type Resource, type StateProcessor, type StateProvider,
} from '../../../src/api';
import { parseCollectionQuery } from '../../../src/api/query/collectionQuery';
import { completeFilters } from '../../../src/api/resource/completeFilters';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

function define(provider: StateProvider, processor: StateProcessor): Resource[] {
  const author = defineResource({
    shortName: 'Author',
    schema: z.object({ id: readOnly(z.int()), name: z.string(), birthDate: z.iso.date().nullable() }),
    provider, processor,
  });
  const tag = defineResource({
    shortName: 'Tag', schema: z.object({ id: readOnly(z.int()), name: z.string() }), provider, processor,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.int()), title: z.string(), author: relation('Author').nullable(), tags: toMany('Tag'),
    }),
    filters: [
      SearchFilter({ 'author.name': 'partial', 'tags.name': 'start', id: 'exact', 'author.id': 'exact' }),
      OrderFilter(['author.name', 'author.birthDate', 'id', 'title']),
      RangeFilter(['id', 'author.birthDate']),
      DateFilter(['author.birthDate']),
      ExistsFilter(['author.birthDate', 'tags.name', 'author']),
    ],
    provider, processor,
  });
  return completeFilters([author, tag, book]);
}

const NAMES = ['Ann', 'ann', 'Bob', 'Joanna', 'Émile', 'Zoë', 'bo', 'x_y'];
const DATES = ['1950-01-01', '1960-06-15', '1980-05-05', '2001-12-31', null];
const TAGS = ['sf', 'classic', 'space', 'SF opera'];

/** The same authors, tags and books on a store (ids 1..n in order on every store). */
async function seed(resources: Resource[], processor: StateProcessor): Promise<void> {
  const [author, tag, book] = resources.map((r) => r.metadata);
  for (let i = 0; i < 8; i++) {
    await processor.create(author, { name: NAMES[i], birthDate: DATES[i % DATES.length] });
  }
  for (const name of TAGS) await processor.create(tag, { name });
  for (let i = 0; i < 20; i++) {
    const tags = [1, 2, 3, 4].filter((t) => (i * 7 + t * 3) % 5 < 2);
    await processor.create(book, { title: `Book ${(i * 13) % 20}`, author: i % 6 === 5 ? null : 1 + (i % 8), tags });
  }
}

const PAIRS: fc.Arbitrary<string>[] = [
  fc.constantFrom('a', 'An', 'bo', 'É', 'z', '_', '%').map((v) => `author.name=${encodeURIComponent(v)}`),
  fc.constantFrom('s', 'sf', 'Cl', 'SF o', 'none').map((v) => `tags.name[]=${encodeURIComponent(v)}`),
  fc.integer({ min: 1, max: 22 }).map((v) => `id[]=${v}`),
  fc.integer({ min: 1, max: 9 }).map((v) => `author.id=/api/authors/${v}`),
  fc.tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte'), fc.integer({ min: 0, max: 21 })).map(([op, v]) => `id[${op}]=${v}`),
  fc.tuple(fc.constantFrom('before', 'strictly_before', 'after', 'strictly_after'),
    fc.constantFrom(...DATES.filter((d) => d !== null))).map(([op, v]) => `author.birthDate[${op}]=${v}`),
  fc.constantFrom(...DATES.filter((d) => d !== null)).map((v) => `author.birthDate[between]=1955-01-01..${v}`),
  fc.tuple(fc.constantFrom('author.birthDate', 'tags.name', 'author'), fc.boolean())
    .map(([p, v]) => `exists[${p}]=${v}`),
  fc.tuple(fc.constantFrom('author.name', 'author.birthDate', 'id', 'title'), fc.constantFrom('asc', 'desc'))
    .map(([p, d]) => `order[${p}]=${d}`),
];
const QUERY = fc.tuple(fc.array(fc.oneof(...PAIRS), { maxLength: 4 }), fc.integer({ min: 1, max: 3 }))
  .map(([pairs, page]) => [...pairs, 'itemsPerPage=7', `page=${page}`].join('&'));
const PREFIXES = { Author: '/api/authors', Tag: '/api/tags', Book: '/api/books' };

function sameAsMemory(open: () => Promise<{ resources: Resource[]; provider: StateProvider; close(): Promise<void> }>) {
  test('random nested filters and orders: the same page as MemoryState', async () => {
    const memory = new MemoryState();
    const reference = define(memory, memory);
    await seed(reference, memory);
    const sql = await open();
    try {
      await fc.assert(fc.asyncProperty(QUERY, async (raw) => {
        const query = parseCollectionQuery(raw, reference[2], { prefixes: PREFIXES });
        const expected = await memory.provideCollection(reference[2].metadata, query);
        const got = await sql.provider.provideCollection(sql.resources[2].metadata, query);
        expect({ raw, ids: got.items.map((i) => i.id), total: got.totalItems })
          .toEqual({ raw, ids: expected.items.map((i) => i.id), total: expected.totalItems });
      }), { numRuns: 150 });
    } finally {
      await sql.close();
    }
  }, scaled(120_000));
}

async function openSql(options: { url: string } | { sqlitePath: string }) {
  const store = createSqlState(options);
  const resources = define(store.provider, store.processor);
  await store.migrate({ '0001-tables': resourceTablesMigration(resources.map((r) => r.metadata)) });
  await seed(resources, store.processor);
  return { resources, provider: store.provider, close: () => store.close() };
}

describe('nested filters on SQLite', () => {
  let dir: string;
  beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-nested-')); });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  sameAsMemory(() => openSql({ sqlitePath: path.join(dir, 'nested.sqlite') }));
});

describeWith('postgresql')('nested filters on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });
  sameAsMemory(async () => openSql({ url: await server.createDatabase('nested_property') }));
});
