/**
 * Validation messages in the request's language (issue 26, point 3): the API's 422 violations
 * and the back office's form errors speak the locale the locale layer chose (zod's locales for
 * the schema's constraints, the API layer's own catalog for its messages), per request: a
 * French and an English request at the same time each get their own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as cheerio from 'cheerio';
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { violationMessages } from '../../../src/api/write/violationMessages';
import { loggedIn, tokenOf } from '../../admin/backOffice';

const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
const TITLE = {
  en: 'Too small: expected string to have >=1 characters',
  fr: 'Trop petit : chaîne de caractères doit avoir >=1 caractères',
  de: 'Zu klein: erwartet, dass string >=1 Zeichen hat',
} as const;
const PRICE = { en: 'Too small: expected number to be >=0', fr: 'Trop petit : nombre doit être >=0' } as const;

// a dozen requests through every layer, on a loaded 2-core machine
jest.setTimeout(30_000);

let kernel: DemoKernel;
let server: http.Server;
let base: string;
beforeAll(async () => {
  kernel = createDemoKernel({ debug: false });
  server = http.createServer(kernel);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await kernel.close();
});

const post = (language: string, accept: string, body: string) => request(base).post('/api/books')
  .set('Authorization', USER).set('Accept-Language', language).set('Content-Type', 'application/json')
  .set('Accept', accept).send(body);

describe('the API\'s 422 violations', () => {
  test.each([
    ['fr', 'application/ld+json'], ['en', 'application/ld+json'], ['fr', 'application/problem+json'],
  ] as const)('in %s as %s keep API Platform\'s shape, each message in the language', async (lang, accept) => {
    const res = await post(lang, accept, '{"title":"","price":-1}');
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([
      { propertyPath: 'title', message: TITLE[lang], code: 'too_small' },
      { propertyPath: 'price', message: PRICE[lang], code: 'too_small' },
    ]);
    expect(res.body.detail).toBe(`title: ${TITLE[lang]}\nprice: ${PRICE[lang]}`);
  });

  test('a language zod knows and the API layer does not (de) gets zod\'s German, the rest English', async () => {
    const res = await post('de', 'application/json', '{"title":"","isbn":"a\\u0000b"}');
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([
      { propertyPath: 'isbn', code: 'nul_character', message: 'This value must not contain a NUL character (U+0000).' },
      { propertyPath: 'title', code: 'too_small', message: TITLE.de },
      // a message written in the schema stays as written
      { propertyPath: 'isbn', code: 'invalid_format', message: 'Expected an ISBN-10 or ISBN-13.' },
    ]);
  });

  test('the API layer\'s own messages are French for a French request', async () => {
    const res = await post('fr-CA,fr;q=0.9', 'application/json', '{"title":"a\\u0000b"}');
    expect([res.status, res.body.violations]).toEqual([422, [{
      propertyPath: 'title', code: 'nul_character', message: 'Cette valeur ne doit pas contenir de caractère NUL (U+0000).',
    }]]);
  });

  test('French and English requests at the same time each get their language', async () => {
    const languages = Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? 'fr' : 'en'));
    const answers = await Promise.all(languages.map((lang) => post(lang, 'application/json', '{"title":""}')));
    expect(answers.map((res) => [res.status, res.body.violations?.[0]?.message]))
      .toEqual(languages.map((lang) => [422, TITLE[lang]]));
  });
});

describe('the back office\'s form errors', () => {
  test.each(['fr', 'en'] as const)('are in the request\'s language (%s), next to their field', async (lang) => {
    const admin = await loggedIn(kernel);
    const form = await admin.get('/admin/books/new').set('Accept-Language', lang).expect(200);
    const res = await admin.post('/admin/books/new').set('Accept-Language', lang).type('form')
      .send({ _token: tokenOf(form.text), title: '', price: '-1' });
    expect(res.status).toBe(422);
    expect(cheerio.load(res.text)('#error-title').text().trim()).toBe(TITLE[lang]);
  });
});

describe('violationMessages', () => {
  test('picks zod\'s regional locale, then the language\'s, then English; the same object each time', () => {
    const issue = { code: 'invalid_type', expected: 'string', input: 1 } as const;
    const message = (locale: string | undefined): unknown => violationMessages(locale).zod(issue);
    expect(message('fr_CA')).toBe('Entrée invalide : attendu string, reçu number');
    expect(message('fr_FR')).toBe('Entrée invalide : chaîne de caractères attendu, nombre reçu');
    expect(message('zh-TW')).not.toBe(message('zh_CN'));
    expect(message('xx')).toBe(message(undefined));
    expect(message('constructor')).toBe(message('en'));
    expect(violationMessages('fr_FR').lang).toBe('fr');
    expect(violationMessages('de').lang).toBe('en');
    expect(violationMessages('fr')).toBe(violationMessages('fr'));
  });
});
