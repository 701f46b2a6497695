import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { formatMessage } from '../errors/codes';
import { MethodNotAllowedHttpError, NotFoundHttpError } from '../http/errors';
import { headerText } from '../http/headerText';
import { render } from '../http/templates';
import { withoutStackTrace } from '../support/stackTrace';
import '../profiler/Stopwatch';
import type { RouteCollection } from '../routing/RouteCollection';
import type { UrlMatcher } from '../routing/matcher/UrlMatcher';
import {
  allowedMethodsText, InvalidRouteError, MethodNotAllowedError, NoConfigurationError, ResourceNotFoundError,
} from '../routing/errors';

/** 405 with Symfony's message: `No route found for "<METHOD> <url>": Method Not Allowed (Allow: …)`. */
function methodNotAllowed(method: string, url: string, cause: MethodNotAllowedError): MethodNotAllowedHttpError {
  const message = formatMessage('ERR_HTTP_METHOD_NOT_ALLOWED', method, url, allowedMethodsText(cause.allowedMethods));
  return new MethodNotAllowedHttpError(cause.allowedMethods, message, { cause });
}

/** 404 with Symfony's message: `No route found for "<METHOD> <url>"` (+ ` (from "<Referer>")`). */
function notFound(req: Request, method: string, url: string, cause: ResourceNotFoundError): NotFoundHttpError {
  const referer = headerText(req.headers.referer);
  // PHP's truthiness: an empty Referer and "0" add nothing
  const from = referer !== '' && referer !== '0' ? ` (from "${referer}")` : '';
  return new NotFoundHttpError(formatMessage('ERR_HTTP_NOT_FOUND', method, url) + from, { cause });
}

/** Options of {@link routerMiddleware}. */
export interface RouterLayerOptions {
  /**
   * `'next'`: a path no route matches (a 404, not a 405) calls `next()`, so the handlers after
   * the kernel in the host app get the request. @default 'render' (a `NotFoundHttpError`)
   */
  notFound?: 'render' | 'next';
  /**
   * Whether the 404 and 405 errors (and their routing causes) capture a stack trace: the kernel
   * passes its `debug` flag, since only debug output (the exception page, the profiler) shows
   * one. Without, `err.stack` is the `Name: message` line. @default true
   */
  stackTraces?: boolean;
}

/**
 * The longest `Location` a trailing-slash or scheme redirect sends, in characters (octets: the
 * URL is ASCII): RFC 9110 §4.1 asks senders and recipients to support at least 8000 octets in a
 * URI, and common proxies refuse a header block over 8 KB. A longer one (the raw query repeated)
 * is answered as the 404 of a path no route matches instead.
 */
export const MAX_LOCATION_LENGTH = 8000;

/**
 * The router layer (Symfony `RouterListener` + `RedirectController`): matches the request's raw
 * path info, answers trailing-slash and scheme redirects with a 301 to an absolute URL that
 * keeps the raw query string, runs the matched route's controller, and turns routing errors into
 * HTTP errors with Symfony's exact messages:
 * - `No route found for "GET http://host/path"` (+ ` (from "<Referer>")`) → 404, the routing
 *   error kept as `cause`;
 * - `No route found for "POST http://host/path": Method Not Allowed (Allow: GET, HEAD)` → 405
 *   with `Allow`.
 * @param matcher - the kernel's own matcher, built from its routes: the layer calls `tryMatch`, so
 *   a miss is returned rather than thrown. The kernel takes no user matcher, so nothing else
 *   needs `tryMatch`: `UrlMatcherInterface` stays Symfony's one-method contract (`match`).
 * @param routes - the table, to find the matched route's controller
 * @param routeHandlers - run after the match and before the controller (body parsing,
 *   post-deserialization checks)
 * @param options - `notFound: 'next'` lets unmatched paths fall through to the host app
 */
export function routerMiddleware(
  matcher: Pick<UrlMatcher, 'tryMatch'>,
  routes: RouteCollection,
  routeHandlers: readonly RequestHandler[] = [],
  options: RouterLayerOptions = {},
): RequestHandler {
  const fallThrough = options.notFound === 'next';
  const make = options.stackTraces === false ? withoutStackTrace : <T>(build: () => T): T => build();
  return function router(req: Request, res: Response, next: NextFunction) {
    const uri = req.kernel!.uri;
    if (uri === undefined || req.kernel!.uriError !== undefined) return next(req.kernel!.uriError);
    const method = req.kernel!.method;
    const context = { method, host: uri.host, scheme: uri.scheme, pathInfo: uri.pathInfo };
    // tryMatch, not match + catch: 67k instructions a 404 against 77k (callgrind,
    // `bench/callgrindOps.sh router404 tryMatch 20000`)
    const match = matcher.tryMatch(uri.pathInfo, context);
    if (!('route' in match)) {
      if (fallThrough && match.failure !== 'method-not-allowed') return next();
      const url = `${uri.schemeAndHttpHost}${uri.baseUrl}${uri.pathInfo}`;
      if (match.failure === 'method-not-allowed') {
        return next(make(() => methodNotAllowed(method, url, new MethodNotAllowedError(method, match.allowedMethods))));
      }
      return next(make(() => notFound(req, method, url, match.noConfiguration === true
        ? new NoConfigurationError()
        : new ResourceNotFoundError(match.pathInfo))));
    }
    req.kernel!.route = match.route;
    req.kernel!.routeParams = match.params;
    if (match.redirect !== undefined) {
      const scheme = match.redirect.scheme ?? uri.scheme;
      const origin = scheme === uri.scheme ? uri.schemeAndHttpHost : `${scheme}://${uri.host}`;
      const query = uri.queryString !== '' ? '?' + uri.queryString : '';
      const location = `${origin}${uri.baseUrl}${match.redirect.pathInfo}${query}`;
      if (location.length > MAX_LOCATION_LENGTH) {
        // a header that proxies and Node's own client refuse: no redirect, the path is not found
        const url = `${uri.schemeAndHttpHost}${uri.baseUrl}${uri.pathInfo}`;
        return next(make(() => notFound(req, method, url, new ResourceNotFoundError(uri.pathInfo))));
      }
      res.status(301).setHeader('Location', location);
      res.setHeader('Cache-Control', 'max-age=0, must-revalidate, private');
      res.type('text/html; charset=utf-8').send(render('error/redirect.html.njk', { url: location }));
      return;
    }
    const definition = routes.get(match.route);
    const controller = definition?.controller;
    if (controller === undefined) return next(new InvalidRouteError(match.route, 'the route has no controller.'));
    req.kernel!.routeDefinition = definition;
    const params: Record<string, string> = {};
    for (const k in match.params) {
      const v = match.params[k];
      if (v !== null) params[k] = v;
    }
    req.params = params;
    let i = 0;
    const stopwatch = req.stopwatch;
    // on a profiled request the controller is a span of its own, ended by its next(err) or the response
    const afterController: NextFunction = stopwatch === undefined || !stopwatch.enabled ? next : (err?: unknown) => {
      stopwatch.stop('controller');
      next(err);
    };
    const step = (err?: unknown): void => {
      if (err !== undefined && err !== null) return next(err);
      const h = i < routeHandlers.length ? routeHandlers[i++] : controller;
      if (h === controller) stopwatch?.start('controller', 'controller');
      try {
        const out = h(req, res, h === controller ? afterController : step);
        if (out instanceof Promise) out.catch(next);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}
