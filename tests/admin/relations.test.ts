/**
 * Relations in the back office, on resources of the tests' own (`Writer`, `Novel`), over HTTP,
 * on a MemoryState, a SQLite file and a PostgreSQL database: a writer's detail page lists their
 * novels with a link to the index filtered to them, and deleting a writer who has novels is
 * refused with the count and that link; the index's search finds novels by their writer's name
 * (`searchFields: ['title', 'writer.fullName']`). Pages are read with an HTML parser (cheerio).
 */
import type TestAgent from 'supertest/lib/agent';
import type { Resource } from '../../src/api';
import type { Kernel } from '../../src/kernel/createKernel';
import { scaled } from '../helpers/timeScale';
import {
  formToken, ownKernel, ownStores, parse, signedIn, tableRows, textOf, type OwnStore,
} from './ownBackOffice';

jest.setTimeout(scaled(30_000));



const STORES = ownStores('own_relations');

describe.each(STORES)('relations on %s', (_name, open) => {
  let store: OwnStore;
  let kernel: Kernel;
  let writer: Resource;
  let novel: Resource;
  let alice: TestAgent;

  beforeEach(async () => {
    store = await open();
    ({ kernel, writer, novel } = ownKernel(store, { crud: { Novel: { searchFields: ['title', 'writer.fullName'] } } }));
    alice = await signedIn(kernel, 'alice');
    for (const fullName of ['Octavia Butler', 'Nobody Yet']) {
      await writer.processor!.create(writer.metadata, { fullName, bornOn: null, passphrase: null });
    }
    for (let i = 1; i <= 12; i++) {
      await novel.processor!.create(novel.metadata, { title: `Novel ${String(i).padStart(2, '0')}`, pageCount: null,
        blurb: null, writer: i === 12 ? null : 1 });
    }
  });
  afterEach(async () => {
    await kernel.close();
    await store.close();
  });

  test('a writer\'s page lists their novels (the first 10) with a link to the index filtered to them', async () => {
    const $ = parse((await alice.get('/admin/writers/1').expect(200)).text);
    const section = $('section').filter((_i, s) => textOf($(s).find('h2')).startsWith('Novel'));
    expect(textOf(section.find('h2'))).toBe('Novel (Writer): 11');
    const links = section.find('ul.related a').toArray().map((a) => [$(a).text(), $(a).attr('href')]);
    expect(links).toHaveLength(10);
    expect(links[0]).toEqual(['Novel 01 (#1)', '/admin/novels/1']);
    const all = section.find('p a');
    expect([all.text(), all.attr('href')]).toEqual(['All 11 in the list', '/admin/novels?writer=1']);
    const index = parse((await alice.get(all.attr('href')!).expect(200)).text);
    expect(textOf(index('caption'))).toBe('11 items');
    // a writer without novels has no such section
    const none = parse((await alice.get('/admin/writers/2').expect(200)).text);
    expect(none('ul.related')).toHaveLength(0);
  });

  test('searching a writer\'s name finds their novels (searchFields: writer.fullName), in the list and its CSV', async () => {
    const $ = parse((await alice.get('/admin/novels?query=BUTLER').expect(200)).text);
    expect(textOf($('caption'))).toBe('11 items');
    expect(textOf($('label[for="query"]'))).toBe('Search in Title, Writer › Full name');
    // the novel's own title is still searched, beside the writer's name (any of them)
    const own = parse((await alice.get('/admin/novels?query=novel%2012').expect(200)).text);
    expect(tableRows(own, 'table').map((cells) => cells[2])).toEqual(['Novel 12']);
    // a writer without novels, and a novel without writer, are found by none of the other's
    expect(textOf(parse((await alice.get('/admin/novels?query=nobody').expect(200)).text)('main p.empty')))
      .toBe('Nothing found.');
    const csv = await alice.get('/admin/novels/export.csv?query=octavia').expect(200);
    expect(csv.text.trim().split(/\r?\n/)).toHaveLength(1 + 11);
    const fr = parse((await alice.get('/admin/novels?query=butler').set('Accept-Language', 'fr').expect(200)).text);
    expect(textOf(fr('label[for="query"]'))).toBe('Rechercher dans Title, Writer › Full name');
  });

  test('deleting a writer who has novels is refused with their count and a link to them', async () => {
    const page = await alice.get('/admin/writers/1/delete').expect(200);
    const res = await alice.post('/admin/writers/1/delete').type('form')
      .send({ _token: formToken(page.text), _version: '1' }).expect(409);
    const $ = parse(res.text);
    expect(textOf($('.error-summary'))).toBe('Octavia Butler (#1) cannot be deleted: 11 items of Novel (Writer) refer to it.');
    const link = $('main a').filter((_i, a) => $(a).text().startsWith('See them in the list'));
    expect(link.attr('href')).toBe('/admin/novels?writer=1');
    expect(await writer.provider!.provideItem(writer.metadata, 1)).not.toBeNull();
    // nothing was logged for the refused delete
    const audit = parse((await alice.get('/admin/audit').expect(200)).text);
    expect(tableRows(audit, 'table.history')).toEqual([]);
  });
});
