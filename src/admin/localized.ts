import { z } from 'zod';

/**
 * A text of the back office's configuration (a label, a help text, a confirmation) in one
 * language or several: `'Books'`, or `{ en: 'Books', fr: 'Livres' }` by locale (EasyAdmin's
 * labels go through Symfony's translator; here the configuration holds the translations).
 * @module
 */

/** One text, or one per locale (`en`, `fr`, `fr_CA`, `pt-BR`). */
export type LocalizedText = string | Readonly<Record<string, string>>;

const LOCALE = /^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})?$/;
const WHAT = 'expected a non-empty string, or an object of them by locale ({ en: "Books", fr: "Livres" })';

/** The schema of a {@link LocalizedText}: a non-empty string, or a non-empty map of locale → non-empty string. */
export const localizedTextSchema = z.custom<LocalizedText>((v) => {
  if (typeof v === 'string') return v.trim() !== '';
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length > 0
    && entries.every(([locale, text]) => LOCALE.test(locale) && typeof text === 'string' && text.trim() !== '');
}, { error: WHAT });

/**
 * The text for a locale: the locale's own (`fr_CA`), else its language's (`fr`), else English,
 * else the first one given.
 * @param text - the configured text
 * @param locale - the request's locale (`req.locale`), e.g. `fr_FR`; undefined reads English
 */
export function localized(text: LocalizedText, locale: string | undefined): string {
  if (typeof text === 'string') return text;
  const wanted = (locale ?? 'en').replace('-', '_');
  const language = wanted.split('_')[0].toLowerCase();
  const byKey = new Map(Object.entries(text).map(([k, v]) => [k.replace('-', '_'), v]));
  return byKey.get(wanted) ?? byKey.get(language) ?? byKey.get('en') ?? Object.values(text)[0];
}
