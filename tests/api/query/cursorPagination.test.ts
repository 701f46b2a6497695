/**
 * Cursor pagination (issue 25, API Platform's `paginationViaCursor` with a RangeFilter on the
 * field; `Hydra/Serializer/PartialCollectionViewNormalizer`, the SoMany cases of
 * tests/Functional/JsonLd/CursorPaginationTest and features/hydra/collection.feature), over HTTP
 * on every store (MemoryState, SQLite, PostgreSQL); walking `next` then `previous` visits every
 * item once each way (fast-check: random page sizes, directions and deleted items).
 */
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, GetCollection, MemoryState, OrderFilter, RangeFilter, readOnly,
  type StateProcessor, type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const LD = 'application/ld+json';
let seedWith: StateProcessor;

function resources(provider: StateProvider, processor: StateProcessor) {
  seedWith = processor;
  const schema = z.object({ id: readOnly(z.int()), content: z.string() });
  const filters = [RangeFilter(['id']), OrderFilter(['id'])];
  return [
    defineResource({
      shortName: 'SoMany', schema, provider, processor, filters,
      pagination: { viaCursor: [{ field: 'id', direction: 'DESC' }], itemsPerPage: 3 },
      operations: [GetCollection()],
    }),
    defineResource({
      shortName: 'Walk', schema, provider, processor, filters,
      operations: [GetCollection({ paginationViaCursor: [{ field: 'id', direction: 'ASC' }] })],
    }),
  ];
}

type View = Record<string, string | undefined>;

describeOnEveryStore('cursor pagination', resources, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
  });
  afterEach(() => opened.close());

  const get = async (url: string) => {
    const res = await request(kernel).get(url).set('Accept', LD);
    expect({ url, status: res.status }).toEqual({ url, status: 200 });
    return res.body as { 'hydra:member': Array<{ content: string; '@id': string }>; 'hydra:view': View };
  };
  const seed = async (n: number, at = 0) => {
    for (let i = 1; i <= n; i++) await seedWith.create(opened.resources[at].metadata, { content: `row ${i}` });
  };

  test('an empty collection: a view with its @id and no links', async () => {
    const body = await get('/api/so_manies');
    expect(body['hydra:member']).toEqual([]);
    expect(body['hydra:view']).toEqual({ '@id': '/api/so_manies', '@type': 'hydra:PartialCollectionView' });
  });

  test('previous and next are id[gt] and id[lt] of the page\'s first and last items; no count, no last', async () => {
    await seed(10);
    const body = await get('/api/so_manies?order[id]=desc');
    expect(body['hydra:member'].map((m) => m.content)).toEqual(['row 10', 'row 9', 'row 8']);
    expect(body['hydra:view']).toEqual({
      '@id': '/api/so_manies?order%5Bid%5D=desc', '@type': 'hydra:PartialCollectionView',
      'hydra:previous': '/api/so_manies?order%5Bid%5D=desc&id%5Bgt%5D=10',
      'hydra:next': '/api/so_manies?order%5Bid%5D=desc&id%5Blt%5D=8',
    });
    expect(body).not.toHaveProperty('hydra:totalItems');
    const filtered = await get('/api/so_manies?id[gt]=10&order[id]=desc');
    expect(filtered['hydra:member']).toEqual([]);
    expect(filtered['hydra:view']).toEqual({
      '@id': '/api/so_manies?id%5Bgt%5D=10&order%5Bid%5D=desc', '@type': 'hydra:PartialCollectionView',
    });
  });

  test('without an order the cursor\'s; a next link replaces the id range and keeps its place', async () => {
    await seed(10);
    const first = await get('/api/so_manies');
    expect(first['hydra:member'].map((m) => m.content)).toEqual(['row 10', 'row 9', 'row 8']);
    const second = await get(first['hydra:view']['hydra:next']!);
    expect(second['hydra:member'].map((m) => m.content)).toEqual(['row 7', 'row 6', 'row 5']);
    expect(second['hydra:view']['hydra:next']).toBe('/api/so_manies?id%5Blt%5D=5');
    const back = await get(second['hydra:view']['hydra:previous']!);
    expect(back['hydra:member'].map((m) => m.content)).toEqual(['row 10', 'row 9', 'row 8']);
  });

  test('walking next then previous visits every item once each way (random page sizes, both directions, gaps)', async () => {
    await seed(24, 0);
    await seed(24, 1);
    const gone = [1, 5, 6, 13, 24];
    for (const r of opened.resources) for (const id of gone) await seedWith.remove(r.metadata, id);
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(0, 1), fc.integer({ min: 1, max: 8 }),
      async (at, size) => {
        const base = at === 0 ? '/api/so_manies' : '/api/walks';
        let url: string | undefined = `${base}?itemsPerPage=${size}`;
        const forward: string[] = [];
        let last: string | undefined;
        while (url !== undefined) {
          const body = await get(url);
          if (body['hydra:member'].length === 0) break;
          forward.push(...body['hydra:member'].map((m) => m['@id']));
          last = url;
          url = body['hydra:view']['hydra:next'];
        }
        const expected = Array.from({ length: 24 }, (_, i) => i + 1).filter((id) => !gone.includes(id))
          .map((id) => `${base}/${id}`);
        expect(forward).toEqual(at === 0 ? [...expected].reverse() : expected);
        const backward: string[] = [];
        url = last;
        while (url !== undefined) {
          const body = await get(url);
          if (body['hydra:member'].length === 0) break;
          backward.unshift(...body['hydra:member'].map((m) => m['@id']));
          url = body['hydra:view']['hydra:previous'];
        }
        // from the last page back: the range on id is replaced, so the walk reaches the first item
        expect(backward).toEqual(at === 0 ? [...expected].reverse() : expected);
      },
    ), { numRuns: 12 });
  });
});

describe('cursor pagination options', () => {
  test('a cursor field without a RangeFilter stops the start-up', () => {
    const state = new MemoryState();
    expect(() => defineResource({
      shortName: 'SoMany', schema: z.object({ content: z.string() }), provider: state,
      pagination: { viaCursor: [{ field: 'id', direction: 'DESC' }] }, operations: [GetCollection()],
    })).toThrow(/"resources\.SoMany\.pagination\.viaCursor": expected a field with a RangeFilter.*RangeFilter\(\['id'\]\)/);
  });
});
