import { z } from 'zod';
import { parseOptions } from '../config/parseOptions';
import { optionsObject } from '../config/optionSchemas';
import { toLanguageTag } from './acceptLanguage';

const LOCALE = 'expected a locale such as "fr" or "fr_FR"';
const LOCALES = 'expected a non-empty list of locales such as ["en", "fr"]';

/** Whether `value` is a locale {@link toLanguageTag} turns into a BCP 47 tag (`und` is none). */
function isLocale(value: string): boolean {
  try {
    toLanguageTag(value);
    return value !== 'und';
  } catch {
    return false;
  }
}

const locale = z.string({ error: LOCALE }).refine(isLocale, { error: LOCALE });

/**
 * The options of {@link localeLayer}, validated once at construction: the public
 * {@link LocaleOptions} is this schema's input, {@link ResolvedLocaleOptions} its output.
 */
export const localeOptionsSchema = optionsObject({
  /**
   * The locale when no source gives an enabled one (Symfony `framework.default_locale`).
   * Must be one of `enabledLocales`.
   * @default 'en'
   */
  defaultLocale: locale.optional(),
  /**
   * The locales the application speaks (Symfony `framework.enabled_locales`), `fr` or `fr_FR`.
   * @default [defaultLocale]
   * @example ['en', 'fr', 'de']
   */
  enabledLocales: z.array(locale, { error: LOCALES }).min(1, { error: LOCALES }).readonly().optional(),
}).transform((o, ctx) => {
  const defaultLocale = o.defaultLocale ?? 'en';
  const enabledLocales = Object.freeze([...(o.enabledLocales ?? [defaultLocale])]);
  if (!enabledLocales.includes(defaultLocale)) {
    const message = `expected one of the enabled locales ${JSON.stringify(enabledLocales)}`;
    const params = { got: JSON.stringify(defaultLocale), hint: 'add it to enabledLocales' };
    ctx.addIssue({ code: 'custom', path: ['defaultLocale'], message, input: defaultLocale, params });
  }
  return { defaultLocale, enabledLocales };
});

/** Options of {@link localeLayer}. All optional. */
export type LocaleOptions = z.input<typeof localeOptionsSchema>;

/** {@link LocaleOptions} validated, with defaults applied. Frozen. */
export type ResolvedLocaleOptions = Readonly<z.output<typeof localeOptionsSchema>>;

/**
 * Validates {@link LocaleOptions} (fail fast, at construction).
 * @throws KernelConfigError `Invalid option "locale.<name>": …` naming the option and value
 */
export function resolveLocaleOptions(options: LocaleOptions = {}): ResolvedLocaleOptions {
  return Object.freeze(parseOptions(localeOptionsSchema, options, 'locale'));
}
