/**
 * The query-string parser of collection requests is fed by untrusted input: for any string it
 * either returns a valid query or throws a 400 (InvalidQueryError), never anything else; and a
 * valid query written back by formatCollectionQuery reads into the same query.
 */
import fc from 'fast-check';
import { InvalidQueryError } from '../../../src/api/http/ApiErrors';
import { formatCollectionQuery, MAX_PAGE, parseCollectionQuery } from '../../../src/api/query/collectionQuery';
import { MemoryState } from '../../../src/api/state/MemoryState';
import type { CollectionQuery, FilterCondition } from '../../../src/api/state/types';
import { createDemoResources } from '../../../src/demo/resources';

const state = new MemoryState();
const [BOOK] = createDemoResources({ provider: state, processor: state });
const CONTEXT = { prefixes: { Book: '/api/books', Author: '/api/authors' } };

const NAMES = [
  'page', 'itemsPerPage', 'partial', 'title', 'title[]', 'isbn', 'author', 'author[]', 'order[title]', 'order[price]',
  'order[nope]', 'price[gt]', 'price[between]', 'price[lte]', 'featured', 'publishedAt[before]', 'publishedAt[after]',
  'exists[author]', 'exists[title]', 'nope', 'order', 'title[x]', '', '[', 'a[b][c]',
];
const VALUES = ['1', '0', '-1', '2', '100', '101', 'true', 'false', 'asc', 'DESC', 'x', '', '1..2', '..', '2020-01-01',
  '2020-02-30', '/api/authors/3', '/api/books/1', '%ZZ', '%20', '+', '1e5', '9'.repeat(20), 'é', '\u0000'];

describe('parseCollectionQuery(raw, resource)', () => {
  test.each([[true], [false]])('any query string (strict: %s): a CollectionQuery or an InvalidQueryError (400), nothing else', (strict) => {
    const name = fc.oneof(fc.constantFrom(...NAMES), fc.string());
    const pair = fc.tuple(name, fc.oneof(fc.constantFrom(...VALUES), fc.string()));
    const raw = fc.oneof(
      fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
    );
    fc.assert(fc.property(raw, (q) => {
      try {
        const query = parseCollectionQuery(q, BOOK, { ...CONTEXT, strict });
        expect(query.page).toBeGreaterThanOrEqual(1);
        expect(query.page).toBeLessThanOrEqual(MAX_PAGE);
        // itemsPerPage=0 asks for the count alone (API Platform)
        expect(query.itemsPerPage).toBeGreaterThanOrEqual(0);
        expect(query.itemsPerPage).toBeLessThanOrEqual(BOOK.pagination.maximumItemsPerPage);
        const filterable = new Set(BOOK.filters.map((f) => f.property));
        for (const c of query.conditions) expect(c.type !== 'any' && filterable.has(c.property)).toBe(true);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidQueryError);
        expect((e as InvalidQueryError).status).toBe(400);
        expect((e as InvalidQueryError).message.length).toBeGreaterThan(0);
      }
    }), { numRuns: 2000 });
  });

  test('a valid query written back reads into the same query', () => {
    const text = fc.string({ minLength: 1, maxLength: 12 });
    const date = fc.date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    const condition: fc.Arbitrary<FilterCondition> = fc.oneof(
      fc.array(text, { minLength: 1, maxLength: 3 }).map((values): FilterCondition => ({ type: 'search', property: 'title', strategy: 'partial', values })),
      fc.array(fc.integer({ min: 1, max: 1e9 }), { minLength: 1, maxLength: 3 })
        .map((values): FilterCondition => ({ type: 'search', property: 'author', strategy: 'exact', values })),
      fc.record({
        type: fc.constant('range' as const), property: fc.constant('price'),
        operator: fc.constantFrom('gt' as const, 'gte' as const, 'lt' as const, 'lte' as const),
        value: fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 100),
      }),
      fc.record({ type: fc.constant('boolean' as const), property: fc.constant('featured'), value: fc.boolean() }),
      fc.record({
        type: fc.constant('date' as const), property: fc.constant('publishedAt'),
        operator: fc.constantFrom('before' as const, 'after' as const, 'strictly_before' as const, 'strictly_after' as const), value: date,
      }),
      fc.record({ type: fc.constant('exists' as const), property: fc.constantFrom('author', 'publishedAt'), value: fc.boolean() }),
    );
    const query: fc.Arbitrary<CollectionQuery> = fc.record({
      // one condition per parameter name (a name given twice means "any of" for searches only)
      conditions: fc.uniqueArray(condition, {
        maxLength: 4,
        selector: (c) => `${c.type}:${'property' in c ? c.property : ''}:${'operator' in c ? c.operator : ''}`,
      }),
      order: fc.uniqueArray(fc.record({
        property: fc.constantFrom('title', 'publishedAt', 'price'), direction: fc.constantFrom('asc' as const, 'desc' as const),
      }), { maxLength: 3, selector: (o) => o.property }),
      page: fc.integer({ min: 1, max: MAX_PAGE }),
      itemsPerPage: fc.integer({ min: 1, max: 100 }),
      partial: fc.boolean(),
    });
    fc.assert(fc.property(query, (q) => {
      const back = parseCollectionQuery(formatCollectionQuery(q, BOOK), BOOK, CONTEXT);
      const key = (c: FilterCondition): string => JSON.stringify(c);
      const sorted = (cs: readonly FilterCondition[]): FilterCondition[] =>
        [...cs].sort((a, b) => key(a).localeCompare(key(b)));
      expect({ ...back, conditions: sorted(back.conditions) }).toEqual({ ...q, conditions: sorted(q.conditions) });
    }), { numRuns: 1000 });
  });
});
