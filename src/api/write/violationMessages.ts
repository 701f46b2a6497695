import { z } from 'zod';

/**
 * The language of a write's violation messages (API Platform's 422s go through Symfony's
 * translator, in the request's locale): zod's own locales (`z.locales.fr()`) for the schema's
 * constraints, passed to each parse rather than set with `z.config`, which is global and would
 * let a French request change the language of an English one running at the same time; and the
 * API layer's own messages (NUL character, bad relation IRI, unknown related item) in English
 * and French. A message written in a schema (`z.string().regex(re, 'Expected an ISBN.')`) is
 * kept as written, in every language.
 * @module
 */

/** zod's error map (`z.locales.fr().localeError`): turns an issue into its message. */
export type ZodErrorMap = NonNullable<z.core.$ZodConfig['localeError']>;

/** The API layer's own violation messages, in one language. */
export interface ViolationMessages {
  /** The language these messages are in (`en`, `fr`); English for a language without a catalog. */
  readonly lang: string;
  /** zod's messages in the request's language (English for a language zod does not know). */
  readonly zod: ZodErrorMap;
  /** A string holding U+0000. */
  readonly nulCharacter: string;
  /** A relation that is not the IRI of a `target` under `prefix`. */
  invalidIri(target: string, prefix: string): string;
  /** A relation IRI naming no item of `target`. */
  invalidRelation(target: string): string;
}

type OwnMessages = Omit<ViolationMessages, 'lang' | 'zod'>;

const OWN: Readonly<Record<string, OwnMessages>> = Object.freeze({
  en: Object.freeze({
    nulCharacter: 'This value must not contain a NUL character (U+0000).',
    invalidIri: (target: string, prefix: string) => `Expected the IRI of a ${target} (${prefix}/<id>).`,
    invalidRelation: (target: string) => `No ${target} has this IRI.`,
  }),
  fr: Object.freeze({
    nulCharacter: 'Cette valeur ne doit pas contenir de caractère NUL (U+0000).',
    invalidIri: (target: string, prefix: string) => `L’IRI d’un élément ${target} est attendu (${prefix}/<id>).`,
    invalidRelation: (target: string) => `Aucun élément ${target} n’a cet IRI.`,
  }),
});

type ZodLocales = Readonly<Record<string, (() => { localeError: ZodErrorMap }) | undefined>>;
const ZOD_LOCALES = z.locales as unknown as ZodLocales;
const CACHE = new Map<string, ViolationMessages>();

/**
 * The violation messages of a locale: zod's locale of its region when zod has one (`fr_CA` →
 * `frCA`, `pt-BR` → `ptBR`), else of its language (`fr_FR` → `fr`), else English; the API
 * layer's own messages in the language's catalog, else English. Made once per locale.
 * @param locale - the request's locale (`req.locale`, e.g. `fr` or `fr_FR`); undefined reads English
 * @returns the messages (the same frozen object for the same locale)
 */
export function violationMessages(locale: string | undefined): ViolationMessages {
  const key = locale ?? 'en';
  let messages = CACHE.get(key);
  if (messages === undefined) {
    const [language, region = ''] = key.split(/[-_]/);
    const lang = language.toLowerCase();
    const own = (name: string): (() => { localeError: ZodErrorMap }) | undefined =>
      (Object.hasOwn(ZOD_LOCALES, name) ? ZOD_LOCALES[name] : undefined);
    const zodLocale = own(lang + region.toUpperCase()) ?? own(lang) ?? z.locales.en;
    const ownLang = Object.hasOwn(OWN, lang) ? lang : 'en';
    messages = Object.freeze({ lang: ownLang, zod: zodLocale().localeError, ...OWN[ownLang] });
    if (CACHE.size < 64) CACHE.set(key, messages);
  }
  return messages;
}
