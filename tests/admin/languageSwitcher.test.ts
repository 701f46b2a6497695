/**
 * The back office's language switcher (issue 26, point 3): a form on every page, login included,
 * posts the chosen locale; the session keeps it and the locale layer honours it afterwards,
 * before `Accept-Language`, which still decides while nothing is chosen.
 */
import * as cheerio from 'cheerio';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { loginTokenOf, tokenOf } from './backOffice';

// a dozen requests through every layer, on a loaded 2-core machine
jest.setTimeout(30_000);

let kernel: DemoKernel;
beforeAll(() => {
  kernel = createDemoKernel({ debug: false });
});
afterAll(() => kernel.close());

/** What a reader sees of the page's language: `<html lang>`, the heading, the switcher's buttons. */
function pageOf(html: string) {
  const $ = cheerio.load(html);
  return {
    lang: $('html').attr('lang'),
    h1: $('h1').first().text().trim(),
    target: $('form.languages input[name=_target_path]').val(),
    buttons: $('form.languages button').toArray()
      .map((b) => [$(b).attr('value'), $(b).attr('lang'), $(b).text(), $(b).attr('aria-current') ?? null]),
  };
}

const choose = (agent: TestAgent, locale: string, target: string) =>
  agent.post('/admin/locale').type('form').send({ _locale: locale, _target_path: target });

describe('the language switcher', () => {
  test('is on the login page, each language named in itself, the page\'s own marked current', async () => {
    const res = await request(kernel).get('/admin/login').set('Accept-Language', 'en').expect(200);
    expect(pageOf(res.text)).toEqual({
      lang: 'en', h1: 'Sign in', target: '/admin/login',
      buttons: [['en', 'en', 'English', 'true'], ['fr', 'fr', 'Français', null]],
    });
  });

  test('choosing French persists: later pages are French whatever Accept-Language says, after the login too', async () => {
    const agent = request.agent(kernel);
    await agent.get('/admin/login').set('Accept-Language', 'en').expect(200);
    const chosen = await choose(agent, 'fr', '/admin/login?_target_path=/admin/books');
    expect([chosen.status, chosen.headers.location]).toEqual([303, '/admin/login?_target_path=/admin/books']);

    const login = await agent.get('/admin/login').set('Accept-Language', 'en').expect(200);
    expect([pageOf(login.text).lang, pageOf(login.text).h1, login.headers['content-language']]).toEqual(['fr', 'Connexion', 'fr']);
    const signedIn = await agent.post('/admin/login').set('Accept-Language', 'en').type('form')
      .send({ _username: 'admin', _password: 'admin', _csrf_token: loginTokenOf(login.text) });
    expect(signedIn.status).toBe(302);
    const books = await agent.get('/admin/books?sort=title').set('Accept-Language', 'en').expect(200);
    expect(pageOf(books.text)).toEqual({
      lang: 'fr', h1: 'Livres', target: '/admin/books?sort=title',
      buttons: [['en', 'en', 'English', null], ['fr', 'fr', 'Français', 'true']],
    });

    const back = await choose(agent, 'en', '/admin/books?sort=title').set('Accept-Language', 'fr');
    expect([back.status, back.headers.location]).toEqual([303, '/admin/books?sort=title']);
    const english = await agent.get('/admin/books').set('Accept-Language', 'fr').expect(200);
    expect([pageOf(english.text).lang, pageOf(english.text).h1]).toEqual(['en', 'Books']);
  });

  test('until a language is chosen, Accept-Language decides (English for a language without a catalog)', async () => {
    for (const [header, lang, h1] of [['fr-FR,fr;q=0.9', 'fr', 'Connexion'], ['de', 'en', 'Sign in'], ['en', 'en', 'Sign in']]) {
      const res = await request(kernel).get('/admin/login').set('Accept-Language', header).expect(200);
      expect([header, pageOf(res.text).lang, pageOf(res.text).h1]).toEqual([header, lang, h1]);
    }
  });

  test('a page answering a POST sends the switcher back to the dashboard (its URL may not take a GET)', async () => {
    const agent = request.agent(kernel);
    const login = await agent.get('/admin/login').expect(200);
    await agent.post('/admin/login').type('form')
      .send({ _username: 'admin', _password: 'admin', _csrf_token: loginTokenOf(login.text) }).expect(302);
    const form = await agent.get('/admin/books/new').expect(200);
    const invalid = await agent.post('/admin/books/new').type('form').send({ _token: tokenOf(form.text), title: '' });
    expect([invalid.status, pageOf(invalid.text).target]).toEqual([422, '/admin']);
  });

  test.each([
    [{ _locale: 'xx', _target_path: '/admin' }, 'Unknown language "xx": expected one of en, fr.'],
    [{ _locale: 'de', _target_path: '/admin' }, 'Unknown language "de": expected one of en, fr.'],
    [{ _target_path: '/admin' }, 'Unknown language "": expected one of en, fr.'],
  ])('an unknown choice %j is a 400 naming the languages offered, and changes nothing', async (form, message) => {
    const agent = request.agent(kernel);
    const res = await agent.post('/admin/locale').set('Accept', 'application/json').type('form').send(form);
    expect([res.status, res.body.detail]).toEqual([400, message]);
    const after = await agent.get('/admin/login').set('Accept-Language', 'en').expect(200);
    expect(pageOf(after.text).lang).toBe('en');
  });

  test.each(['//evil.example/admin', 'https://evil.example/', '/\\evil.example', ''])(
    'a target that is not a local path (%j) goes to the dashboard', async (target) => {
      const res = await choose(request(kernel), 'fr', target);
      expect([res.status, res.headers.location]).toEqual([303, '/admin']);
    },
  );
});
