/**
 * The back office's per-resource configuration (`adminRoutes({ crud })`) and actions as a user
 * sees them, on resources of the tests' own (`Gadget`, `Maker`), over HTTP, on a MemoryState and
 * a SQLite file: labels and help per locale, fields per page and in order, the widget of each
 * field type, money and dates per locale, the relation's label property, sortable and
 * searchable fields, default sort, page size; custom item and batch actions (their function on
 * the chosen items, their confirmation, their role), batch delete asking first, select-all,
 * the inline boolean switch, and the way back to the list with its filter, sort and page.
 * Pages are read with an HTML parser (cheerio).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type TestAgent from 'supertest/lib/agent';
import { z } from 'zod';
import { adminRoutes, auditLogMigration, type AdminOptions } from '../../src/admin';
import {
  defineResource, MemoryState, readOnly, relation, SearchFilter, text, type Resource, type StateProcessor,
  type StateProvider, type StoredItem,
} from '../../src/api';
import { createSqlState, resourceTablesMigration } from '../../src/api/sql';
import type { Kernel } from '../../src/kernel/createKernel';
import { scaled } from '../helpers/timeScale';
import { adminKernel, flashes, formToken, parse, signedIn, tableRows, textOf } from './ownBackOffice';

jest.setTimeout(scaled(30_000));

/** What the custom actions were given, by action: the ids of their items, in order. */
const ran: Record<string, number[][]> = {};

function resources(provider: StateProvider, processor: StateProcessor): { maker: Resource; gadget: Resource } {
  const maker = defineResource({
    shortName: 'Maker',
    schema: z.object({ id: readOnly(z.int()), code: z.string(), name: z.string() }),
    provider, processor,
  });
  const gadget = defineResource({
    shortName: 'Gadget',
    schema: z.object({
      id: readOnly(z.int()),
      name: z.string().min(1),
      price: z.number().min(0),
      inStock: z.boolean(),
      notes: text(z.string()).nullable().optional(),
      status: z.enum(['draft', 'live']),
      contact: z.string().nullable().optional(),
      homepage: z.string().nullable().optional(),
      releasedOn: z.iso.date().nullable().optional(),
      checkedAt: z.iso.datetime().nullable().optional(),
      maker: relation('Maker').nullable().optional(),
    }),
    filters: [SearchFilter({ status: 'exact' })],
    provider, processor,
  });
  return { maker, gadget };
}

const CRUD: NonNullable<AdminOptions['crud']> = {
  Gadget: {
    entityLabelInSingular: { en: 'Gadget', fr: 'Bidule' },
    entityLabelInPlural: { en: 'Gadgets', fr: 'Bidules' },
    help: { en: 'What the shop sells.', fr: 'Ce que vend la boutique.' },
    fields: {
      name: { label: { en: 'Name', fr: 'Nom' }, help: { en: 'As on the box.', fr: 'Comme sur la boîte.' } },
      price: { type: 'money', currency: 'EUR', label: { en: 'Price', fr: 'Prix' } },
      inStock: { label: { en: 'In stock', fr: 'En stock' } },
      notes: { type: 'textarea' },
      status: { label: 'Status', sortable: false, choices: { draft: { en: 'Draft', fr: 'Brouillon' }, live: 'Live' } },
      contact: { type: 'email' },
      homepage: { type: 'url' },
      releasedOn: { label: { en: 'Released on', fr: 'Sorti le' }, dateStyle: 'long' },
      maker: { label: { en: 'Made by', fr: 'Fabriqué par' } },
    },
    index: ['name', 'price', 'inStock', 'status', 'id'],
    detail: ['id', 'name', 'maker', 'releasedOn', 'contact', 'homepage', 'price'],
    form: ['price', 'name', 'inStock', 'notes', 'status', 'contact', 'homepage', 'releasedOn', 'checkedAt', 'maker'],
    searchFields: ['name'],
    defaultSort: { price: 'desc' },
    paginatorPageSize: 2,
    actions: [
      {
        name: 'restock', label: { en: 'Restock', fr: 'Réassortir' },
        confirmation: { en: 'Order these again?', fr: 'Commander de nouveau ?' }, role: 'ROLE_PUBLISHER',
        run: async (items, { update }) => {
          (ran.restock ??= []).push(items.map((i) => i.id as number));
          for (const item of items) await update(item, { inStock: true });
        },
      },
      {
        name: 'publish', label: 'Publish', scope: 'item',
        run: async (items, { update, label }) => {
          (ran.publish ??= []).push(items.map((i) => i.id as number));
          await update(items[0], { status: 'live' });
          return `${label(items[0])} is live.`;
        },
      },
      {
        name: 'count', label: 'Count', scope: 'batch',
        run: (items) => {
          (ran.count ??= []).push(items.map((i) => i.id as number));
        },
      },
    ],
  },
  Maker: { labelProperty: 'name', entityLabelInPlural: { en: 'Makers', fr: 'Fabricants' } },
};

/** id 1..5: prices 10, 40, 20, 50, 30 (the default sort, price desc, reads 4, 2, 5, 3, 1). */
const GADGETS = [
  { name: 'Abacus', price: 10, inStock: false, status: 'draft', notes: 'zebra inside' },
  { name: 'Barometer', price: 40, inStock: true, status: 'live' },
  { name: 'Compass', price: 20, inStock: false, status: 'draft', contact: 'sales@compass.test',
    homepage: 'https://compass.test/', releasedOn: '1929-10-21', maker: 1 },
  { name: 'Dial', price: 50, inStock: false, status: 'live' },
  { name: 'Zebra clock', price: 30.5, inStock: false, status: 'draft' },
];

interface Store {
  provider: StateProvider;
  processor: StateProcessor;
  close(): Promise<void>;
}

const STORES: ReadonlyArray<[string, () => Promise<Store>]> = [
  ['MemoryState', async () => {
    const state = new MemoryState();
    return { provider: state, processor: state, close: async () => undefined };
  }],
  ['SQLite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-crud-admin-'));
    const store = createSqlState({ sqlitePath: path.join(dir, 'crud.sqlite') });
    const { maker, gadget } = resources(store.provider, store.processor);
    await store.migrate({
      '0001-tables': resourceTablesMigration([maker.metadata, gadget.metadata]),
      '0002-audit-log': auditLogMigration(),
    });
    return {
      provider: store.provider, processor: store.processor,
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }],
];

describe.each(STORES)('configured screens and actions on %s', (_name, open) => {
  let store: Store;
  let kernel: Kernel;
  let gadget: Resource;
  let alice: TestAgent;

  beforeEach(async () => {
    store = await open();
    const made = resources(store.provider, store.processor);
    gadget = made.gadget;
    for (const [code, name] of [['ACME', 'Acme Corporation'], ['INI', 'Initech']]) {
      await store.processor.create(made.maker.metadata, { code, name });
    }
    for (const g of GADGETS) {
      await store.processor.create(gadget.metadata, {
        notes: null, contact: null, homepage: null, releasedOn: null, checkedAt: null, maker: null, ...g,
      });
    }
    kernel = adminKernel(adminRoutes({ resources: [made.maker, gadget], crud: CRUD, itemsPerPage: 20 }));
    alice = await signedIn(kernel, 'alice');
    for (const key of Object.keys(ran)) delete ran[key];
  });
  afterEach(async () => {
    await kernel.close();
    await store.close();
  });

  const stored = async (id: number): Promise<StoredItem> => (await store.provider.provideItem(gadget.metadata, id))!;
  const headers = ($: ReturnType<typeof parse>): string[] =>
    $('table.responsive thead th').toArray().map((th) => textOf($(th)));
  const names = ($: ReturnType<typeof parse>): string[] => tableRows($, 'table.responsive').map((cells) => cells[1]);

  describe('configuration', () => {
    test('labels, help and menu in English and in French; the index\'s columns in the configured order', async () => {
      const en = parse((await alice.get('/admin/gadgets').expect(200)).text);
      expect(textOf(en('h1'))).toBe('Gadgets');
      expect(textOf(en('p.help').first())).toBe('What the shop sells.');
      expect(textOf(en('.heading a.button'))).toBe('New Gadget');
      expect(headers(en)).toEqual(['Select all on this page', 'Name', 'Price ▼', 'In stock', 'Status', 'Id', 'Actions']);
      expect(en('nav a').toArray().map((a) => textOf(en(a)))).toEqual(expect.arrayContaining(['Gadgets', 'Makers']));

      const fr = parse((await alice.get('/admin/gadgets').set('Accept-Language', 'fr').expect(200)).text);
      expect(textOf(fr('h1'))).toBe('Bidules');
      expect(textOf(fr('p.help').first())).toBe('Ce que vend la boutique.');
      expect(headers(fr).slice(1, 6)).toEqual(['Nom', 'Prix ▼', 'En stock', 'Status', 'N°']);
      expect(fr('nav a').toArray().map((a) => textOf(fr(a)))).toEqual(expect.arrayContaining(['Bidules', 'Fabricants']));
      const form = parse((await alice.get('/admin/gadgets/new').set('Accept-Language', 'fr').expect(200)).text);
      expect(textOf(form('label[for="field-name"]'))).toMatch(/^Nom \*/);
      expect(textOf(form('#help-name'))).toBe('Comme sur la boîte.');
      expect(form('#field-name').attr('aria-describedby')).toBe('help-name');
    });

    test('default sort (price, descending), page size 2, and the cells formatted per type and locale', async () => {
      const $ = parse((await alice.get('/admin/gadgets').expect(200)).text);
      expect(names($)).toEqual(['Dial', 'Barometer']);
      expect(tableRows($, 'table.responsive').map((cells) => cells.slice(2, 5))).toEqual([
        ['€50.00', 'No', 'Live'], ['€40.00', 'Yes', 'Live'],
      ]);
      expect($('th[aria-sort="descending"]').text()).toContain('Price');
      expect(textOf($('nav.pagination [aria-current="page"]'))).toBe('Page 1 of 3');
      const last = parse((await alice.get('/admin/gadgets?page=3').expect(200)).text);
      expect(names(last)).toEqual(['Abacus']);
      const fr = parse((await alice.get('/admin/gadgets?page=2').set('Accept-Language', 'fr').expect(200)).text);
      expect(tableRows(fr, 'table.responsive').map((cells) => cells.slice(1, 5))).toEqual([
        ['Zebra clock', expect.stringMatching(/^30,50\s€$/u), 'Non', 'Brouillon'],
        ['Compass', expect.stringMatching(/^20,00\s€$/u), 'Non', 'Brouillon'],
      ]);
      // a sort the URL gives replaces the default one
      const byName = parse((await alice.get('/admin/gadgets?sort=name&direction=asc').expect(200)).text);
      expect(names(byName)).toEqual(['Abacus', 'Barometer']);
    });

    test('only the sortable columns sort, and the search reads only the search fields', async () => {
      const $ = parse((await alice.get('/admin/gadgets').expect(200)).text);
      const link = (label: string): string | undefined =>
        $('thead th').filter((_i, th) => textOf($(th)).startsWith(label)).find('a').attr('href');
      expect(link('Name')).toBe('/admin/gadgets?sort=name&direction=asc');
      expect(link('Status')).toBeUndefined();
      const bad = await alice.get('/admin/gadgets?sort=status').expect(400);
      expect(bad.text).toContain('expected one of');
      expect(textOf($('label[for="query"]'))).toMatch(/Name\b/);
      expect(textOf($('label[for="query"]'))).not.toMatch(/Notes|Status/);
      // "zebra" is in Abacus's notes and in Zebra clock's name: only the name is searched
      const found = parse((await alice.get('/admin/gadgets?query=zebra').expect(200)).text);
      expect(names(found)).toEqual(['Zebra clock']);
    });

    test('the form: fields in the configured order, each type with its widget', async () => {
      const $ = parse((await alice.get('/admin/gadgets/new').expect(200)).text);
      const order = $('form.form [name]').toArray().map((e) => $(e).attr('name')).filter((n) => !n!.startsWith('_'));
      expect(order).toEqual(['price', 'name', 'inStock', 'notes', 'status', 'contact', 'homepage', 'releasedOn',
        'checkedAt', 'maker']);
      const widget = (name: string): string => {
        const e = $(`form.form [name="${name}"]`);
        return `${e.prop('tagName')!.toLowerCase()}${e.attr('type') === undefined ? '' : `:${e.attr('type')}`}`;
      };
      expect(Object.fromEntries(order.map((n) => [n, widget(n!)]))).toEqual({
        price: 'input:number', name: 'input:text', inStock: 'input:checkbox', notes: 'textarea', status: 'select',
        contact: 'input:email', homepage: 'input:url', releasedOn: 'input:date', checkedAt: 'input:datetime-local',
        maker: 'select',
      });
      expect($('#field-price').attr('step')).toBe('0.01');
      expect(textOf($('label[for="field-price"]'))).toMatch(/^Price \(EUR\)/);
      expect($('#field-inStock').attr('role')).toBe('switch');
      expect($('#field-status option').toArray().map((o) => textOf($(o)))).toEqual(['Draft', 'Live']);
      // the relation's options are named by the maker's labelProperty (name), not its first string (code)
      expect($('#field-maker option').toArray().map((o) => textOf($(o)))).toEqual(
        expect.arrayContaining(['Acme Corporation (#1)', 'Initech (#2)']),
      );
      expect($.html()).not.toContain('ACME');
    });

    test('the detail page: lines in the configured order, dates per locale, links for e-mail, URL and relation', async () => {
      const lines = ($: ReturnType<typeof parse>): Array<[string, string, string | undefined]> =>
        $('dl dt').toArray().map((dt) => [textOf($(dt)), textOf($(dt).next('dd')), $(dt).next('dd').find('a').attr('href')]);
      const en = parse((await alice.get('/admin/gadgets/3').expect(200)).text);
      expect(lines(en)).toEqual([
        ['Id', '3', undefined],
        ['Name', 'Compass', undefined],
        ['Made by', 'Acme Corporation (#1)', '/admin/makers/1'],
        ['Released on', 'October 21, 1929', undefined],
        ['Contact', 'sales@compass.test', 'mailto:sales@compass.test'],
        ['Homepage', 'https://compass.test/', 'https://compass.test/'],
        ['Price', '€20.00', undefined],
      ]);
      const fr = parse((await alice.get('/admin/gadgets/3').set('Accept-Language', 'fr').expect(200)).text);
      expect(lines(fr)[3]).toEqual(['Sorti le', '21 octobre 1929', undefined]);
      expect(lines(fr)[6]).toEqual(['Prix', expect.stringMatching(/^20,00\s€$/u), undefined]);
    });
  });

  describe('actions', () => {
    /** The index page at `url`, its token and its `_back`. */
    const list = async (agent: TestAgent, url: string): Promise<{ $: ReturnType<typeof parse>; token: string }> => {
      const res = await agent.get(url).expect(200);
      return { $: parse(res.text), token: formToken(res.text) };
    };

    test('an item action with a confirmation: asked first, run on that item only, back to the list as it was', async () => {
      const carol = await signedIn(kernel, 'carol');
      const { $ } = await list(carol, '/admin/gadgets?status=draft&sort=name&direction=asc&page=2');
      const restock = $('td.actions a').filter((_i, a) => textOf($(a)) === 'Restock').toArray();
      expect(restock.map((a) => $(a).attr('aria-label'))).toEqual(['Restock: Zebra clock (#5)']);
      const asked = await carol.get($(restock[0]).attr('href')!).expect(200);
      const page = parse(asked.text);
      expect(textOf(page('p.question'))).toBe('Order these again?');
      expect(page('ul.confirm-items li').toArray().map((li) => textOf(page(li)))).toEqual(['Zebra clock (#5)']);
      expect(ran.restock).toBeUndefined();
      const form = page('form.buttons');
      const done = await carol.post(form.attr('action')!).type('form').send({
        _token: formToken(asked.text), _back: form.find('[name="_back"]').val(), _confirmed: '1',
      }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?status=draft&sort=name&direction=asc&page=2');
      expect(ran.restock).toEqual([[5]]);
      expect((await stored(5)).data.inStock).toBe(true);
      expect((await stored(1)).data.inStock).toBe(false);
      const after = parse((await carol.get(done.headers.location).expect(200)).text);
      expect(flashes(after)).toEqual(['Restock: done for 1 item.']);
    });

    test('an action with a role: hidden from a user without it, and a 403 when called all the same', async () => {
      const { $, token } = await list(alice, '/admin/gadgets');
      expect($.html()).not.toContain('Restock');
      expect($('div.buttons button').toArray().map((b) => textOf($(b)))).toEqual(['Search', 'Delete selected', 'Count']);
      await alice.get('/admin/gadgets/1/action/restock').expect(403);
      await alice.post('/admin/gadgets/1/action/restock').type('form').send({ _token: token, _confirmed: '1' })
        .expect(403);
      await alice.post('/admin/gadgets/batch/restock').type('form').send({ _token: token, ids: ['1'], _confirmed: '1' })
        .expect(403);
      expect(ran.restock).toBeUndefined();
      expect((await stored(1)).data.inStock).toBe(false);
    });

    test('an item action without confirmation runs from its row, and its message is the flash', async () => {
      const { $, token } = await list(alice, '/admin/gadgets?sort=name&direction=asc');
      const button = $('td.actions button').filter((_i, b) => textOf($(b)) === 'Publish').first();
      expect(button.attr('aria-label')).toBe('Publish: Abacus (#1)');
      const done = await alice.post(button.attr('formaction')!).type('form')
        .send({ _token: token, _back: $('input[name="_back"]').val() }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?sort=name&direction=asc');
      expect(ran.publish).toEqual([[1]]);
      expect((await stored(1)).data.status).toBe('live');
      expect(flashes(parse((await alice.get(done.headers.location).expect(200)).text))).toEqual(['Abacus (#1) is live.']);
      // an item-only action is no batch action, a batch-only one no item action
      await alice.post('/admin/gadgets/batch/publish').type('form').send({ _token: token, ids: ['1'] }).expect(404);
      await alice.post('/admin/gadgets/1/action/count').type('form').send({ _token: token }).expect(404);
    });

    test('a batch action with a confirmation names the checked items, then runs on them only', async () => {
      const carol = await signedIn(kernel, 'carol');
      const { token } = await list(carol, '/admin/gadgets');
      const asked = await carol.post('/admin/gadgets/batch/restock').type('form')
        .send({ _token: token, _back: '?sort=price&direction=asc&page=2', ids: ['3', '1', '99'] }).expect(200);
      const page = parse(asked.text);
      expect(textOf(page('h1'))).toContain('Restock');
      expect(textOf(page('p.question'))).toBe('Order these again?');
      expect(page('ul.confirm-items li').toArray().map((li) => textOf(page(li)))).toEqual(['Compass (#3)', 'Abacus (#1)']);
      expect(page('form.buttons input[name="ids"]').toArray().map((i) => page(i).val())).toEqual(['3', '1']);
      expect(ran.restock).toBeUndefined();
      const done = await carol.post('/admin/gadgets/batch/restock').type('form').send({
        _token: formToken(asked.text), _back: page('form.buttons [name="_back"]').val(), _confirmed: '1',
        ids: ['3', '1'],
      }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?sort=price&direction=asc&page=2');
      expect(ran.restock).toEqual([[3, 1]]);
      expect(await Promise.all([1, 2, 3, 4, 5].map(async (id) => (await stored(id)).data.inStock)))
        .toEqual([true, true, true, false, false]);
    });

    test('a batch action without a confirmation runs at once; no item checked runs nothing', async () => {
      const { token } = await list(alice, '/admin/gadgets');
      const done = await alice.post('/admin/gadgets/batch/count').type('form')
        .send({ _token: token, _back: '?query=a', ids: ['2', '4'] }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?query=a');
      expect(ran.count).toEqual([[2, 4]]);
      expect(flashes(parse((await alice.get(done.headers.location).expect(200)).text))).toEqual(['Count: done for 2 items.']);
      const none = await alice.post('/admin/gadgets/batch/count').type('form').send({ _token: token }).expect(303);
      expect(ran.count).toHaveLength(1);
      expect(flashes(parse((await alice.get(none.headers.location).expect(200)).text))).toEqual(['No item was selected.']);
    });

    test('batch delete asks first, naming the items, and deletes them only once confirmed', async () => {
      const { token } = await list(alice, '/admin/gadgets');
      const asked = await alice.post('/admin/gadgets/batch-delete').type('form')
        .send({ _token: token, _back: '?status=draft', ids: ['1', '5'] }).expect(200);
      const page = parse(asked.text);
      expect(page('ul.confirm-items li').toArray().map((li) => textOf(page(li)))).toEqual(['Abacus (#1)', 'Zebra clock (#5)']);
      expect(page('form.buttons button.danger').length).toBe(1);
      expect(page('form.buttons a').attr('href')).toBe('/admin/gadgets?status=draft');
      expect(await store.provider.provideItem(gadget.metadata, 1)).not.toBeNull();
      const done = await alice.post('/admin/gadgets/batch-delete').type('form')
        .send({ _token: formToken(asked.text), _back: '?status=draft', _confirmed: '1', ids: ['1', '5'] }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?status=draft');
      expect(await store.provider.provideItem(gadget.metadata, 1)).toBeNull();
      expect(await store.provider.provideItem(gadget.metadata, 5)).toBeNull();
      expect(await store.provider.provideItem(gadget.metadata, 3)).not.toBeNull();
      const after = parse((await alice.get(done.headers.location).expect(200)).text);
      expect(flashes(after)[0]).toContain('Abacus (#1), Zebra clock (#5)');
      expect(names(after)).toEqual(['Compass']);
    });

    test('the list keeps its page after an action, or the last page when the action emptied it', async () => {
      const { token } = await list(alice, '/admin/gadgets?page=3');
      const done = await alice.post('/admin/gadgets/batch-delete').type('form')
        .send({ _token: token, _back: '?page=3', _confirmed: '1', ids: ['1'] }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?page=2');
    });

    test('select-all checks every row of the page, and unchecks them again', async () => {
      const plain = parse((await alice.get('/admin/gadgets?status=draft').expect(200)).text);
      expect(plain('input[name="ids"]').toArray().map((i) => plain(i).attr('checked'))).toEqual([undefined, undefined]);
      const link = plain('a.select-all');
      expect(textOf(link)).toBe('Select all on this page');
      const all = parse((await alice.get(link.attr('href')!).expect(200)).text);
      expect(all('input[name="ids"]').toArray().map((i) => all(i).attr('checked'))).toEqual(['checked', 'checked']);
      expect(all('input[name="_back"]').val()).toBe('?status=draft');
      expect(textOf(all('a.select-all'))).toBe('Clear the selection');
      expect(all('a.select-all').attr('href')).toBe('/admin/gadgets?status=draft');
    });

    test('the inline switch flips the boolean, needs the CSRF token, and refuses a stale version', async () => {
      const { $, token } = await list(alice, '/admin/gadgets?sort=name&direction=asc');
      const toggle = $('button.switch').first();
      expect(toggle.attr('aria-label')).toBe('In stock: Abacus (#1)');
      expect(toggle.attr('aria-checked')).toBe('false');
      await alice.post(toggle.attr('formaction')!).type('form').send({ _version: toggle.val() }).expect(403);
      expect((await stored(1)).data.inStock).toBe(false);
      const done = await alice.post(toggle.attr('formaction')!).type('form')
        .send({ _token: token, _version: toggle.val(), _back: '?sort=name&direction=asc' }).expect(303);
      expect(done.headers.location).toBe('/admin/gadgets?sort=name&direction=asc');
      expect((await stored(1)).data.inStock).toBe(true);
      const after = parse((await alice.get(done.headers.location).expect(200)).text);
      expect(after('button.switch').first().attr('aria-checked')).toBe('true');
      expect(flashes(after)[0]).toContain('Abacus (#1)');
      // the same press again, from the page as it was: a change made since, nothing flipped back
      const stale = await alice.post(toggle.attr('formaction')!).type('form')
        .send({ _token: token, _version: toggle.val() }).expect(303);
      expect((await stored(1)).data.inStock).toBe(true);
      expect(flashes(parse((await alice.get(stale.headers.location).expect(200)).text))[0]).toContain('Abacus (#1)');
      // a field that is no switch has no route
      await alice.post('/admin/gadgets/1/toggle/name').type('form').send({ _token: token, _version: '2' }).expect(404);
    });
  });
});
