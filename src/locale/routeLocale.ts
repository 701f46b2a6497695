import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { applyLocale, localeContextOf } from './localeLayer';

/**
 * The second half of the locale layer (Symfony `LocaleListener::onKernelRequest` after the
 * `RouterListener`): a route handler, run by the kernel after the match and before the
 * controller, that makes the matched route's `_locale` parameter the request's locale when it
 * names an enabled locale (`req.localeInfo.source` becomes `route`, `Content-Language` follows).
 * Without `_locale`, or with a value that is not enabled, the locale {@link localeLayer} chose
 * stays. Does nothing when the locale layer did not run.
 *
 * Chosen over a lazy `req.locale` getter so that the locale is a plain value, final before any
 * controller code reads it, and `Content-Language` is set before the response starts.
 * @returns the handler, for `createKernel({ routeHandlers: [routeLocale(), …] })` (first)
 */
export function routeLocale(): RequestHandler {
  return function routeLocaleHandler(req: Request, res: Response, next: NextFunction) {
    const context = localeContextOf(req);
    const value = req.kernel?.routeParams?._locale;
    const locale = context !== undefined && typeof value === 'string' ? context.enabled(value) : undefined;
    if (context !== undefined && locale !== undefined) applyLocale(req, res, context, context.info(locale, 'route'));
    next();
  };
}
