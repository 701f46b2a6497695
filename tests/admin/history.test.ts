/**
 * The back office's history and export on resources of the tests' own (`Writer`, `Novel`), over
 * HTTP, on a MemoryState, a SQLite file and a PostgreSQL database: an item's history with old →
 * new values under the fields' labels (a write-only value never logged), the audit log page with
 * its filters (user, resource, item, action, day) and pages, deleted items by their last label
 * and without a link (dashboard and audit page), and the CSV export of the filtered, sorted list.
 * Pages are read with an HTML parser (cheerio).
 */
import type TestAgent from 'supertest/lib/agent';
import { parse as parseCsv } from 'csv-parse/sync';
import type { Resource } from '../../src/api';
import type { Kernel } from '../../src/kernel/createKernel';
import { scaled } from '../helpers/timeScale';
import {
  flashes, formToken, ownKernel, ownStores, parse, signedIn, tableRows, textOf, type OwnStore,
} from './ownBackOffice';

jest.setTimeout(scaled(30_000));



/** The changes of each row of a history table, one string per field. */
function changesOf($: ReturnType<typeof parse>, table: string): string[][] {
  return $(`${table} tbody tr`).toArray().map((tr) => $(tr).find('ul.changes li').toArray().map((li) => textOf($(li))));
}

const STORES = ownStores('own_admin');

describe.each(STORES)('history and export on %s', (_name, open) => {
  let store: OwnStore;
  let kernel: Kernel;
  let writer: Resource;
  let novel: Resource;
  let alice: TestAgent;

  beforeEach(async () => {
    store = await open();
    ({ kernel, writer, novel } = ownKernel(store, { itemsPerPage: 3 }));
    alice = await signedIn(kernel, 'alice');
  });
  afterEach(async () => {
    await kernel.close();
    await store.close();
  });

  /** Posts a form of the back office (its `_token` read from `page`) and expects a 303. */
  const post = async (agent: TestAgent, page: string, url: string, fields: Record<string, string>): Promise<void> => {
    const form = await agent.get(page).expect(200);
    await agent.post(url).type('form').send({ _token: formToken(form.text), ...fields }).expect(303);
  };

  test('an item\'s detail page shows its history: field labels, old → new values, a password never logged', async () => {
    await post(alice, '/admin/writers/new', '/admin/writers/new',
      { fullName: 'Ursula Le Guin', bornOn: '1929-10-21', passphrase: 'earthsea' });
    await post(alice, '/admin/writers/1/edit', '/admin/writers/1/edit',
      { _version: '1', fullName: 'Ursula K. Le Guin', bornOn: '1929-10-21', passphrase: 'anarres' });
    const $ = parse((await alice.get('/admin/writers/1').expect(200)).text);
    const rows = tableRows($, 'section table.history');
    expect(rows.map((r) => r.slice(1, 4))).toEqual([
      ['alice', 'updated', 'Ursula K. Le Guin (#1)'], ['alice', 'created', 'Ursula K. Le Guin (#1)'],
    ]);
    expect(changesOf($, 'section table.history')).toEqual([
      ['Full name: Ursula Le Guin → Ursula K. Le Guin', 'Passphrase (value not kept)'],
      ['Full name: Ursula Le Guin', 'Born on: Oct 21, 1929', 'Passphrase (value not kept)'],
    ]);
    expect($('section table.history del').first().text()).toBe('Ursula Le Guin');
    expect($('section table.history ins').first().text()).toBe('Ursula K. Le Guin');
    expect($.html()).not.toMatch(/earthsea|anarres/);
    const full = $('section a').filter((_i, a) => $(a).text().startsWith('Full history')).attr('href');
    expect(full).toBe('/admin/audit?resource=Writer&item=1');
    if (store.sql !== undefined) {
      const logged = await store.sql.db.selectFrom('audit_log').select('changes').execute();
      expect(JSON.stringify(logged)).not.toMatch(/earthsea|anarres/);
    }
  });

  test('a deleted item keeps its last label, without a link, on the dashboard and the audit page', async () => {
    await post(alice, '/admin/writers/new', '/admin/writers/new', { fullName: 'Stanisław Lem' });
    await post(alice, '/admin/writers/1/edit', '/admin/writers/1/edit', { _version: '1', fullName: 'S. Lem' });
    await post(alice, '/admin/writers/1/delete', '/admin/writers/1/delete', { _version: '2' });
    await post(alice, '/admin/writers/new', '/admin/writers/new', { fullName: 'Philip K. Dick' });
    for (const url of ['/admin', '/admin/audit']) {
      const $ = parse((await alice.get(url).expect(200)).text);
      const items = $('table.history tbody tr').toArray().map((tr) => $(tr).find('td').eq(3));
      // the audit page shows 3 a page (itemsPerPage), the dashboard its latest 10
      const shown = url === '/admin' ? 4 : 3;
      expect(items.map((td) => textOf(td))).toEqual(['Philip K. Dick (#2)', 'S. Lem (#1)', 'S. Lem (#1)', 'S. Lem (#1)']
        .slice(0, shown));
      expect(items.map((td) => td.find('a').attr('href'))).toEqual(['/admin/writers/2', undefined, undefined, undefined]
        .slice(0, shown));
      expect(tableRows($, 'table.history')[1][2]).toBe('deleted');
      expect(changesOf($, 'table.history').slice(1, 3)).toEqual([['Full name: S. Lem'], ['Full name: Stanisław Lem → S. Lem']]);
    }
    const $ = parse((await alice.get('/admin/audit?resource=Writer&item=1').expect(200)).text);
    expect(textOf($('main p').first())).toBe('This item was deleted.');
    await alice.get('/admin/writers/1').expect(404);
  });

  test('a relation\'s old and new values are shown by the related items\' labels', async () => {
    await post(alice, '/admin/writers/new', '/admin/writers/new', { fullName: 'Iain Banks' });
    await post(alice, '/admin/writers/new', '/admin/writers/new', { fullName: 'Iain M. Banks' });
    await post(alice, '/admin/novels/new', '/admin/novels/new', { title: 'Consider Phlebas', writer: '1' });
    await post(alice, '/admin/novels/1/edit', '/admin/novels/1/edit',
      { _version: '1', title: 'Consider Phlebas', writer: '2' });
    const $ = parse((await alice.get('/admin/novels/1').expect(200)).text);
    expect(changesOf($, 'section table.history')[0]).toEqual(['Writer: Iain Banks (#1) → Iain M. Banks (#2)']);
  });

  test('the audit page filters by user, resource, item, action and day, a page at a time', async () => {
    const bob = await signedIn(kernel, 'bob');
    for (const name of ['A', 'B', 'C', 'D']) {
      await post(alice, '/admin/writers/new', '/admin/writers/new', { fullName: `Writer ${name}` });
    }
    await post(bob, '/admin/novels/new', '/admin/novels/new', { title: 'By Bob' });
    await post(bob, '/admin/writers/2/edit', '/admin/writers/2/edit', { _version: '1', fullName: 'Writer B2' });
    const items = async (query: string): Promise<string[]> => {
      const $ = parse((await alice.get(`/admin/audit${query}`).expect(200)).text);
      return tableRows($, 'table.history').map((r) => `${r[1]} ${r[2]} ${r[3]}`);
    };
    // newest first, 3 a page (itemsPerPage)
    expect(await items('')).toEqual(['bob updated Writer B2 (#2)', 'bob created By Bob (#1)', 'alice created Writer D (#4)']);
    const first = parse((await alice.get('/admin/audit').expect(200)).text);
    expect(textOf(first('caption'))).toBe('6 changes');
    expect(first('a[rel="next"]').attr('href')).toBe('/admin/audit?page=2');
    expect(await items('?page=2')).toEqual(['alice created Writer C (#3)', 'alice created Writer B2 (#2)',
      'alice created Writer A (#1)']);
    expect(await items('?user=bob')).toEqual(['bob updated Writer B2 (#2)', 'bob created By Bob (#1)']);
    expect(await items('?resource=Novel')).toEqual(['bob created By Bob (#1)']);
    expect(await items('?resource=Writer&item=2')).toEqual(['bob updated Writer B2 (#2)',
      'alice created Writer B2 (#2)']);
    expect(await items('?action=update&user=alice')).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await items(`?from=${today}&to=${today}&user=bob`)).toHaveLength(2);
    expect(await items('?to=2000-01-01')).toEqual([]);
    expect(await items('?from=2999-01-01')).toEqual([]);
    // the filter form's empty fields never stay in the URL; bad parameters are a 400 naming them
    const empty = await alice.get('/admin/audit?user=&resource=Writer&action=&from=&to=&item=').expect(303);
    expect(empty.headers.location).toBe('/admin/audit?resource=Writer');
    for (const [query, message] of [
      ['?resource=Nope', 'resource'], ['?action=publish', 'action'], ['?from=2026-13-01', 'from'],
      ['?item=1', 'item'], ['?page=0', 'page'], ['?page=9', 'out of range'], ['?colour=red', 'colour'],
    ]) {
      const res = await alice.get(`/admin/audit${query}`).expect(400);
      expect(textOf(parse(res.text)('.error-summary'))).toContain(message);
    }
    // the filters panel is closed until a filter is in force (the log comes first); then it is open,
    // counts them and shows them
    const closed = parse((await alice.get('/admin/audit?page=2').expect(200)).text);
    expect(closed('details.filters-panel').attr('open')).toBeUndefined();
    expect(textOf(closed('details.filters-panel > summary'))).toBe('Filters');
    const $ = parse((await alice.get('/admin/audit?user=bob&action=create').expect(200)).text);
    expect($('details.filters-panel').attr('open')).toBeDefined();
    expect(textOf($('details.filters-panel > summary'))).toBe('Filters (2)');
    expect($('#audit-user').val()).toBe('bob');
    expect($('#audit-action option:selected').val()).toBe('create');
  });

  describe('CSV export', () => {
    const csvOf = async (url: string): Promise<string[][]> => {
      const res = await alice.get(url).buffer(true).parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
      }).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="\w+\.csv"$/);
      const body = res.body as string;
      expect(body.startsWith('\uFEFF')).toBe(true);
      const rows: string[][] = parseCsv(body.slice(1)); // every row as many cells as the header (or it throws)
      return rows;
    };

    test('the export holds the list\'s items, filtered and sorted as the index is, every page, labels first', async () => {
      const w = await writer.processor!.create(writer.metadata, { fullName: 'Anne', bornOn: null, passphrase: 'x' });
      if (w.status !== 'ok') throw new Error(w.status);
      for (let i = 1; i <= 1200; i++) {
        await novel.processor!.create(novel.metadata, {
          title: `Novel ${String(i).padStart(4, '0')}`, pageCount: i, blurb: i === 7 ? 'line one\nline "two", three' : null,
          writer: i % 2 === 0 ? w.item.id : null,
        });
      }
      const index = parse((await alice.get('/admin/novels?writer=1&sort=pageCount&direction=desc&page=2').expect(200)).text);
      const link = index('a[download]').attr('href');
      expect(link).toBe('/admin/novels/export.csv?writer=1&sort=pageCount&direction=desc');
      const rows = await csvOf(link!);
      expect(rows[0]).toEqual(['Id', 'Title', 'Page count', 'Blurb', 'Writer']);
      expect(rows).toHaveLength(1 + 600); // past one chunk (500) of the store
      expect(rows[1]).toEqual(['1200', 'Novel 1200', '1200', '', 'Anne (#1)']);
      expect(rows[600]).toEqual(['2', 'Novel 0002', '2', '', 'Anne (#1)']);
      const all = await csvOf('/admin/novels/export.csv?query=Novel%20000');
      expect(all.slice(1).map((r) => r[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
      expect(all[7][3]).toBe('line one\nline "two", three'); // quoted, round trip
      // the writers' export leaves the write-only passphrase out
      expect((await csvOf('/admin/writers/export.csv'))).toEqual([['Id', 'Full name', 'Born on'], ['1', 'Anne', '']]);
    });

    test('a cell a spreadsheet would run as a formula is written as text; a bad query is the index\'s 400', async () => {
      await novel.processor!.create(novel.metadata, { title: '=HYPERLINK("http://x")', pageCount: null, blurb: '@SUM(1)' });
      const rows = await csvOf('/admin/novels/export.csv');
      expect(rows[1]).toEqual(['1', '\'=HYPERLINK("http://x")', '', '\'@SUM(1)', '']);
      const bad = await alice.get('/admin/novels/export.csv?sort=nope').expect(400);
      expect(bad.headers['content-type']).toMatch(/text\/html/);
      expect(flashes(parse(bad.text))).toEqual([]);
    });
  });
});
