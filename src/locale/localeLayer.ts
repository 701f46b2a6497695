import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type {} from 'express-session';
import { existingSession } from '../session/previousSession';
import { defineRequestSlot } from '../http/requestSlots';
import { resolveLocaleOptions, type LocaleOptions, type ResolvedLocaleOptions } from './options';
import { createLocaleNegotiator, LocaleNegotiator, toLanguageTag } from './acceptLanguage';
import { frozenRecord } from '../support/frozen';

export { resolveLocaleOptions } from './options';
export type { LocaleOptions, ResolvedLocaleOptions } from './options';

/** Where a request's locale came from, in order of precedence. */
export type LocaleSource = 'route' | 'session' | 'header' | 'default';

/** What the locale layer decided, kept on `req.localeInfo` for the profiler. */
export interface LocaleInfo {
  /** The locale as configured in `enabledLocales`, e.g. `fr` or `pt_BR`. */
  readonly locale: string;
  readonly source: LocaleSource;
}

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The request's locale (Symfony `Request::getLocale()`), one of the enabled locales, set by
     * {@link localeLayer} and made final by {@link routeLocale} (undefined without the layer).
     */
    locale?: string;
    /** How the locale layer chose `req.locale`. */
    localeInfo?: LocaleInfo;
  }
}
defineRequestSlot('locale');
defineRequestSlot('localeInfo');

declare module 'express-session' {
  interface SessionData {
    /** The user's chosen locale, read by {@link localeLayer} (Symfony's `_locale` session key). */
    locale?: string;
  }
}

/** What the layer leaves on the request for {@link routeLocale}. */
export interface LocaleContext {
  readonly options: ResolvedLocaleOptions;
  /** Each enabled locale's BCP 47 tag, for `Content-Language` (`fr_FR` → `fr-FR`). */
  readonly tags: ReadonlyMap<string, string>;
  /** The enabled locale a route's `_locale` value names (`fr-fr` finds `fr_FR`), if any. */
  enabled(value: string): string | undefined;
  /** The frozen {@link LocaleInfo} of an enabled locale and a source (made once, shared by requests). */
  info(locale: string, source: LocaleSource): LocaleInfo;
}

/** Where {@link localeLayer} keeps its {@link LocaleContext} on the request, read by `routeLocale`. */
export const LOCALE_CONTEXT: unique symbol = Symbol('express-kernel.locale');
defineRequestSlot(LOCALE_CONTEXT);

/** Reads the {@link LocaleContext} the locale layer left on `req`, if it ran. */
export function localeContextOf(req: Request): LocaleContext | undefined {
  return (req as unknown as { [LOCALE_CONTEXT]?: LocaleContext })[LOCALE_CONTEXT];
}

/**
 * Sets the final locale on the request and the `Content-Language` header (BCP 47, `fr-FR` for
 * `fr_FR`) when the response has not started.
 */
export function applyLocale(req: Request, res: Response, context: LocaleContext, info: LocaleInfo): void {
  req.locale = info.locale;
  req.localeInfo = frozenRecord(info);
  if (!res.headersSent) res.setHeader('Content-Language', context.tags.get(info.locale) ?? info.locale);
}

/**
 * The locale layer (Symfony `LocaleListener`): sets `req.locale`, `req.localeInfo` and the
 * `Content-Language` header from, in order,
 * 1. the route's `_locale` parameter: known only after the match, so this layer sets a
 *    provisional locale and {@link routeLocale}, run by the kernel between the match and the
 *    controller, makes it final;
 * 2. the session's `locale` (`req.session.locale`, when a session layer runs; reading it creates
 *    no session and sets no cookie);
 * 3. `Accept-Language`, negotiated against the enabled locales (malformed values are ignored);
 * 4. the default locale.
 * Values from the route and the session count only when they name an enabled locale.
 * @param options - see {@link LocaleOptions}; validated here, once
 * @returns the layer, for `createKernel({ layers: { locale: … } })`
 * @throws KernelConfigError for a bad option, at construction
 */
export function localeLayer(options: LocaleOptions = {}): RequestHandler {
  const resolved = resolveLocaleOptions(options);
  const tags = new Map(resolved.enabledLocales.map((l) => [l, toLanguageTag(l)]));
  const byTag = new Map(resolved.enabledLocales.map((l) => [toLanguageTag(l).toLowerCase(), l]));
  const negotiate: LocaleNegotiator = createLocaleNegotiator(resolved.enabledLocales);
  const SOURCES: readonly LocaleSource[] = ['route', 'session', 'header', 'default'];
  const infos = new Map(resolved.enabledLocales.map((locale) => [
    locale,
    new Map(SOURCES.map((source) => [source, Object.freeze({ locale, source })])),
  ]));
  const context: LocaleContext = Object.freeze({
    options: resolved,
    tags,
    enabled(value: string): string | undefined {
      return resolved.enabledLocales.includes(value) ? value : byTag.get(value.replace(/_/g, '-').toLowerCase());
    },
    info(locale: string, source: LocaleSource): LocaleInfo {
      return infos.get(locale)?.get(source) ?? Object.freeze({ locale, source });
    },
  });
  return function locale(req: Request, res: Response, next: NextFunction) {
    (req as unknown as { [LOCALE_CONTEXT]: LocaleContext })[LOCALE_CONTEXT] = context;
    const stored: unknown = existingSession(req)?.locale;
    const fromSession = typeof stored === 'string' ? context.enabled(stored) : undefined;
    const fromHeader = fromSession === undefined ? negotiate(req.headers['accept-language']) : undefined;
    if (fromSession !== undefined) applyLocale(req, res, context, context.info(fromSession, 'session'));
    else if (fromHeader !== undefined) applyLocale(req, res, context, context.info(fromHeader, 'header'));
    else applyLocale(req, res, context, context.info(resolved.defaultLocale, 'default'));
    if (fromSession === undefined) {
      // RFC 9110 §12.5.5: the vary package merges into an existing Vary; none yet, set it
      if (res.hasHeader('Vary')) res.vary('Accept-Language');
      else res.setHeader('Vary', 'Accept-Language');
    }
    next();
  };
}
