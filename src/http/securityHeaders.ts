import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { resolveSecurityHeadersOptions } from './securityHeadersOptions';

/** One thing helmet did to a response: set a header, or remove one. */
type HeaderOperation = readonly [name: string, value: string | number | readonly string[] | undefined];

/** A request and response that only record what is done to their headers. */
function recorder(): { req: Request; res: Response; operations: HeaderOperation[] } {
  const operations: HeaderOperation[] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) { operations.push([name, value]); return res; },
    removeHeader(name: string) { operations.push([name, undefined]); },
    locals: {},
  };
  return { req: { headers: {}, method: 'GET', url: '/' } as unknown as Request, res: res as unknown as Response, operations };
}

/** Whether the options hold a function (a CSP directive such as a per-request nonce). */
function hasFunction(value: unknown, depth = 0): boolean {
  if (typeof value === 'function') return true;
  if (value === null || typeof value !== 'object' || depth > 4) return false;
  return Object.values(value).some((v) => hasFunction(v, depth + 1));
}

/**
 * The security headers layer: helmet with the given options. helmet's headers depend on its
 * options alone unless an option is a function (a CSP directive computing a nonce), so when none
 * is, helmet runs once, here, on a recording response, and each request gets the recorded header
 * operations replayed in helmet's order: the same headers (RFC 9110 field names, helmet's values)
 * without helmet's chain of a dozen middleware per request. With a function among the options,
 * or if helmet does not answer synchronously, the layer is helmet itself.
 * @param options - helmet's options, validated here ({@link resolveSecurityHeadersOptions})
 * @returns the layer
 * @throws KernelConfigError `Invalid option "securityHeaders.<key>": …` for a key helmet does not
 *   know (with "did you mean") or a value it refuses (with helmet's message)
 */
export function securityHeaders(options: HelmetOptions = {}): RequestHandler {
  const middleware = helmet(resolveSecurityHeadersOptions(options));
  if (hasFunction(options)) return middleware;
  const { req, res, operations } = recorder();
  let done = false;
  let failed: unknown;
  try {
    middleware(req, res, (err?: unknown) => { done = true; failed = err; });
  } catch (e) {
    failed = e;
  }
  if (!done || failed !== undefined) return middleware;
  const recorded = Object.freeze(operations);
  return function securityHeaders(_req: Request, response: Response, next: NextFunction) {
    for (let i = 0; i < recorded.length; i++) {
      const [name, value] = recorded[i];
      if (value === undefined) response.removeHeader(name);
      else response.setHeader(name, value);
    }
    next();
  };
}
