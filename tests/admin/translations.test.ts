import { CATALOGS, EN, FR, translatorFor } from '../../src/admin/translations';
import { loginError } from '../../src/admin/pages';

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

  test('a count of one reads the singular (English 1; French 0 and 1), any other count the plural', () => {
    const en = translatorFor('en').t;
    const fr = translatorFor('fr').t;
    expect([0, 1, 2].map((count) => en('index.total', { count }))).toEqual(['0 items', '1 item', '2 items']);
    expect([0, 1, 2].map((count) => fr('index.total', { count }))).toEqual(['0 élément', '1 élément', '2 éléments']);
    expect(en('flash.action_done', { action: 'Feature', count: 1 })).toBe('Feature: done for 1 item.');
    expect(fr('confirm.delete', { count: 1 })).toBe('Cet élément sera supprimé définitivement :');
    expect(en('index.total')).toBe('{count} items'); // no count: the plural, its placeholder left
  });

  test('French reads naturally with one related item and beside the user\'s name', () => {
    const fr = translatorFor('fr').t;
    // was `Les 1 dans la liste` and `Connecté en tant que admin`
    expect([1, 2].map((count) => fr('detail.related_all', { count }))).toEqual(['Le voir dans la liste', 'Les 2 dans la liste']);
    expect(translatorFor('en').t('detail.related_all', { count: 1 })).toBe('See it in the list');
    expect(fr('layout.signed_in_as', { user: 'admin' })).toBe('Connecté : admin');
  });

  test('the login error is translated by its ERR_FIREWALL_* code, whatever the English text says', () => {
    const { t } = translatorFor('fr');
    expect(loginError({ code: 'ERR_FIREWALL_BAD_CREDENTIALS', message: 'Bad credentials.' }, t))
      .toBe('Identifiants invalides.');
    expect(loginError({ code: 'ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS', message: 'Slow down.', retryAfterSeconds: 125 }, t))
      .toBe('Trop de tentatives de connexion infructueuses, veuillez réessayer dans 3 minute(s).');
    expect(loginError({ code: 'ERR_FIREWALL_INVALID_CSRF_TOKEN', message: 'Invalid CSRF token.' }, t))
      .toBe('Invalid CSRF token.');
    expect(loginError(null, t)).toBeNull();
  });
});
