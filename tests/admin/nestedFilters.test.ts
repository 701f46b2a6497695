/**
 * Filters on nested properties in the back office (issue 25): a resource's filter on a path
 * through a relation (`SearchFilter({ 'writer.fullName': 'partial' })`,
 * `DateFilter(['writer.bornOn'])`) gets its control in the index's filter panel, labelled by the
 * path ("Writer › Full name"), typed by the field it ends on, and filters the list as the API's
 * query parameter does. On MemoryState, SQLite and PostgreSQL.
 */
import type TestAgent from 'supertest/lib/agent';
import type { Resource } from '../../src/api';
import { DateFilter, RangeFilter, SearchFilter } from '../../src/api';
import type { Kernel } from '../../src/kernel/createKernel';
import { scaled } from '../helpers/timeScale';
import { ownKernel, ownStores, parse, signedIn, tableRows, type OwnStore } from './ownBackOffice';

jest.setTimeout(scaled(60_000));

const STORES = ownStores('own_nested_filters');

describe.each(STORES)('nested filters in the back office on %s', (_name, open) => {
  let store: OwnStore;
  let kernel: Kernel;
  let alice: TestAgent;

  beforeEach(async () => {
    store = await open();
    let writer: Resource;
    let novel: Resource;
    ({ kernel, writer, novel } = ownKernel(store, {
      novelFilters: [
        SearchFilter({ writer: 'exact', 'writer.fullName': 'partial' }),
        DateFilter(['writer.bornOn']),
        RangeFilter(['pageCount']),
      ],
    }));
    alice = await signedIn(kernel, 'alice');
    const writers = [['Ursula K. Le Guin', '1929-10-21'], ['Octavia Butler', '1947-06-22'], ['Frank Herbert', null]];
    for (const [fullName, bornOn] of writers) {
      await writer.processor!.create(writer.metadata, { fullName, bornOn, passphrase: null });
    }
    const novels: Array<[string, number | null]> = [
      ['The Left Hand of Darkness', 1], ['Kindred', 2], ['Dune', 3], ['Anonymous Tales', null],
    ];
    for (const [title, w] of novels) {
      await novel.processor!.create(novel.metadata, { title, pageCount: null, blurb: null, writer: w });
    }
  });
  afterEach(async () => {
    await kernel.close();
    await store.close();
  });

  /** The titles the index lists for a query string. */
  const titles = async (query: string): Promise<string[]> => {
    const $ = parse((await alice.get(`/admin/novels?${query}`).expect(200)).text);
    return tableRows($, 'table').map((row) => row.find((cell) => /[A-Za-z]/.test(cell)) ?? '').sort();
  };

  test('the filter panel has a control per nested filter, labelled by its path and typed by the field it ends on', async () => {
    const $ = parse((await alice.get('/admin/novels').expect(200)).text);
    const control = (name: string) => $(`fieldset.filters [name="${name}"]`);
    const labelOf = (name: string): string => $(`label[for="${control(name).attr('id')}"]`).text().trim();
    expect(control('writer.fullName').attr('type')).toBe('text');
    expect(labelOf('writer.fullName')).toBe('Writer › Full name');
    expect(control('writer.bornOn[after]').attr('type')).toBe('date');
    expect(control('writer.bornOn[before]').attr('type')).toBe('date');
    expect(labelOf('writer.bornOn[after]')).toContain('Writer › Born on');
    // the plain filters are still there, in order
    const names = $('fieldset.filters [name]').toArray().map((e) => $(e).attr('name'));
    expect(names).toEqual(['writer', 'writer.fullName', 'writer.bornOn[after]', 'writer.bornOn[before]',
      'pageCount[gte]', 'pageCount[lte]']);
  });

  test('a nested filter filters the list, its value is kept in its control and counted on the panel', async () => {
    const $ = parse((await alice.get('/admin/novels?writer.fullName=butler').expect(200)).text);
    expect($('fieldset.filters [name="writer.fullName"]').attr('value')).toBe('butler');
    expect($('details.filters-panel').attr('open')).toBeDefined();
    expect($('details.filters-panel summary').text().trim()).toBe('Filters (1)');
    expect(await titles('writer.fullName=butler')).toEqual(['Kindred']);
    expect(await titles('writer.fullName=e')).toEqual(['Dune', 'Kindred', 'The Left Hand of Darkness']);
    expect(await titles(`${encodeURIComponent('writer.bornOn[after]')}=1940-01-01`)).toEqual(['Kindred']);
    expect(await titles(`${encodeURIComponent('writer.bornOn[before]')}=1940-01-01`))
      .toEqual(['The Left Hand of Darkness']);
  });

  test('a bad value in a nested date filter is a 400 naming the parameter, not a 500', async () => {
    const res = await alice.get(`/admin/novels?${encodeURIComponent('writer.bornOn[after]')}=not-a-date`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('writer.bornOn[after]');
  });
});
