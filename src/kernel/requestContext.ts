import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { BadRequestHttpError } from '../http/errors';
import { resolveRequestUri, TrustFunction } from '../http/RequestUri';
import { NULL_STOPWATCH } from '../profiler/Stopwatch';
import { KernelRequestState } from './state';

const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'PATCH', 'PURGE', 'TRACE'];

/**
 * The first layer: creates `req.kernel` with the request's URI parts and its effective method.
 * A POST with `X-HTTP-Method-Override` takes that method, as Symfony's `Request::getMethod()`
 * does even with `http_method_override: false`; an override that is not a token of A–Z is a 400
 * `Invalid method override "x".`. An invalid Host is remembered and answered as a 400 by the
 * router layer, so the layers before it still run.
 *
 * With `trustedHosts` (Symfony `Request::setTrustedHosts()`), a request whose host matches none
 * of the patterns goes straight to the error layer as a 400 `Untrusted Host "<host>".` (Symfony's
 * `SuspiciousOperationException`), before any other layer runs.
 * @param trust - which peers are trusted proxies (see `compileTrust`)
 * @param trustedHosts - host patterns, case-insensitive; empty trusts every host
 */
export function requestContext(trust: TrustFunction, trustedHosts: readonly RegExp[] = []): RequestHandler {
  return function kernelRequest(req: Request, _res: Response, next: NextFunction) {
    let method = req.method.toUpperCase();
    let methodError: unknown;
    const override = req.headers['x-http-method-override'];
    if (method === 'POST' && typeof override === 'string' && override !== '') {
      const m = override.toUpperCase();
      if (KNOWN_METHODS.includes(m) || /^[A-Z]+$/.test(m)) method = m;
      else methodError = new BadRequestHttpError(`Invalid method override "${m}".`);
    }
    req.kernel = new KernelRequestState(method, performance.now());
    req.stopwatch = NULL_STOPWATCH; // the profiler gives a profiled request a live one
    try {
      req.kernel.uri = resolveRequestUri(req, trust);
    } catch (e) {
      req.kernel.uriError = e;
    }
    if (methodError !== undefined) req.kernel.uriError ??= methodError;
    if (method !== req.method) req.method = method;
    const host = req.kernel.uri?.host;
    if (host !== undefined && trustedHosts.length > 0 && !trustedHosts.some((p) => p.test(host))) {
      return next(new BadRequestHttpError(`Untrusted Host "${host}".`, {}, 'ERR_HTTP_UNTRUSTED_HOST'));
    }
    next();
  };
}
