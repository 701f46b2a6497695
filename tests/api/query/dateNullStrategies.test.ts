/**
 * DateFilter's null strategies (issue 25, API Platform's `DateFilterInterface::EXCLUDE_NULL`,
 * `INCLUDE_NULL_BEFORE`, `INCLUDE_NULL_AFTER`, `INCLUDE_NULL_BEFORE_AND_AFTER`, with the
 * semantics of `Doctrine/Orm/Filter/DateFilter::addWhere`): per property, over HTTP, on every
 * store (MemoryState, SQLite, PostgreSQL); the documentation says which operators match a null;
 * an unknown strategy stops the start-up.
 */
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, DateFilter, defineResource, describeApi, MemoryState, readOnly, relation, type StateProcessor,
  type StateProvider,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore, type OpenedStore } from '../relations/relationStores';

const JSON_TYPE = 'application/json';

function resources(provider: StateProvider, processor: StateProcessor) {
  const owner = defineResource({
    shortName: 'Owner',
    schema: z.object({ id: readOnly(z.int()), name: z.string(), bornOn: z.iso.date().nullable() }),
    provider, processor,
  });
  const task = defineResource({
    shortName: 'Task',
    schema: z.object({
      id: readOnly(z.int()), name: z.string(),
      plain: z.iso.date().nullable(),
      excluded: z.iso.date().nullable(),
      before: z.iso.date().nullable(),
      after: z.iso.datetime().nullable(),
      both: z.iso.date().nullable(),
      owner: relation('Owner').nullable(),
    }),
    filters: [DateFilter({
      plain: null, excluded: 'exclude_null', before: 'include_null_before', after: 'include_null_after',
      both: 'include_null_before_and_after', 'owner.bornOn': 'include_null_after',
    })],
    provider, processor,
  });
  return [owner, task];
}

describeOnEveryStore('DateFilter null strategies', resources, (open) => {
  let opened: OpenedStore;
  let kernel: Kernel;
  beforeEach(async () => {
    opened = await open();
    kernel = createKernel({ routes: apiRoutes({ resources: opened.resources }), debug: false });
    const post = async (url: string, body: object): Promise<string> => {
      const res = await request(kernel).post(url).set('Content-Type', JSON_TYPE).set('Accept', 'application/ld+json')
        .send(JSON.stringify(body));
      expect(res.status).toBe(201);
      return String(res.body['@id']);
    };
    const dated = await post('/api/owners', { name: 'dated', bornOn: '1990-01-01' });
    const undated = await post('/api/owners', { name: 'undated', bornOn: null });
    const day = (d: string | null, time = false) => (d === null || !time ? d : `${d}T12:00:00.000Z`);
    const rows: Array<[string, string | null, string | null]> = [
      ['early', '2020-01-01', dated], ['middle', '2020-06-01', undated], ['none', null, null], ['late', '2021-01-01', null],
    ];
    for (const [name, d, owner] of rows) {
      await post('/api/tasks', {
        name, plain: d, excluded: d, before: d, after: day(d, true), both: d, owner,
      });
    }
  });
  afterEach(() => opened.close());

  const names = async (query: string): Promise<string[]> => {
    const res = await request(kernel).get(`/api/tasks?${query}`).set('Accept', JSON_TYPE);
    expect(res.status).toBe(200);
    return (res.body as Array<{ name: string }>).map((t) => t.name);
  };

  test('no strategy and exclude_null: a null date matches no operator', async () => {
    for (const p of ['plain', 'excluded']) {
      expect(await names(`${p}[before]=2020-06-01`)).toEqual(['early', 'middle']);
      expect(await names(`${p}[strictly_before]=2020-06-01`)).toEqual(['early']);
      expect(await names(`${p}[after]=2020-06-01`)).toEqual(['middle', 'late']);
      expect(await names(`${p}[strictly_after]=2020-06-01`)).toEqual(['late']);
    }
  });

  test('include_null_before: a null date matches before and strictly_before, not after', async () => {
    expect(await names('before[before]=2020-06-01')).toEqual(['early', 'middle', 'none']);
    expect(await names('before[strictly_before]=2020-06-01')).toEqual(['early', 'none']);
    expect(await names('before[after]=2020-06-01')).toEqual(['middle', 'late']);
    expect(await names('before[strictly_after]=2020-06-01')).toEqual(['late']);
  });

  test('include_null_after: a null datetime matches after and strictly_after, not before', async () => {
    expect(await names('after[after]=2020-06-01T12:00:00Z')).toEqual(['middle', 'none', 'late']);
    expect(await names('after[strictly_after]=2020-06-01T12:00:00Z')).toEqual(['none', 'late']);
    expect(await names('after[before]=2020-06-01T12:00:00Z')).toEqual(['early', 'middle']);
    expect(await names('after[strictly_before]=2020-06-01T12:00:00Z')).toEqual(['early']);
  });

  test('include_null_before_and_after: a null date matches every operator', async () => {
    expect(await names('both[before]=2020-06-01')).toEqual(['early', 'middle', 'none']);
    expect(await names('both[strictly_after]=2020-06-01')).toEqual(['none', 'late']);
  });

  test('two operators are two conditions that both hold: a null passes only if both let it', async () => {
    expect(await names('after[after]=2020-01-01T00:00:00Z&after[before]=2020-12-31T00:00:00Z'))
      .toEqual(['early', 'middle']);
    expect(await names('both[after]=2020-01-02&both[before]=2020-12-31')).toEqual(['middle', 'none']);
  });

  test('on a dotted path the null is the related item\'s: an item without one never matches (inner join)', async () => {
    expect(await names('owner.bornOn[after]=1995-01-01')).toEqual(['middle']);
    expect(await names('owner.bornOn[after]=1980-01-01')).toEqual(['early', 'middle']);
    expect(await names('owner.bornOn[before]=1995-01-01')).toEqual(['early']);
  });

  test('the view links keep the parameters as sent', async () => {
    const res = await request(kernel).get('/api/tasks?before%5Bbefore%5D=2020-06-01').set('Accept', 'application/ld+json');
    expect(res.body['hydra:view']['@id']).toBe('/api/tasks?before%5Bbefore%5D=2020-06-01');
    expect(res.body['hydra:totalItems']).toBe(3);
  });
});

describe('DateFilter null strategies in the documentation and the options', () => {
  test('each parameter whose operator matches a null says so; the others do not', () => {
    const state = new MemoryState();
    const api = describeApi(resources(state, state));
    const params = api.resources.find((r) => r.shortName === 'Task')!.filters.flatMap((f) => f.parameters);
    const description = (name: string) => params.find((p) => p.name === name)?.description;
    expect(description('before[strictly_before]')).toBe('before strictly before the date, or null.');
    expect(description('before[after]')).toBe('before after the date.');
    expect(description('after[after]')).toBe('after after the date, or null.');
    expect(description('both[before]')).toBe('both before the date, or null.');
    expect(description('excluded[before]')).toBe('excluded before the date.');
  });

  test('an unknown strategy stops the start-up, with a did you mean', () => {
    const schema = z.object({ id: readOnly(z.int()), due: z.iso.date().nullable() });
    expect(() => defineResource({
      shortName: 'Task', schema, provider: new MemoryState(), processor: new MemoryState(),
      filters: [DateFilter({ due: 'include_null_afterr' as never })],
    })).toThrow(/"resources\.Task\.filters\[0\]\.properties\.due": expected null or one of exclude_null, .*"include_null_afterr".*did you mean "include_null_after"/);
  });
});
