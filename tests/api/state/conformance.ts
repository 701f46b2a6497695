/**
 * The conformance suite of the state contract (src/api/state/types.ts): one set of cases that
 * every StateProvider/StateProcessor pair must pass, run by sqlite.test.ts, postgres.test.ts and
 * memory.test.ts (habit 10: one suite per interface, every implementation). Not a test file itself.
 */
import fc from 'fast-check';
import { isAtomic } from '../../../src/api/state/types';
import type {
  CollectionQuery, FilterCondition, PropertyMetadata, ResourceMetadata, SearchStrategy, StateProcessor, StateProvider,
  StoredItem,
} from '../../../src/api/state/types';
import { referencePage } from './reference';

/** A store under test, empty, with tables (or whatever it needs) for the given resources. */
export interface StoreUnderTest {
  readonly provider: StateProvider;
  readonly processor: StateProcessor;
  close(): Promise<void>;
}

/** Opens a new, empty store for the resources (a relation's target comes first in the list). */
export type OpenStore = (resources: readonly ResourceMetadata[]) => Promise<StoreUnderTest>;

const prop = (name: string, kind: PropertyMetadata['kind'], extra: Partial<PropertyMetadata> = {}): PropertyMetadata =>
  ({ name, kind, nullable: true, readOnly: false, writeOnly: false, ...extra });

export const AUTHOR: ResourceMetadata = {
  shortName: 'Author',
  table: 'authors',
  properties: [prop('name', 'string', { nullable: false }), prop('born', 'date')],
};

export const BOOK: ResourceMetadata = {
  shortName: 'Book',
  table: 'books',
  properties: [
    prop('title', 'string', { nullable: false }),
    prop('summary', 'text'),
    prop('pages', 'integer'),
    prop('price', 'number'),
    prop('featured', 'boolean', { nullable: false }),
    prop('publishedAt', 'date'),
    prop('updatedAt', 'datetime'),
    prop('format', 'enum', { enumValues: ['paperback', 'hardcover'] }),
    prop('author', 'relation', { relation: 'Author' }),
    prop('tags', 'json'),
  ],
};

/** A shelf: to-many relations to books and to other shelves (itself too). */
export const SHELF: ResourceMetadata = {
  shortName: 'Shelf',
  table: 'shelves',
  properties: [
    prop('name', 'string', { nullable: false }),
    prop('books', 'relations', { relation: 'Book', nullable: false }),
    prop('nextTo', 'relations', { relation: 'Shelf', nullable: false }),
  ],
};

type BookData = Record<string, unknown>;

/** A book with every property (nulls but title and featured). */
export function book(values: BookData = {}): BookData {
  return {
    title: 'Untitled', summary: null, pages: null, price: null, featured: false, publishedAt: null,
    updatedAt: null, format: null, author: null, tags: null, ...values,
  };
}

const query = (q: Partial<CollectionQuery> = {}): CollectionQuery =>
  ({ conditions: [], order: [], page: 1, itemsPerPage: 30, partial: false, ...q });

async function created(processor: StateProcessor, resource: ResourceMetadata, data: BookData): Promise<StoredItem> {
  const outcome = await processor.create(resource, data);
  if (outcome.status !== 'ok') throw new Error(`create failed: ${JSON.stringify(outcome)}`);
  return outcome.item;
}

/**
 * Declares the conformance cases.
 * @param open - opens an empty store (called before each case)
 * @param options - `propertyRuns`: fast-check runs of the property test @default 40
 */
export function describeStateConformance(open: OpenStore, options: { propertyRuns?: number } = {}): void {
  let store: StoreUnderTest;
  let provider: StateProvider;
  let processor: StateProcessor;

  beforeEach(async () => {
    store = await open([AUTHOR, BOOK, SHELF]);
    ({ provider, processor } = store);
  });
  afterEach(async () => { await store.close(); });

  const titles = async (q: Partial<CollectionQuery>): Promise<string[]> =>
    (await provider.provideCollection(BOOK, query(q))).items.map((i) => i.data.title as string);
  const search = (property: string, strategy: 'exact' | 'partial' | 'start' | 'end' | 'word_start',
    ...values: (string | number)[]): FilterCondition => ({ type: 'search', property, strategy, values });

  describe('create(resource, data)', () => {
    test('stores every kind of value and gives it back as it came in, version 1', async () => {
      const author = await created(processor, AUTHOR, { name: 'Frank Herbert', born: '1920-10-08' });
      const data = book({
        title: 'Dune', summary: 'Spice, sand and "worms" — ünïcode', pages: 412, price: 9.99, featured: true,
        publishedAt: '1965-08-01', updatedAt: '2026-11-25T10:00:00.000Z', format: 'paperback', author: author.id,
        tags: { genres: ['sf', 'épopée'], rating: 4.5, sequel: null, series: { name: 'Dune', index: 1 } },
      });
      const item = await created(processor, BOOK, data);
      expect(item).toEqual({ id: expect.any(Number), version: 1, data });
      expect(await provider.provideItem(BOOK, item.id)).toEqual(item);
      const nulls = await created(processor, BOOK, book({ title: 'Nothing else' }));
      expect((await provider.provideItem(BOOK, nulls.id))?.data).toEqual(book({ title: 'Nothing else' }));
    });

    test('ids come from the store: unique and increasing, never reused after a delete', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await created(processor, BOOK, book({ title: `B${i}` }))).id as number);
      expect(new Set(ids).size).toBe(5);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(await processor.remove(BOOK, ids[4])).toEqual({ status: 'ok' });
      expect((await created(processor, BOOK, book())).id).toBeGreaterThan(ids[4]);
    });

    test('a relation to a missing item is invalid_relation and stores nothing', async () => {
      expect(await processor.create(BOOK, book({ author: 999 })))
        .toEqual({ status: 'invalid_relation', property: 'author' });
      expect((await provider.provideCollection(BOOK, query())).totalItems).toBe(0);
    });
  });

  describe('atomically(work) (AtomicStateProcessor)', () => {
    test('the unit\'s writes are all kept when the work resolves, none when it throws', async () => {
      if (!isAtomic(processor)) throw new Error('every store of the suite makes units');
      const dune = await created(processor, BOOK, book({ title: 'Dune' }));
      const kept = await processor.atomically(async (unit) => {
        const author = await unit.create(AUTHOR, { name: 'Frank Herbert', born: null });
        if (author.status !== 'ok') throw new Error(author.status);
        await unit.replace(BOOK, dune.id, book({ title: 'Dune', author: author.item.id }), 1);
        expect((await unit.provideItem(BOOK, dune.id))?.data.author).toBe(author.item.id); // its own writes
        return author.item.id;
      });
      expect((await provider.provideItem(BOOK, dune.id))?.data.author).toBe(kept);
      const failure = new Error('the second write failed');
      await expect(processor.atomically(async (unit) => {
        await unit.create(AUTHOR, { name: 'Dan Simmons', born: null });
        await unit.replace(BOOK, dune.id, book({ title: 'Dune Messiah', author: kept }), 2);
        await unit.remove(BOOK, dune.id, 3);
        await unit.create(BOOK, book({ title: 'Hyperion' }));
        throw failure;
      })).rejects.toBe(failure);
      expect((await provider.provideCollection(AUTHOR, query())).items.map((i) => i.data.name)).toEqual(['Frank Herbert']);
      expect(await provider.provideItem(BOOK, dune.id)).toMatchObject({ version: 2, data: { title: 'Dune' } });
      expect(await titles({})).toEqual(['Dune']);
    });
  });

  describe('provideItem(resource, id)', () => {
    test('is null for an id never stored', async () => {
      expect(await provider.provideItem(BOOK, 424242)).toBeNull();
    });
  });

  describe('replace(resource, id, data, expectedVersion)', () => {
    test('replaces the data and bumps the version', async () => {
      const item = await created(processor, BOOK, book({ title: 'Dune' }));
      const outcome = await processor.replace(BOOK, item.id, book({ title: 'Dune Messiah', pages: 256 }));
      const data = book({ title: 'Dune Messiah', pages: 256 });
      expect(outcome).toEqual({ status: 'ok', item: { id: item.id, version: 2, data } });
      expect(await provider.provideItem(BOOK, item.id)).toEqual(outcome.status === 'ok' ? outcome.item : null);
    });

    test('with the stored version, replaces; with a stale one, is a conflict and changes nothing', async () => {
      const item = await created(processor, BOOK, book({ title: 'Dune' }));
      const first = await processor.replace(BOOK, item.id, book({ title: 'Second' }), 1);
      expect(first.status).toBe('ok');
      const stale = await processor.replace(BOOK, item.id, book({ title: 'Lost update' }), 1);
      const stored = await provider.provideItem(BOOK, item.id);
      expect(stale).toEqual({ status: 'conflict', current: stored });
      expect(stored).toEqual({ id: item.id, version: 2, data: book({ title: 'Second' }) });
    });

    test('a missing item is not_found; a relation to a missing one is invalid_relation, no change', async () => {
      expect(await processor.replace(BOOK, 424242, book())).toEqual({ status: 'not_found' });
      const item = await created(processor, BOOK, book({ title: 'Dune' }));
      expect(await processor.replace(BOOK, item.id, book({ author: 77 })))
        .toEqual({ status: 'invalid_relation', property: 'author' });
      expect(await provider.provideItem(BOOK, item.id)).toEqual(item);
    });
  });

  describe('remove(resource, id, expectedVersion)', () => {
    test('deletes the item; a second time it is not_found', async () => {
      const item = await created(processor, BOOK, book());
      expect(await processor.remove(BOOK, item.id)).toEqual({ status: 'ok' });
      expect(await provider.provideItem(BOOK, item.id)).toBeNull();
      expect(await processor.remove(BOOK, item.id)).toEqual({ status: 'not_found' });
    });

    test('with a stale version, is a conflict and deletes nothing', async () => {
      const item = await created(processor, BOOK, book());
      await processor.replace(BOOK, item.id, book({ title: 'v2' }));
      const outcome = await processor.remove(BOOK, item.id, 1);
      expect(outcome).toEqual({ status: 'conflict', current: await provider.provideItem(BOOK, item.id) });
      expect(await processor.remove(BOOK, item.id, 2)).toEqual({ status: 'ok' });
    });

    test('an item another refers to is referenced and stays; once free, it goes', async () => {
      const author = await created(processor, AUTHOR, { name: 'Stanisław Lem', born: null });
      const solaris = await created(processor, BOOK, book({ title: 'Solaris', author: author.id }));
      expect(await processor.remove(AUTHOR, author.id)).toEqual({ status: 'referenced', by: expect.any(String) });
      expect(await provider.provideItem(AUTHOR, author.id)).toEqual(author);
      await processor.remove(BOOK, solaris.id);
      expect(await processor.remove(AUTHOR, author.id)).toEqual({ status: 'ok' });
    });
  });

  describe('to-many relations (kind relations)', () => {
    const shelfNames = async (...conditions: FilterCondition[]): Promise<string[]> =>
      (await provider.provideCollection(SHELF, query({ conditions }))).items.map((i) => i.data.name as string);

    test('create keeps the ids distinct and ascending; left out, none; every read gives them back', async () => {
      const [a, b, c] = [await created(processor, BOOK, book({ title: 'A' })),
        await created(processor, BOOK, book({ title: 'B' })), await created(processor, BOOK, book({ title: 'C' }))];
      const shelf = await created(processor, SHELF, { name: 'Sci-fi', books: [c.id, a.id, c.id], nextTo: [] });
      expect(shelf.data).toEqual({ name: 'Sci-fi', books: [a.id, c.id], nextTo: [] });
      expect(await provider.provideItem(SHELF, shelf.id)).toEqual(shelf);
      const empty = await created(processor, SHELF, { name: 'Empty' });
      expect(empty.data).toEqual({ name: 'Empty', books: [], nextTo: [] });
      const page = await provider.provideCollection(SHELF, query());
      expect(page.items.map((i) => i.data.books)).toEqual([[a.id, c.id], []]);
      expect(b.data.title).toBe('B');
    });

    test('replace replaces the links ([] clears them), keeps them when left out, and bumps the version', async () => {
      const [a, b] = [await created(processor, BOOK, book({ title: 'A' })), await created(processor, BOOK, book())];
      const shelf = await created(processor, SHELF, { name: 'S', books: [a.id], nextTo: [] });
      expect(await processor.replace(SHELF, shelf.id, { name: 'S', books: [b.id, a.id] }, 1)).toEqual({
        status: 'ok', item: { id: shelf.id, version: 2, data: { name: 'S', books: [a.id, b.id], nextTo: [] } },
      });
      const renamed = await processor.replace(SHELF, shelf.id, { name: 'T' }, 2);
      expect(renamed).toMatchObject({ item: { version: 3, data: { name: 'T', books: [a.id, b.id] } } });
      await processor.replace(SHELF, shelf.id, { name: 'T', books: [] }, 3);
      expect((await provider.provideItem(SHELF, shelf.id))?.data.books).toEqual([]);
    });

    test('an id naming no item is invalid_relation and writes nothing, links included', async () => {
      const a = await created(processor, BOOK, book({ title: 'A' }));
      expect(await processor.create(SHELF, { name: 'S', books: [a.id, 999], nextTo: [] }))
        .toEqual({ status: 'invalid_relation', property: 'books', id: 999 });
      expect(await shelfNames()).toEqual([]);
      const shelf = await created(processor, SHELF, { name: 'S', books: [a.id], nextTo: [] });
      expect(await processor.replace(SHELF, shelf.id, { name: 'S2', books: [a.id], nextTo: [(shelf.id as number) + 1000] }))
        .toEqual({ status: 'invalid_relation', property: 'nextTo', id: (shelf.id as number) + 1000 });
      expect(await provider.provideItem(SHELF, shelf.id)).toEqual(shelf);
    });

    test('ON DELETE: a linked target is referenced and stays; an item\'s own links go with it', async () => {
      const a = await created(processor, BOOK, book({ title: 'A' }));
      const shelf = await created(processor, SHELF, { name: 'S', books: [a.id], nextTo: [] });
      expect(await processor.remove(BOOK, a.id)).toEqual({ status: 'referenced', by: expect.any(String) });
      expect(await provider.provideItem(BOOK, a.id)).toEqual(a);
      const other = await created(processor, SHELF, { name: 'Other', books: [], nextTo: [shelf.id] });
      expect(await processor.remove(SHELF, shelf.id)).toEqual({ status: 'referenced', by: expect.any(String) });
      await processor.replace(SHELF, other.id, { name: 'Other', books: [], nextTo: [other.id] });
      expect(await processor.remove(SHELF, shelf.id)).toEqual({ status: 'ok' }); // its link to A goes with it
      expect(await processor.remove(BOOK, a.id)).toEqual({ status: 'ok' });
      expect(await processor.remove(SHELF, other.id)).toEqual({ status: 'ok' }); // linked to itself only
      expect(await shelfNames()).toEqual([]);
    });

    test('exact finds the items linked to any of the ids; exists those with a link or none; related', async () => {
      const [a, b, c] = [await created(processor, BOOK, book({ title: 'A' })),
        await created(processor, BOOK, book({ title: 'B' })), await created(processor, BOOK, book({ title: 'C' }))];
      await created(processor, SHELF, { name: 'AB', books: [a.id, b.id], nextTo: [] });
      await created(processor, SHELF, { name: 'C', books: [c.id], nextTo: [] });
      await created(processor, SHELF, { name: 'None', books: [], nextTo: [] });
      expect(await shelfNames(search('books', 'exact', b.id))).toEqual(['AB']);
      expect(await shelfNames(search('books', 'exact', a.id, b.id, c.id))).toEqual(['AB', 'C']);
      expect(await shelfNames(search('books', 'exact', 999))).toEqual([]);
      expect(await shelfNames({ type: 'exists', property: 'books', value: true })).toEqual(['AB', 'C']);
      expect(await shelfNames({ type: 'exists', property: 'books', value: false })).toEqual(['None']);
      // related (books.title): one of the linked books satisfies the condition
      const onBooks = (condition: FilterCondition): FilterCondition =>
        ({ type: 'related', property: 'books', target: BOOK, condition });
      expect(await shelfNames(onBooks(search('title', 'exact', 'B', 'C')))).toEqual(['AB', 'C']);
      expect(await shelfNames(onBooks(search('title', 'partial', 'a')))).toEqual(['AB']);
      const page = await provider.provideCollection(SHELF, query({
        conditions: [search('books', 'exact', a.id, c.id)], itemsPerPage: 1,
      }));
      expect(page).toMatchObject({ totalItems: 2, hasNextPage: true, items: [{ data: { name: 'AB' } }] });
    });

    test('a unit that throws leaves the links as they were', async () => {
      if (!isAtomic(processor)) throw new Error('every store of the suite makes units');
      const a = await created(processor, BOOK, book({ title: 'A' }));
      const shelf = await created(processor, SHELF, { name: 'S', books: [a.id], nextTo: [] });
      await expect(processor.atomically(async (unit) => {
        await unit.replace(SHELF, shelf.id, { name: 'S', books: [] }, 1);
        throw new Error('undo');
      })).rejects.toThrow('undo');
      expect(await provider.provideItem(SHELF, shelf.id)).toEqual(shelf);
    });
  });

  describe('provideCollection(resource, query): pages', () => {
    test('an empty table is an empty page of 0 items with no next page', async () => {
      expect(await provider.provideCollection(BOOK, query())).toEqual({ items: [], totalItems: 0, hasNextPage: false });
      expect(await provider.provideCollection(BOOK, query({ partial: true })))
        .toEqual({ items: [], hasNextPage: false });
    });

    test('pages split the items by id; totalItems counts them all; past the end is empty', async () => {
      for (const t of ['A', 'B', 'C', 'D', 'E']) await created(processor, BOOK, book({ title: t }));
      const page = (n: number, partial = false): Promise<unknown> =>
        provider.provideCollection(BOOK, query({ page: n, itemsPerPage: 2, partial })).then((p) =>
          ({ titles: p.items.map((i) => i.data.title), total: p.totalItems, next: p.hasNextPage }));
      expect(await page(1)).toEqual({ titles: ['A', 'B'], total: 5, next: true });
      expect(await page(3)).toEqual({ titles: ['E'], total: 5, next: false });
      expect(await page(4)).toEqual({ titles: [], total: 5, next: false });
      expect(await page(2, true)).toEqual({ titles: ['C', 'D'], total: undefined, next: true });
      expect(await page(3, true)).toEqual({ titles: ['E'], total: undefined, next: false });
    });

    test('order: given keys, then id; nulls first ascending and last descending; stable across pages', async () => {
      for (const [title, price] of [['a', 5], ['b', null], ['c', 5], ['d', 1], ['e', null]] as const) {
        await created(processor, BOOK, book({ title, price }));
      }
      expect(await titles({ order: [{ property: 'price', direction: 'asc' }] })).toEqual(['b', 'e', 'd', 'a', 'c']);
      expect(await titles({ order: [{ property: 'price', direction: 'desc' }] })).toEqual(['a', 'c', 'd', 'b', 'e']);
      const pages = [];
      for (let p = 1; p <= 3; p++) {
        pages.push(...await titles({ order: [{ property: 'price', direction: 'desc' }], page: p, itemsPerPage: 2 }));
      }
      expect(pages).toEqual(['a', 'c', 'd', 'b', 'e']);
      expect(await titles({ order: [{ property: 'title', direction: 'desc' }] })).toEqual(['e', 'd', 'c', 'b', 'a']);
      expect(await titles({ order: [{ property: 'id', direction: 'desc' }] })).toEqual(['e', 'd', 'c', 'b', 'a']);
    });
  });

  describe('provideCollection(resource, query): filters', () => {
    const TITLES = ['Dune', 'dune messiah', 'Children of Dune', '100% Dune', 'a_b', 'aXb', "O'Brien \"Quoted\"",
      'Éclat', 'éclat noir', 'Straße', 'back\\slash'];

    beforeEach(async () => {
      for (const title of TITLES) await created(processor, BOOK, book({ title }));
    });

    test('exact compares equal, case and all, any of several values', async () => {
      expect(await titles({ conditions: [search('title', 'exact', 'Dune')] })).toEqual(['Dune']);
      expect(await titles({ conditions: [search('title', 'exact', 'dune', "O'Brien \"Quoted\"")] }))
        .toEqual([TITLES[6]]);
    });

    test('partial, start and end match case-insensitively, Unicode letters too', async () => {
      expect(await titles({ conditions: [search('title', 'partial', 'DUNE')] }))
        .toEqual(['Dune', 'dune messiah', 'Children of Dune', '100% Dune']);
      expect(await titles({ conditions: [search('title', 'start', 'dune')] })).toEqual(['Dune', 'dune messiah']);
      expect(await titles({ conditions: [search('title', 'end', 'DUNE')] }))
        .toEqual(['Dune', 'Children of Dune', '100% Dune']);
      expect(await titles({ conditions: [search('title', 'partial', 'ÉCLAT')] })).toEqual(['Éclat', 'éclat noir']);
      expect(await titles({ conditions: [search('title', 'partial', 'STRASSE')] })).toEqual([]);
      expect(await titles({ conditions: [search('title', 'partial', 'straße')] })).toEqual(['Straße']);
    });

    test('% _ \\ and quotes in a value are literal characters, not patterns or SQL', async () => {
      expect(await titles({ conditions: [search('title', 'partial', '%')] })).toEqual(['100% Dune']);
      expect(await titles({ conditions: [search('title', 'partial', '_')] })).toEqual(['a_b']);
      expect(await titles({ conditions: [search('title', 'partial', 'a_b')] })).toEqual(['a_b']);
      expect(await titles({ conditions: [search('title', 'partial', '\\')] })).toEqual(['back\\slash']);
      expect(await titles({ conditions: [search('title', 'partial', "o'brien \"q")] })).toEqual([TITLES[6]]);
      expect(await titles({ conditions: [search('title', 'partial', "' OR 1=1 --")] })).toEqual([]);
    });

    test('word_start matches at the start of the value or after a space', async () => {
      expect(await titles({ conditions: [search('title', 'word_start', 'mes')] })).toEqual(['dune messiah']);
      expect(await titles({ conditions: [search('title', 'word_start', 'dune')] }))
        .toEqual(['Dune', 'dune messiah', 'Children of Dune', '100% Dune']);
      expect(await titles({ conditions: [search('title', 'word_start', 'une')] })).toEqual([]);
      // a value of several words: where a word starts, across the space
      expect(await titles({ conditions: [search('title', 'word_start', 'OF DU')] })).toEqual(['Children of Dune']);
      expect(await titles({ conditions: [search('title', 'word_start', 'NOIR', 'child')] }))
        .toEqual(['Children of Dune', 'éclat noir']);
    });
  });

  describe('provideCollection(resource, query): range, boolean, date, exists, relation', () => {
    beforeEach(async () => {
      const author = await created(processor, AUTHOR, { name: 'Dan Simmons', born: null });
      const rows: BookData[] = [
        { title: 'p1', price: 0, pages: 100, featured: true, publishedAt: '1989-05-26',
          updatedAt: '2026-01-01T00:00:00.000Z' },
        { title: 'p2', price: 9.5, pages: 200, featured: false, publishedAt: '1990-01-01', author: author.id },
        { title: 'p3', price: -1.25, pages: null, featured: true, publishedAt: null,
          updatedAt: '2025-12-31T23:59:59.999Z' },
        { title: 'p4', price: null, pages: 200, featured: false, publishedAt: '1989-05-27', author: author.id },
      ];
      for (const r of rows) await created(processor, BOOK, book(r));
    });

    test('range: gt, gte, lt, lte on numbers (nulls never match)', async () => {
      const range = (operator: 'gt' | 'gte' | 'lt' | 'lte', value: number): FilterCondition =>
        ({ type: 'range', property: 'price', operator, value });
      expect(await titles({ conditions: [range('gt', 0)] })).toEqual(['p2']);
      expect(await titles({ conditions: [range('gte', 0)] })).toEqual(['p1', 'p2']);
      expect(await titles({ conditions: [range('lt', 0)] })).toEqual(['p3']);
      expect(await titles({ conditions: [range('lte', 9.5), range('gte', -1.25)] })).toEqual(['p1', 'p2', 'p3']);
      // a fractional bound on an integer property (PostgreSQL would type the parameter as integer)
      expect(await titles({ conditions: [{ type: 'range', property: 'pages', operator: 'gt', value: 150.5 }] }))
        .toEqual(['p2', 'p4']);
    });

    test('exact on an integer and on a relation id', async () => {
      expect(await titles({ conditions: [search('pages', 'exact', 200)] })).toEqual(['p2', 'p4']);
      const author = (await provider.provideCollection(AUTHOR, query())).items[0];
      expect(await titles({ conditions: [search('author', 'exact', author.id)] })).toEqual(['p2', 'p4']);
    });

    test('exact on the identifier id: the items of several ids in one query', async () => {
      const all = (await provider.provideCollection(BOOK, query())).items;
      const ids = [all[3].id, all[0].id, 99999];
      const page = await provider.provideCollection(BOOK, query({ conditions: [search('id', 'exact', ...ids)] }));
      expect(page.items.map((i) => i.id)).toEqual([all[0].id, all[3].id]);
    });

    test('boolean and exists', async () => {
      const featured = (value: boolean): FilterCondition => ({ type: 'boolean', property: 'featured', value });
      expect(await titles({ conditions: [featured(true)] })).toEqual(['p1', 'p3']);
      expect(await titles({ conditions: [featured(false)] })).toEqual(['p2', 'p4']);
      expect(await titles({ conditions: [{ type: 'exists', property: 'publishedAt', value: false }] })).toEqual(['p3']);
      expect(await titles({ conditions: [{ type: 'exists', property: 'author', value: true }] })).toEqual(['p2', 'p4']);
    });

    test('any: one of its conditions holds (OR), inside the other conditions (AND); none matches nothing', async () => {
      const any = (...conditions: FilterCondition[]): FilterCondition => ({ type: 'any', conditions });
      const p2 = search('title', 'partial', 'P2');
      const cheap: FilterCondition = { type: 'range', property: 'price', operator: 'lt', value: 0 };
      expect(await titles({ conditions: [any(p2, cheap)] })).toEqual(['p2', 'p3']);
      const featured: FilterCondition = { type: 'boolean', property: 'featured', value: true };
      expect(await titles({ conditions: [any(p2, cheap), featured] })).toEqual(['p3']);
      expect(await titles({ conditions: [any()] })).toEqual([]);
    });

    test('date: before and after include the day, the strict ones do not; datetimes too', async () => {
      const date = (operator: 'before' | 'strictly_before' | 'after' | 'strictly_after', value: string,
        property = 'publishedAt'): FilterCondition => ({ type: 'date', property, operator, value });
      expect(await titles({ conditions: [date('before', '1989-05-27')] })).toEqual(['p1', 'p4']);
      expect(await titles({ conditions: [date('strictly_before', '1989-05-27')] })).toEqual(['p1']);
      expect(await titles({ conditions: [date('after', '1989-05-27')] })).toEqual(['p2', 'p4']);
      expect(await titles({ conditions: [date('strictly_after', '1989-05-27')] })).toEqual(['p2']);
      expect(await titles({ conditions: [date('after', '2026-01-01T00:00:00.000Z', 'updatedAt')] })).toEqual(['p1']);
      expect(await titles({ conditions: [date('strictly_before', '2026-01-01T00:00:00.000Z', 'updatedAt')] }))
        .toEqual(['p3']);
    });

    test('conditions all hold (AND), with order and pages', async () => {
      const page = await provider.provideCollection(BOOK, query({
        conditions: [{ type: 'boolean', property: 'featured', value: false }, search('pages', 'exact', 200)],
        order: [{ property: 'publishedAt', direction: 'desc' }], itemsPerPage: 1,
      }));
      expect({ titles: page.items.map((i) => i.data.title), total: page.totalItems, next: page.hasNextPage })
        .toEqual({ titles: ['p2'], total: 2, next: true });
    });
  });

  describe('provideCollection(resource, query): related (a condition on the related item, author.name)', () => {
    const onAuthor = (condition: FilterCondition): FilterCondition =>
      ({ type: 'related', property: 'author', target: AUTHOR, condition });

    beforeEach(async () => {
      const dan = await created(processor, AUTHOR, { name: 'Dan Simmons', born: '1948-04-04' });
      const frank = await created(processor, AUTHOR, { name: 'Frank Herbert', born: '1920-10-08' });
      const ursula = await created(processor, AUTHOR, { name: 'Ursula K. Le Guin 100%', born: null });
      const rows: Array<[string, StoredItem | null]> = [['Hyperion', dan], ['Dune', frank],
        ['Children of Dune', frank], ['Orphan', null], ['A Wizard of Earthsea', ursula]];
      for (const [title, by] of rows) await created(processor, BOOK, book({ title, author: by?.id ?? null }));
    });

    test('a text strategy on the related item\'s property finds the items pointing to the matching ones', async () => {
      expect(await titles({ conditions: [onAuthor(search('name', 'partial', 'HERB'))] }))
        .toEqual(['Dune', 'Children of Dune']);
      expect(await titles({ conditions: [onAuthor(search('name', 'word_start', 'sim', 'le'))] }))
        .toEqual(['Hyperion', 'A Wizard of Earthsea']);
      expect(await titles({ conditions: [onAuthor(search('name', 'partial', '%'))] })).toEqual(['A Wizard of Earthsea']);
      expect(await titles({ conditions: [onAuthor(search('name', 'partial', 'nobody'))] })).toEqual([]);
    });

    test('an item without the relation (null) never matches, whatever the condition', async () => {
      expect(await titles({ conditions: [onAuthor({ type: 'exists', property: 'born', value: false })] }))
        .toEqual(['A Wizard of Earthsea']);
      expect(await titles({ conditions: [onAuthor({ type: 'any', conditions: [] })] })).toEqual([]);
    });

    test('dates and ids of the related item; inside any (OR) with the item\'s own fields, and with AND', async () => {
      const bornBefore = onAuthor({ type: 'date', property: 'born', operator: 'before', value: '1930-01-01' });
      expect(await titles({ conditions: [bornBefore] })).toEqual(['Dune', 'Children of Dune']);
      const authors = (await provider.provideCollection(AUTHOR, query())).items;
      expect(await titles({ conditions: [onAuthor(search('id', 'exact', authors[0].id, authors[2].id))] }))
        .toEqual(['Hyperion', 'A Wizard of Earthsea']);
      const either: FilterCondition = {
        type: 'any', conditions: [search('title', 'partial', 'earth'), onAuthor(search('name', 'partial', 'simmons'))],
      };
      expect(await titles({ conditions: [either] })).toEqual(['Hyperion', 'A Wizard of Earthsea']);
      expect(await titles({ conditions: [either, search('title', 'start', 'hyp')] })).toEqual(['Hyperion']);
      expect(await titles({
        conditions: [onAuthor(search('name', 'partial', 'frank'))], order: [{ property: 'title', direction: 'desc' }],
        itemsPerPage: 1,
      })).toEqual(['Dune']);
    });
  });

  describe('provideCollection(resource, query): property', () => {
    const WORDS = ['Dune', 'dune', 'Hyper ion', '50%', 'a_b', "O'B", 'Éclat', 'éc', 'x y', 'ß', ''];
    const DATES = ['1965-08-01', '1989-05-26', '1989-05-27', '2000-01-01'];
    const text = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '));
    const row = fc.record({
      title: text,
      pages: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
      price: fc.option(fc.constantFrom(-1.5, 0, 2.25, 1e6), { nil: null }),
      featured: fc.boolean(),
      publishedAt: fc.option(fc.constantFrom(...DATES), { nil: null }),
    });
    const own: fc.Arbitrary<FilterCondition> = fc.oneof(
      fc.record({
        type: fc.constant('search' as const), property: fc.constant('title'),
        strategy: fc.constantFrom<SearchStrategy[]>('exact', 'partial', 'start', 'end', 'word_start'),
        values: fc.array(fc.constantFrom(...WORDS, 'DUNE', 'ION', '%', '_', 'É'), { minLength: 1, maxLength: 2 }),
      }),
      fc.record({
        type: fc.constant('search' as const), property: fc.constant('pages'), strategy: fc.constant('exact' as const),
        values: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 2 }),
      }),
      fc.record({ type: fc.constant('range' as const), property: fc.constantFrom('pages', 'price'),
        operator: fc.constantFrom<('gt' | 'gte' | 'lt' | 'lte')[]>('gt', 'gte', 'lt', 'lte'),
        value: fc.constantFrom(-1.5, 0, 1, 2.25) }),
      fc.record({ type: fc.constant('boolean' as const), property: fc.constant('featured'), value: fc.boolean() }),
      fc.record({ type: fc.constant('date' as const), property: fc.constant('publishedAt'),
        operator: fc.constantFrom<('before' | 'strictly_before' | 'after' | 'strictly_after')[]>(
          'before', 'strictly_before', 'after', 'strictly_after'),
        value: fc.constantFrom(...DATES) }),
      fc.record({
        type: fc.constant('exists' as const), property: fc.constantFrom('pages', 'price', 'publishedAt'),
        value: fc.boolean(),
      }),
    );
    /** A condition on the book's author (`author.name`, `author.born`), alone or beside the book's own. */
    const onAuthor: fc.Arbitrary<FilterCondition> = fc.oneof(
      fc.record({
        type: fc.constant('search' as const), property: fc.constant('name'),
        strategy: fc.constantFrom<SearchStrategy[]>('exact', 'partial', 'start', 'word_start'),
        values: fc.array(fc.constantFrom(...WORDS, 'DUNE', '%', 'É'), { minLength: 1, maxLength: 2 }),
      }),
      fc.record({ type: fc.constant('exists' as const), property: fc.constant('born'), value: fc.boolean() }),
      fc.record({ type: fc.constant('date' as const), property: fc.constant('born'),
        operator: fc.constantFrom<('before' | 'after')[]>('before', 'after'), value: fc.constantFrom(...DATES) }),
    );
    const related: fc.Arbitrary<FilterCondition> = onAuthor.map((inner) =>
      ({ type: 'related', property: 'author', target: AUTHOR, condition: inner }));
    const condition = fc.oneof(own, related,
      fc.array(fc.oneof(own, related), { maxLength: 3 }).map((conditions): FilterCondition => ({ type: 'any', conditions })));
    const author = fc.record({ name: text, born: fc.option(fc.constantFrom(...DATES), { nil: null }) });
    const collectionQuery: fc.Arbitrary<CollectionQuery> = fc.record({
      conditions: fc.array(condition, { maxLength: 3 }),
      order: fc.uniqueArray(fc.record({
        property: fc.constantFrom('title', 'pages', 'price', 'featured', 'publishedAt', 'id'),
        direction: fc.constantFrom('asc' as const, 'desc' as const),
      }), { maxLength: 2, selector: (o) => o.property }),
      page: fc.integer({ min: 1, max: 4 }),
      itemsPerPage: fc.integer({ min: 1, max: 6 }),
      partial: fc.boolean(),
    });

    test('for random items and queries, the page equals a plain JavaScript evaluation of the query', async () => {
      const queries = fc.array(collectionQuery, { minLength: 1, maxLength: 4 });
      // each book's author: an index into the run's authors (modulo their number), or none
      const rows = fc.array(fc.tuple(row, fc.option(fc.nat(3), { nil: null })), { maxLength: 14 });
      await fc.assert(fc.asyncProperty(fc.array(author, { maxLength: 3 }), rows, queries,
        async (authorRows, rows, queries) => {
          const authors: StoredItem[] = [];
          const items: StoredItem[] = [];
          try {
            for (const a of authorRows) authors.push(await created(processor, AUTHOR, a));
            for (const [r, k] of rows) {
              const by = k === null || authors.length === 0 ? null : authors[k % authors.length].id;
              items.push(await created(processor, BOOK, book({ ...r, author: by })));
            }
            for (const q of queries) {
              expect(await provider.provideCollection(BOOK, q))
                .toEqual(referencePage(BOOK, items, q, { Author: authors }));
            }
          } finally {
            for (const i of items) await processor.remove(BOOK, i.id);
            for (const a of authors) await processor.remove(AUTHOR, a.id);
          }
        }), { numRuns: options.propertyRuns ?? 40 });
    });
  });
}
