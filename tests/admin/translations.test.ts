import { CATALOGS, EN, FR, translatorFor } from '../../src/admin/translations';

describe('the back office catalogs', () => {
  test('English and French have the same keys, each message non-empty', () => {
    expect(Object.keys(FR).sort()).toEqual(Object.keys(EN).sort());
    for (const catalog of Object.values(CATALOGS)) {
      for (const message of Object.values(catalog)) expect(message.trim()).not.toBe('');
    }
  });

  test('a message and its translation hold the same placeholders', () => {
    const placeholders = (m: string): string[] => [...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
    for (const key of Object.keys(EN) as Array<keyof typeof EN>) {
      expect([key, placeholders(FR[key])]).toEqual([key, placeholders(EN[key])]);
    }
  });

  test('translatorFor picks the language of a locale (fr-CA → fr), English for others, and fills placeholders', () => {
    expect(translatorFor('fr-CA').t('index.page', { page: 2, pages: 5 })).toBe('Page 2 sur 5');
    expect(translatorFor('de').lang).toBe('en');
    expect(translatorFor(undefined).t('flash.created', { item: 'Dune (#1)' })).toBe('Dune (#1) was created.');
  });
});
