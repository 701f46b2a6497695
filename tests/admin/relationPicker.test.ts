/**
 * The relation picker (issue 26, point 4): a novel's writer among 5,000 writers on SQLite, over
 * HTTP, without script. The form shows an id input and a "Choose…" button instead of a select
 * of every writer (its HTML stays small); the button posts the form to the picker page, whose
 * search, pages and results carry every value typed so far; a result goes back to the form with
 * the choice, and the form saves it. A wrong id is the field's error; CSRF and roles are the
 * form's. Below the limit, the form keeps its select. Pages are read with cheerio, and forms are
 * sent as a browser would send them (every successful control, plus the pressed button).
 */
import type * as cheerio from 'cheerio';
import type TestAgent from 'supertest/lib/agent';
import request from 'supertest';
import type { Resource } from '../../src/api';
import type { Kernel } from '../../src/kernel/createKernel';
import { RELATION_SELECT_LIMIT } from '../../src/admin';
import { scaled } from '../helpers/timeScale';
import {
  memoryStore, ownKernel, parse, signedIn, sqlStore, tableRows, textOf, type OwnStore,
} from './ownBackOffice';

jest.setTimeout(scaled(60_000));

const WRITERS = 5000;
const name = (i: number): string => `Writer ${String(i).padStart(4, '0')}`;

/**
 * What a browser sends when `button` is pressed: the form's successful controls in tree order
 * (hidden, text and search inputs, checked boxes, textareas, selects), then the button's name
 * and value; to its `formaction`, else the form's `action`.
 */
function submission($: cheerio.CheerioAPI, button: cheerio.Cheerio<import('domhandler').Element>): {
  url: string; body: string;
} {
  const form = button.closest('form');
  const pairs: Array<[string, string]> = [];
  form.find('input, textarea, select').each((_i, el) => {
    const control = $(el);
    const name = control.attr('name');
    if (name === undefined || control.attr('disabled') !== undefined) return;
    const type = control.attr('type') ?? 'text';
    if (el.tagName === 'input' && (type === 'checkbox' || type === 'radio')) {
      if (control.attr('checked') !== undefined) pairs.push([name, control.attr('value') ?? 'on']);
    } else if (el.tagName === 'select') {
      const chosen = control.find('option[selected]').first();
      pairs.push([name, (chosen.length > 0 ? chosen : control.find('option').first()).attr('value') ?? '']);
    } else if (el.tagName === 'textarea') {
      pairs.push([name, control.text()]);
    } else if (type !== 'submit') {
      pairs.push([name, control.attr('value') ?? '']);
    }
  });
  const buttonName = button.attr('name');
  if (buttonName !== undefined) pairs.push([buttonName, button.attr('value') ?? '']);
  return {
    url: button.attr('formaction') ?? form.attr('action')!,
    body: new URLSearchParams(pairs).toString(),
  };
}

/** Sets a control's value on a parsed page (what typing does). */
function type($: cheerio.CheerioAPI, selector: string, value: string): void {
  const control = $(selector);
  expect(control).toHaveLength(1);
  if (control.is('textarea')) control.text(value);
  else control.attr('value', value);
}

/** Presses a button of a page: its form's submission (a request to await, headers may be added). */
function press(agent: TestAgent, $: cheerio.CheerioAPI, button: cheerio.Cheerio<import('domhandler').Element>) {
  expect(button).toHaveLength(1);
  const { url, body } = submission($, button);
  return agent.post(url).type('form').send(body);
}

/** The button of a page whose text is `text`. */
function button($: cheerio.CheerioAPI, text: string): cheerio.Cheerio<import('domhandler').Element> {
  return $('button:not([hidden])').filter((_i, b) => textOf($(b)) === text);
}

describe('a relation to 5,000 writers on SQLite', () => {
  let store: OwnStore;
  let kernel: Kernel;
  let writer: Resource;
  let novel: Resource;
  let alice: TestAgent;

  beforeAll(async () => {
    store = await sqlStore();
    ({ kernel, writer, novel } = ownKernel(store));
    // one transaction of multi-row inserts: a second on a busy machine, instead of 5,000 commits
    const rows = Array.from({ length: WRITERS }, (_v, i) => ({ fullName: name(i + 1) }));
    await store.sql!.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) {
        await trx.insertInto(writer.metadata.table as never).values(rows.slice(i, i + 500) as never).execute();
      }
    });
    alice = await signedIn(kernel, 'alice');
  });
  afterAll(async () => {
    await kernel.close();
    await store.close();
  });

  test('the form has an id input and a "Choose…" button, not a select of 5,000: its page stays under 12 kB', async () => {
    const page = await alice.get('/admin/novels/new').expect(200);
    const $ = parse(page.text);
    expect($('select[name="writer"]')).toHaveLength(0);
    const input = $('input#field-writer');
    expect([input.attr('type'), input.attr('name'), input.attr('value')]).toEqual(['text', 'writer', '']);
    expect(input.attr('aria-describedby')).toBe('help-writer current-writer');
    expect(textOf($('#current-writer'))).toBe('Nothing chosen.');
    expect(textOf($('#help-writer'))).toBe('Type its id or IRI, or press “Choose…” to search.');
    const choose = button($, 'Choose… Writer');
    expect(choose.attr('formaction')).toBe('/admin/novels/new/pick/writer');
    // Enter in a field saves: the form's first submit button is a hidden Create, before "Choose…"
    const first = $('form.form button[type="submit"]').first();
    expect([first.text(), first.is('[hidden]'), first.attr('formaction')]).toEqual(['Create', true, undefined]);
    // a select of every writer would be some 40 bytes an option: 200 kB; the page is a few kB
    const option = '<option value="5000">Writer 5000 (#5000)</option>';
    expect(option.length * WRITERS).toBeGreaterThan(200_000);
    expect(Buffer.byteLength(page.text)).toBeLessThan(12_000);
    // the index's filter on the writer is an input too (an id, an IRI or a name)
    const index = parse((await alice.get('/admin/novels').expect(200)).text);
    expect(index('select[name="writer"]')).toHaveLength(0);
    const filter = index('input[name="writer"]');
    expect(textOf(index(`label[for="${filter.attr('id')}"]`))).toBe('Writer (id or name)');
  });

  test('the 4,321st writer is chosen by search → pick → save, every typed value kept on the way', async () => {
    let $ = parse((await alice.get('/admin/novels/new').expect(200)).text);
    type($, '#field-title', 'Kindred');
    type($, '#field-pageCount', '264');
    type($, '#field-blurb', 'A woman is pulled back in time, again and again.');
    let res = await press(alice, $, button($, 'Choose… Writer'));
    expect(res.status).toBe(200);
    $ = parse(res.text);
    expect(textOf($('h1'))).toBe('Choose: Writer');
    expect(textOf($('main > p').first())).toBe('For the form “New Novel”.');
    expect(textOf($('#picker-current'))).toBe('Nothing chosen.');
    // the first page of all 5,000, by name, 20 a page
    expect(textOf($('#picker-results'))).toBe('Results (5,000 items)');
    expect($('ul.choices button')).toHaveLength(20);
    expect(textOf($('.pagination [aria-current]'))).toBe('Page 1 of 250');
    expect(textOf($('label[for="picker-query"]'))).toBe('Search by id or in Full name');
    // the form's values ride along in hidden fields
    const hidden = (n: string): string | undefined => $(`input[type="hidden"][name="${n}"]`).attr('value');
    expect([hidden('title'), hidden('pageCount'), hidden('blurb')])
      .toEqual(['Kindred', '264', 'A woman is pulled back in time, again and again.']);

    // a page further, then a search
    $ = parse((await press(alice, $, button($, 'Next'))).text);
    expect(textOf($('.pagination [aria-current]'))).toBe('Page 2 of 250');
    expect(textOf($('ul.choices button').first())).toBe('Writer 0021 (#21)');
    type($, '#picker-query', 'writer 4321');
    res = await press(alice, $, button($, 'Search'));
    $ = parse(res.text);
    expect($('ul.choices button').toArray().map((b) => textOf($(b)))).toEqual(['Writer 4321 (#4321)']);
    expect(textOf($('#picker-results'))).toBe('Results (1 item)');

    // the pick: back to the form, the choice named, the values as typed, nothing saved yet
    res = await press(alice, $, button($, 'Writer 4321 (#4321)'));
    expect(res.status).toBe(200);
    $ = parse(res.text);
    expect(textOf($('h1'))).toBe('New Novel');
    expect($('#field-writer').attr('value')).toBe('4321');
    expect(textOf($('#current-writer'))).toBe('Chosen: Writer 4321 (#4321)');
    expect([$('#field-title').attr('value'), $('#field-pageCount').attr('value'), textOf($('#field-blurb'))])
      .toEqual(['Kindred', '264', 'A woman is pulled back in time, again and again.']);
    expect((await novel.provider!.provideCollection(novel.metadata, {
      conditions: [], order: [], page: 1, itemsPerPage: 1, partial: false,
    })).totalItems).toBe(0);

    res = await press(alice, $, button($, 'Create'));
    expect(res.status).toBe(303);
    const id = Number(/\/admin\/novels\/(\d+)$/.exec(res.headers.location)![1]);
    const saved = await novel.provider!.provideItem(novel.metadata, id);
    expect(saved!.data).toMatchObject({ title: 'Kindred', pageCount: 264, writer: 4321 });
    const detail = parse((await alice.get(res.headers.location).expect(200)).text);
    expect(textOf(detail('.flashes'))).toBe('Kindred (#1) was created.');
    expect(textOf(detail('dd a').filter((_i, a) => detail(a).attr('href') === '/admin/writers/4321')))
      .toBe('Writer 4321 (#4321)');
  });

  test('on the edit form: the version and the other values ride along; a name typed in the id input is searched', async () => {
    const created = await novel.processor!.create(novel.metadata,
      { title: 'Parable of the Sower', pageCount: null, blurb: null, writer: 7 });
    if (created.status !== 'ok') throw new Error(created.status);
    const id = created.item.id;
    let $ = parse((await alice.get(`/admin/novels/${id}/edit`).expect(200)).text);
    expect(textOf($('#current-writer'))).toBe('Chosen: Writer 0007 (#7)');
    type($, '#field-title', 'Parable of the Talents');
    type($, '#field-writer', 'writer 4999'); // a name, not an id: the picker searches it
    let res = await press(alice, $, button($, 'Choose… Writer'));
    $ = parse(res.text);
    expect(textOf($('main > p').first())).toBe(`For the form “Edit Parable of the Sower (#${id})”.`);
    expect($('#picker-query').attr('value')).toBe('writer 4999');
    expect($('input[type="hidden"][name="_version"]').attr('value')).toBe('1');
    res = await press(alice, $, button($, 'Writer 4999 (#4999)'));
    $ = parse(res.text);
    expect([$('#field-title').attr('value'), $('#field-writer').attr('value')]).toEqual(['Parable of the Talents', '4999']);
    res = await press(alice, $, button($, 'Save'));
    expect(res.status).toBe(303);
    const saved = await novel.provider!.provideItem(novel.metadata, id);
    expect([saved!.data.title, saved!.data.writer, saved!.version]).toEqual(['Parable of the Talents', 4999, 2]);

    // "Back to the form" keeps what was there; "Choose none" empties an optional relation
    $ = parse((await alice.get(`/admin/novels/${id}/edit`).expect(200)).text);
    $ = parse((await press(alice, $, button($, 'Choose… Writer'))).text);
    const back = parse((await press(alice, $, button($, 'Back to the form, unchanged'))).text);
    expect(back('#field-writer').attr('value')).toBe('4999');
    const none = parse((await press(alice, $, button($, 'Choose none'))).text);
    expect([none('#field-writer').attr('value'), textOf(none('#current-writer'))]).toEqual(['', 'Nothing chosen.']);
  });

  test('a search by id, a page past the last, an IRI typed by hand', async () => {
    let $ = parse((await alice.get('/admin/novels/new').expect(200)).text);
    type($, '#field-writer', '/api/writers/12');
    $ = parse((await press(alice, $, button($, 'Choose… Writer'))).text);
    // an IRI names the writer: shown as the current choice, nothing searched
    expect(textOf($('#picker-current'))).toBe('Chosen: Writer 0012 (#12)');
    expect($('#picker-query').attr('value')).toBe('');
    type($, '#picker-query', '123');
    $ = parse((await press(alice, $, button($, 'Search'))).text);
    // id 123 and every name holding "123": 0123, 1123, 1230 to 1239, 2123, 3123, 4123
    const found = $('ul.choices button').toArray().map((b) => textOf($(b)));
    expect(found.slice(0, 3)).toEqual(['Writer 0123 (#123)', 'Writer 1123 (#1123)', 'Writer 1230 (#1230)']);
    expect(textOf($('#picker-results'))).toBe('Results (15 items)');
    // a page past the last (a list that shrank since) shows the last
    type($, '#picker-query', '');
    $('form.picker-page').append('<input type="hidden" name="_page" value="999">');
    $ = parse((await press(alice, $, button($, 'Search'))).text);
    expect(textOf($('.pagination [aria-current]'))).toBe('Page 250 of 250');
    expect(textOf($('ul.choices button').last())).toBe('Writer 5000 (#5000)');
  });

  test('a wrong id typed by hand is the field\'s error, in the page\'s language', async () => {
    const page = await alice.get('/admin/novels/new').expect(200);
    let $ = parse(page.text);
    type($, '#field-title', 'Lost');
    type($, '#field-writer', '99999');
    let res = await press(alice, $, button($, 'Create'));
    expect(res.status).toBe(422);
    $ = parse(res.text);
    expect(textOf($('#error-writer'))).toBe('No Writer has this IRI.');
    expect(textOf($('#current-writer'))).toBe('No item has the id or IRI “99999”.');
    expect($('#field-writer').attr('aria-invalid')).toBe('true');
    expect($('#field-title').attr('value')).toBe('Lost');
    type($, '#field-writer', 'Octavia');
    res = await press(alice, $, button($, 'Create'));
    expect(textOf(parse(res.text)('#error-writer'))).toBe('Expected the IRI of a Writer (/api/writers/<id>).');

    const fr = parse((await alice.get('/admin/novels/new').set('Accept-Language', 'fr').expect(200)).text);
    expect(textOf(button(fr, 'Choisir… Writer'))).toBe('Choisir… Writer');
    expect(textOf(fr('#current-writer'))).toBe('Aucun choix.');
    expect(textOf(fr('#help-writer'))).toBe('Saisissez son identifiant ou son IRI, ou appuyez sur « Choisir… » pour chercher.');
    type(fr, '#field-title', 'Perdu');
    type(fr, '#field-writer', '99999');
    res = await press(alice, fr, button(fr, 'Créer')).set('Accept-Language', 'fr');
    expect(res.status).toBe(422);
    const frError = parse(res.text);
    expect(textOf(frError('#error-writer'))).toBe('Aucun élément Writer n’a cet IRI.');
    expect(textOf(frError('#current-writer'))).toBe('Aucun élément n’a l’identifiant ou l’IRI « 99999 ».');
    const picker = parse((await press(alice, frError, button(frError, 'Choisir… Writer')).set('Accept-Language', 'fr')).text);
    expect([textOf(picker('h1')), textOf(picker('label[for="picker-query"]'))])
      .toEqual(['Choisir : Writer', 'Rechercher par n° ou dans Full name']);
    expect(picker('form > .buttons button').toArray().map((b) => textOf(picker(b))))
      .toEqual(['N’en choisir aucun', 'Retour au formulaire, sans changement']);
  });

  test('the picker and the way back refuse a POST without a valid CSRF token', async () => {
    const bad = await alice.post('/admin/novels/new/pick/writer').type('form').send({ title: 'X', _token: 'forged' });
    expect(bad.status).toBe(403);
    expect(textOf(parse(bad.text)('h1'))).toBe('Error 403');
    await alice.post('/admin/novels/new').type('form').send({ _resume: '1', writer: '12' }).expect(403);
    await alice.post('/admin/novels/1/edit/pick/writer').type('form').send({}).expect(403);
    // a field that is no relation of the form has no picker
    const $ = parse((await alice.get('/admin/novels/new').expect(200)).text);
    const token = $('input[name="_token"]').attr('value')!;
    await alice.post('/admin/novels/new/pick/title').type('form').send({ _token: token }).expect(404);
  });

  test('the picker asks for the form\'s role: a ROLE_USER is refused, an anonymous visitor sent to log in', async () => {
    const dave = await signedIn(kernel, 'dave');
    const refused = await dave.post('/admin/novels/new/pick/writer').type('form').send({});
    expect(refused.status).toBe(403);
    expect(textOf(parse(refused.text)('h1'))).toBe('Error 403');
    const anonymous = await request(kernel).post('/admin/novels/new/pick/writer').type('form').send({});
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toMatch(/\/admin\/login$/);
  });

  test('the index\'s writer filter takes a name, an id or an IRI', async () => {
    for (const [i, title] of [[4321, 'By 4321'], [4322, 'By 4322'], [1, 'By 1']] as const) {
      await novel.processor!.create(novel.metadata, { title, pageCount: null, blurb: null, writer: i });
    }
    const titles = async (query: string): Promise<string[]> => {
      const $ = parse((await alice.get(`/admin/novels?${query}`).expect(200)).text);
      return tableRows($, 'table').map((cells) => cells[2]).filter((t) => t.startsWith('By '));
    };
    expect(await titles('writer=4321')).toEqual(['By 4321']);
    expect(await titles(`writer=${encodeURIComponent('/api/writers/4322')}`)).toEqual(['By 4322']);
    expect((await titles('writer=WRITER%20432')).sort()).toEqual(['By 4321', 'By 4322']);
    const $ = parse((await alice.get('/admin/novels?writer=writer%204321').expect(200)).text);
    expect($('input[name="writer"]').attr('value')).toBe('writer 4321');
    const csv = await alice.get('/admin/novels/export.csv?writer=writer%204321').expect(200);
    const lines = csv.text.trim().split(/\r?\n/).slice(1);
    expect(lines.some((line) => line.includes(',By 4321,'))).toBe(true);
    expect(lines.every((line) => line.endsWith(',Writer 4321 (#4321)'))).toBe(true);
  });
});

describe('a relation to a few writers (MemoryState)', () => {
  let store: OwnStore;
  afterEach(() => store.close());

  test(`keeps its select up to relationSelectLimit (${RELATION_SELECT_LIMIT} by default), a picker above`, async () => {
    store = await memoryStore();
    const { kernel, writer } = ownKernel(store);
    for (let i = 1; i <= 3; i++) await writer.processor!.create(writer.metadata, { fullName: name(i) });
    const alice = await signedIn(kernel, 'alice');
    const $ = parse((await alice.get('/admin/novels/new').expect(200)).text);
    expect($('select[name="writer"] option').toArray().map((o) => $(o).text()))
      .toEqual(['(none)', 'Writer 0001 (#1)', 'Writer 0002 (#2)', 'Writer 0003 (#3)']);
    expect(button($, 'Choose… Writer')).toHaveLength(0);
    await kernel.close();

    const two = ownKernel(store, { relationSelectLimit: 2 });
    const bob = await signedIn(two.kernel, 'bob');
    let page = parse((await bob.get('/admin/novels/new').expect(200)).text);
    expect(page('select[name="writer"]')).toHaveLength(0);
    type(page, '#field-title', 'Dawn');
    page = parse((await press(bob, page, button(page, 'Choose… Writer'))).text);
    page = parse((await press(bob, page, button(page, 'Writer 0003 (#3)'))).text);
    const res = await press(bob, page, button(page, 'Create'));
    expect(res.status).toBe(303);
    const novels = await two.novel.provider!.provideCollection(two.novel.metadata, {
      conditions: [], order: [], page: 1, itemsPerPage: 5, partial: false,
    });
    expect(novels.items.map((n) => [n.data.title, n.data.writer])).toEqual([['Dawn', 3]]);
    await two.kernel.close();
  });
});
