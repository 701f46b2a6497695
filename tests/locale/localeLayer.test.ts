import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { localeLayer, LocaleOptions, routeLocale } from '../../src/locale';
import { sessionLayer } from '../../src/session';
import { listen, rawRequest } from '../helpers/http';

const SECRET = 'a-test-secret-of-at-least-32-characters!';

function routes(): RouteCollection {
  const r = new RouteCollection();
  const show = (req: import('express').Request, res: import('express').Response) => { res.json({ locale: req.locale, info: req.localeInfo }); };
  r.add('about', new Route('/{_locale}/about', { methods: ['GET'], requirements: { _locale: 'en|fr|de|es|pt-br' }, controller: show }));
  r.add('hello', new Route('/hello', { methods: ['GET'], controller: show }));
  r.add('prefs', new Route('/prefs/{locale}', {
    methods: ['POST'],
    controller: (req, res) => { req.session.locale = String(req.params.locale); res.json({ saved: true }); },
  }));
  return r;
}

function kernel(options: LocaleOptions = { defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de', 'pt_BR'] }) {
  return createKernel({
    routes: routes(),
    debug: true,
    layers: { session: sessionLayer({ secret: SECRET, store: 'memory', environment: 'test' }), locale: localeLayer(options) },
    routeHandlers: [routeLocale()],
  });
}

async function sessionWithLocale(app: ReturnType<typeof kernel>, locale: string): Promise<string> {
  const res = await request(app).post(`/prefs/${locale}`).expect(200);
  return String(res.headers['set-cookie'][0]).split(';')[0];
}

describe('localeLayer(options) precedence: route > session > header > default', () => {
  it('takes the route\'s _locale over the session and the header', async () => {
    const app = kernel();
    const cookie = await sessionWithLocale(app, 'de');
    const res = await request(app).get('/fr/about').set('Cookie', cookie).set('Accept-Language', 'de');
    expect(res.body).toEqual({ locale: 'fr', info: { locale: 'fr', source: 'route' } });
    expect(res.headers['content-language']).toBe('fr');
  });

  it('takes the session\'s locale over the header', async () => {
    const app = kernel();
    const cookie = await sessionWithLocale(app, 'de');
    const res = await request(app).get('/hello').set('Cookie', cookie).set('Accept-Language', 'fr');
    expect(res.body).toEqual({ locale: 'de', info: { locale: 'de', source: 'session' } });
    expect(res.headers['content-language']).toBe('de');
  });

  it('negotiates Accept-Language against the enabled locales', async () => {
    const res = await request(kernel()).get('/hello').set('Accept-Language', 'es;q=0.9, fr-CA;q=0.8, en;q=0.1');
    expect(res.body).toEqual({ locale: 'fr', info: { locale: 'fr', source: 'header' } });
    expect(res.headers['content-language']).toBe('fr');
    expect(res.headers.vary).toMatch(/Accept-Language/);
  });

  it('finds a region-specific enabled locale and sends it as a BCP 47 tag', async () => {
    const res = await request(kernel()).get('/hello').set('Accept-Language', 'pt');
    expect(res.body.locale).toBe('pt_BR');
    expect(res.headers['content-language']).toBe('pt-BR');
  });

  it('falls back to the default locale', async () => {
    for (const header of [undefined, 'es', 'ja, zh;q=0.5']) {
      const req = request(kernel()).get('/hello');
      const res = await (header === undefined ? req : req.set('Accept-Language', header));
      expect(res.body).toEqual({ locale: 'en', info: { locale: 'en', source: 'default' } });
      expect(res.headers['content-language']).toBe('en');
    }
  });

  it('ignores a route _locale that is not enabled, and a session locale that is not enabled', async () => {
    const app = kernel();
    expect((await request(app).get('/es/about').set('Accept-Language', 'de')).body.info).toEqual({ locale: 'de', source: 'header' });
    const cookie = await sessionWithLocale(app, 'xx');
    expect((await request(app).get('/hello').set('Cookie', cookie)).body.info).toEqual({ locale: 'en', source: 'default' });
  });

  it('matches a route _locale to an enabled locale whatever its spelling', async () => {
    const res = await request(kernel()).get('/pt-br/about');
    expect(res.body.info).toEqual({ locale: 'pt_BR', source: 'route' });
    expect(res.headers['content-language']).toBe('pt-BR');
  });

  it('sets Content-Language on error pages too (the provisional locale)', async () => {
    const res = await request(kernel()).get('/missing').set('Accept-Language', 'de');
    expect(res.status).toBe(404);
    expect(res.headers['content-language']).toBe('de');
  });

  it('reads the session without starting one: no cookie is set', async () => {
    const res = await request(kernel()).get('/hello');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('works without a session layer, and routeLocale() does nothing without the locale layer', async () => {
    const withoutSession = createKernel({ routes: routes(), layers: { locale: localeLayer({ enabledLocales: ['en', 'fr'] }) }, routeHandlers: [routeLocale()] });
    expect((await request(withoutSession).get('/fr/about')).body.info).toEqual({ locale: 'fr', source: 'route' });
    const withoutLocale = createKernel({ routes: routes(), routeHandlers: [routeLocale()] });
    const res = await request(withoutLocale).get('/fr/about');
    expect(res.status).toBe(200);
    expect(res.headers['content-language']).toBeUndefined();
  });
});

describe('localeLayer(options) with malformed Accept-Language', () => {
  const malformed = [
    '', ',,,', ';q=1', '*', 'fr;q=abc', 'fr;q=2', 'fr;q=-1', 'fr;q=0', 'fr;;;q=1,de', 'en-', '-en', 'x'.repeat(10000),
    'a-b-c-d-e-f-g-h-i-j-k', 'i-klingon', 'zh-min-nan', 'en_US', '\u00e9t\u00e9', '\u{1F600}', 'fr\u0000', 'de;q=0.5;q=0.9',
    Array.from({ length: 500 }, (_, i) => `l${i};q=0.${i % 10}`).join(','),
  ];

  it.each(malformed.map((h) => [h.length > 40 ? `${h.slice(0, 40)}…` : h, h]))('answers 200 with an enabled locale for %j', async (_label, header) => {
    const server = await listen(kernel());
    try {
      const res = await rawRequest(server, { method: 'GET', target: '/hello', headers: { 'Accept-Language': header.replaceAll('\0', '') } });
      expect(res.status).toBe(200);
      expect(['en', 'fr', 'de', 'pt_BR']).toContain(JSON.parse(res.body).locale);
    } finally {
      await server.close();
    }
  });

  it('drops bad ranges but keeps good ones', async () => {
    const res = await request(kernel()).get('/hello').set('Accept-Language', '!!, fr;q=abc, de;q=0.4');
    expect(res.body.info).toEqual({ locale: 'de', source: 'header' });
  });
});

describe('localeLayer(options) validation', () => {
  it.each<[string, LocaleOptions, string]>([
    ['an empty list', { enabledLocales: [] },
      'Invalid option "locale.enabledLocales": expected a non-empty list of locales such as ["en", "fr"] (got []).'],
    ['a bad locale', { enabledLocales: ['en', 'not a locale'] },
      'Invalid option "locale.enabledLocales[1]": expected a locale such as "fr" or "fr_FR" (got "not a locale").'],
    ['a default outside the list', { defaultLocale: 'it', enabledLocales: ['en', 'fr'] },
      'Invalid option "locale.defaultLocale": expected one of the enabled locales ["en","fr"] (got "it"); add it to enabledLocales.'],
    ['a typo', { enabledLocale: ['en'] } as never, 'Invalid option "locale.enabledLocale": unknown option; did you mean "enabledLocales"?'],
  ])('refuses %s at construction', (_what, options, message) => {
    expect(() => localeLayer(options)).toThrow(message);
  });

  it('defaults to English only', async () => {
    const app = createKernel({ routes: routes(), layers: { locale: localeLayer() } });
    expect((await request(app).get('/hello').set('Accept-Language', 'fr')).body.info).toEqual({ locale: 'en', source: 'default' });
  });
});
