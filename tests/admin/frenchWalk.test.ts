/**
 * Every page of the demo's back office in French (issue 26, point 3): no text a reader sees
 * (text nodes, `<title>`, `aria-label`, `title`, `placeholder`) is an English catalog message or
 * a catalog key left untranslated. The walk chooses French with the language switcher, then
 * visits each screen: login, dashboard, index (searched, filtered), detail, new, edit, a form
 * with errors, delete and batch confirmations, an item action, the relation picker (a search, none
 * found, back to the form), the audit log, an item's history,
 * the flash after a save, the CSV export's header, and the 400, 403, 404 and 409 pages.
 */
import * as cheerio from 'cheerio';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { EN, FR, translatorFor, type MessageKey } from '../../src/admin/translations';
import { DEMO_CRUD } from '../../src/demo/adminConfig';
import { loginTokenOf, tokenOf } from './backOffice';

// some thirty pages through every layer, on a loaded 2-core machine
jest.setTimeout(60_000);

let kernel: DemoKernel;
beforeAll(() => {
  kernel = createDemoKernel({ debug: false });
});
afterAll(() => kernel.close());

/**
 * What a reader sees of a page in its language: its text nodes and the attributes read aloud or
 * shown, whitespace collapsed.
 */
export function visibleTexts(html: string): string[] {
  const $ = cheerio.load(html);
  const texts: string[] = [];
  $('script, style').remove();
  const pageLang = $('html').attr('lang');
  $('*').each((_, el) => {
    // a passage marked as another language (the switcher's `English`, an error's English detail) is not the page's text
    if ($(el).closest('[lang]').attr('lang') !== pageLang) return;
    for (const node of $(el).contents().toArray()) if (node.nodeType === 3) texts.push(node.data);
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = $(el).attr(name);
      if (value !== undefined) texts.push(value);
    }
  });
  return texts.map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t !== '');
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Each English message that French words differently, as a pattern (`{item}` matches anything). */
const ENGLISH = (Object.keys(EN) as MessageKey[])
  .filter((key) => EN[key] !== FR[key] && /[A-Za-z]{2}/.test(EN[key].replace(/\{\w+\}/g, '')))
  .map((key) => ({ key, re: new RegExp(`^${EN[key].split(/\{\w+\}/).map(escape).join('.+')}$`, 's') }));
const KEYS = new Set<string>(Object.keys(EN));

/** The demo configuration's English texts that French words differently (`Published on`), and the short names. */
function configuredEnglish(value: unknown, found: Set<string> = new Set(['Book', 'Author'])): Set<string> {
  if (typeof value !== 'object' || value === null) return found;
  const { en, fr } = value as { en?: unknown; fr?: unknown };
  if (typeof en === 'string' && typeof fr === 'string' && en !== fr) found.add(en);
  for (const inner of Object.values(value)) configuredEnglish(inner, found);
  return found;
}
const CONFIGURED = [...configuredEnglish(DEMO_CRUD)].map((en) => new RegExp(`(^|\\W)${escape(en)}(\\W|$)`));

/** The English messages and the untranslated keys among a page's texts, as `key: text`. */
function english(texts: readonly string[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    if (KEYS.has(text)) found.push(`untranslated key: ${text}`);
    for (const { key, re } of ENGLISH) if (re.test(text)) found.push(`${key}: ${text}`);
    for (const re of CONFIGURED) if (re.test(text)) found.push(`configured label ${re.source}: ${text}`);
  }
  return found;
}

async function signedIn(user: string): Promise<TestAgent> {
  const agent = request.agent(kernel);
  await agent.post('/admin/locale').type('form').send({ _locale: 'fr', _target_path: '/admin/login' }).expect(303);
  const login = await agent.get('/admin/login').expect(200);
  await agent.post('/admin/login').type('form')
    .send({ _username: user, _password: user, _csrf_token: loginTokenOf(login.text) }).expect(302);
  return agent;
}

test('no page of the walk in French shows an English message or a catalog key', async () => {
  const pages = new Map<string, { status: number; texts: string[] }>();
  const keep = (name: string, res: { status: number; text: string }): void => {
    pages.set(name, { status: res.status, texts: visibleTexts(res.text) });
  };
  const anonymous = request.agent(kernel);
  await anonymous.post('/admin/locale').type('form').send({ _locale: 'fr', _target_path: '/admin/login' }).expect(303);
  keep('login', await anonymous.get('/admin/login'));
  await anonymous.post('/admin/login').type('form')
    .send({ _username: 'admin', _password: 'wrong', _csrf_token: loginTokenOf((await anonymous.get('/admin/login')).text) });
  keep('login failed', await anonymous.get('/admin/login'));

  const admin = await signedIn('admin');
  const edit = await admin.get('/admin/books/1/edit');
  keep('edit', edit);
  const saved = await admin.post('/admin/books/1/edit').type('form')
    .send({ _token: tokenOf(edit.text), _version: '1', title: 'Dune', price: '12.5', author: '1', publishedAt: '1965-08-01' });
  expect(saved.status).toBe(303);
  keep('detail after a save (flash)', await admin.get(saved.headers.location));
  keep('conflict 409', await admin.post('/admin/books/1/edit').type('form')
    .send({ _token: tokenOf(edit.text), _version: '1', title: 'Dune' }));
  keep('dashboard', await admin.get('/admin'));
  keep('index', await admin.get('/admin/books'));
  keep('index searched and sorted', await admin.get('/admin/books?query=dune&sort=title&direction=desc'));
  keep('index filtered', await admin.get('/admin/books?featured=0'));
  keep('index empty', await admin.get('/admin/books?query=nothing-like-this'));
  keep('authors', await admin.get('/admin/authors'));
  keep('author detail', await admin.get('/admin/authors/1'));
  keep('new', await admin.get('/admin/books/new'));
  const token = tokenOf(edit.text);
  keep('new with errors 422', await admin.post('/admin/books/new').type('form').send({ _token: token, title: '', price: '-1' }));
  keep('delete confirm', await admin.get('/admin/books/2/delete'));
  keep('referenced delete', await admin.post('/admin/authors/1/delete').type('form').send({ _token: token, _version: '1' }));
  keep('batch confirm', await admin.post('/admin/books/batch-delete').type('form').send(`_token=${token}&ids=2&ids=3`));
  keep('batch action confirm', await admin.post('/admin/books/batch/feature').type('form').send(`_token=${token}&ids=2&ids=3`));
  keep('item action confirm', await admin.get('/admin/books/2/action/feature'));
  const picker = await admin.post('/admin/books/1/edit/pick/author').type('form')
    .send({ _token: token, _version: '2', title: 'Dune', author: 'herbert' });
  keep('relation picker', picker);
  keep('relation picker, nothing found', await admin.post('/admin/books/1/edit/pick/author').type('form')
    .send({ _token: token, _version: '2', _current: '1', _q: 'nobody-like-this', title: 'Dune' }));
  keep('form back from the picker', await admin.post('/admin/books/1/edit').type('form')
    .send({ _token: token, _version: '2', _resume: '1', title: 'Dune', author: 'nobody' }));
  keep('audit', await admin.get('/admin/audit'));
  keep('audit filtered', await admin.get('/admin/audit?resource=Book&item=1&action=update'));
  keep('bad query 400', await admin.get('/admin/books?page=abc'));
  keep('not found 404', await admin.get('/admin/books/999'));
  const csv = await admin.get('/admin/books/export.csv').expect(200);
  pages.set('export header', { status: 200, texts: csv.text.replace(/^\uFEFF/, '').split('\n')[0].split(',') });
  keep('forbidden 403', await (await signedIn('user')).get('/admin/books'));

  expect([...pages].map(([name, page]) => [name, page.status])).toEqual([
    ['login', 200], ['login failed', 200], ['edit', 200], ['detail after a save (flash)', 200], ['conflict 409', 409],
    ['dashboard', 200], ['index', 200], ['index searched and sorted', 200], ['index filtered', 200],
    ['index empty', 200], ['authors', 200], ['author detail', 200], ['new', 200], ['new with errors 422', 422],
    ['delete confirm', 200], ['referenced delete', 409], ['batch confirm', 200], ['batch action confirm', 200],
    ['item action confirm', 200], ['relation picker', 200], ['relation picker, nothing found', 200],
    ['form back from the picker', 200], ['audit', 200], ['audit filtered', 200], ['bad query 400', 400],
    ['not found 404', 404], ['export header', 200], ['forbidden 403', 403],
  ]);
  expect([...pages].flatMap(([name, page]) => english(page.texts).map((m) => `${name}: ${m}`))).toEqual([]);
});

describe('numbers and dates through Intl, in the request\'s language', () => {
  test.each([
    ['en', '€12.50', 'Aug 1, 1965', /^Nov \d+, 20\d\d, \d+:\d\d:\d\d [AP]M$/],
    ['fr', '12,50\u00a0€', '1 août 1965', /^\d+ nov\. 20\d\d, \d\d:\d\d:\d\d$/],
  ])('%s: a price, a date on the index and the detail, a change\'s time in the history', async (lang, price, date, when) => {
    const admin = await signedIn('admin');
    const chosen = await admin.post('/admin/locale').type('form').send({ _locale: lang, _target_path: '/admin' });
    expect(chosen.status).toBe(303);
    const edit = await admin.get('/admin/books/1/edit').expect(200);
    const version = cheerio.load(edit.text)('input[name=_version]').val() as string;
    await admin.post('/admin/books/1/edit').type('form').send({
      _token: tokenOf(edit.text), _version: version, title: 'Dune', price: '12.5', author: '1', publishedAt: '1965-08-01',
    }).expect(303);
    const $index = cheerio.load((await admin.get('/admin/books?query=dune').expect(200)).text);
    const cells = $index('tbody tr').first().find('td').toArray().map((td) => $index(td).text().trim());
    expect(cells).toEqual(expect.arrayContaining([price, date]));
    const $detail = cheerio.load((await admin.get('/admin/books/1').expect(200)).text);
    expect($detail('dd').toArray().map((dd) => $detail(dd).text().trim())).toEqual(expect.arrayContaining([price, date]));
    expect($detail('time').first().text()).toMatch(when);
  });

  test('a count is grouped as the language writes it', () => {
    expect(translatorFor('en').t('index.total', { count: 1234 })).toBe('1,234 items');
    expect(translatorFor('fr').t('index.total', { count: 1234 })).toBe('1\u202f234 éléments');
  });
});
