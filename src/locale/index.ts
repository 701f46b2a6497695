/** The locale layer: `req.locale` from the route, the session, `Accept-Language` or the default. */
export { localeLayer, resolveLocaleOptions } from './localeLayer';
export type { LocaleOptions, ResolvedLocaleOptions, LocaleInfo, LocaleSource } from './localeLayer';
export { localeOptionsSchema } from './options';
export { routeLocale } from './routeLocale';
export { createLocaleNegotiator, parseAcceptLanguage, toLanguageTag } from './acceptLanguage';
export type { LocaleNegotiator } from './acceptLanguage';
