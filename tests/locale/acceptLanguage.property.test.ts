import fc from 'fast-check';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { createLocaleNegotiator, localeLayer, parseAcceptLanguage } from '../../src/locale';

const ENABLED = ['en', 'fr', 'de', 'pt_BR', 'zh_Hant'];

/** Pieces real and broken headers are made of, glued in any order. */
const piece = fc.oneof(
  fc.constantFrom('en', 'fr', 'de-CH', 'pt', 'zh-TW', 'zh-Hant-HK', 'es-419', 'x-private', 'i-klingon', '*', 'und', 'root', 'en-u-ca-gregory', 'EN-us', 'a'.repeat(9)),
  fc.constantFrom(',', ', ', ';', ';q=', 'q=0.5', ';q=1.000', ';q=0', ';q=1.5', ';q=-0', ';q=0.1234', ';q=NaN', '=', '-', '_', ' ', '\t'),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.float({ noNaN: false }).map(String),
);
const header = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.array(piece, { maxLength: 40 }).map((p) => p.join('')));

describe('parseAcceptLanguage(header)', () => {
  it('never throws and yields only canonical tags', () => {
    fc.assert(fc.property(header, (h) => {
      for (const tag of parseAcceptLanguage(h)) expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
    }), { numRuns: 2000 });
  });

  it('orders by quality, then header order', () => {
    expect(parseAcceptLanguage('de;q=0.5, fr, en;q=0.9, it;q=0.5')).toEqual(['fr', 'en', 'de', 'it']);
  });
});

describe('createLocaleNegotiator(enabledLocales)', () => {
  it('never throws and yields an enabled locale or nothing (then the default)', () => {
    const negotiate = createLocaleNegotiator(ENABLED);
    fc.assert(fc.property(fc.oneof(header, fc.array(header, { maxLength: 3 })), (h) => {
      const found = negotiate(h);
      if (found !== undefined) expect(ENABLED).toContain(found);
      expect(ENABLED).toContain(found ?? 'en');
    }), { numRuns: 2000 });
  });

  it('finds an enabled locale whenever the header names one with q > 0', () => {
    const negotiate = createLocaleNegotiator(ENABLED);
    const named = fc.constantFrom('en', 'fr', 'de', 'pt-BR', 'zh-Hant');
    fc.assert(fc.property(fc.array(header.map((h) => h.replace(/,/g, '')), { maxLength: 3 }), named, (noise, tag) => {
      expect(negotiate([...noise, tag].join(','))).toBeDefined();
    }), { numRuns: 500 });
  });
});

describe('localeLayer(options) with hostile Accept-Language headers', () => {
  const routes = new RouteCollection();
  routes.add('hello', new Route('/hello', { methods: ['GET'], controller: (req, res) => { res.json({ locale: req.locale }); } }));
  const app = createKernel({ routes, layers: { locale: localeLayer({ defaultLocale: 'en', enabledLocales: ENABLED }) } });
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120,
  });

  it('always answers 200 with an enabled locale', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(printable, header.filter((h) => /^[\x20-\x7e]*$/.test(h))), async (h) => {
      const res = await request(app).get('/hello').set('Accept-Language', h);
      expect(res.status).toBe(200);
      expect(ENABLED).toContain(res.body.locale);
    }), { numRuns: 80 });
  });
});
