import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { resolveSecurityHeadersOptions } from './securityHeadersOptions';
import { presetHeaders, type HeaderOperation } from './presetHeaders';

/** Whether the options hold a function (a CSP directive computing a per-request nonce). */
function hasFunction(value: unknown, depth = 0): boolean {
  if (typeof value === 'function') return true;
  if (value === null || typeof value !== 'object' || depth > 6) return false;
  return Object.values(value).some((v) => hasFunction(v, depth + 1));
}

/**
 * What helmet does to a response's headers, in order, when it answers synchronously on a
 * recording response; undefined otherwise.
 */
function recordHelmet(middleware: RequestHandler): HeaderOperation[] | undefined {
  const operations: HeaderOperation[] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) { operations.push([name, value]); return res; },
    removeHeader(name: string) { operations.push([name, undefined]); },
    locals: {},
  };
  const req = { headers: {}, method: 'GET', url: '/' };
  let done = false;
  let failed: unknown;
  try {
    void middleware(req as Request, res as unknown as Response, (err?: unknown) => { done = true; failed = err; });
  } catch (e) {
    failed = e;
  }
  return done && failed === undefined ? operations : undefined;
}

/**
 * The security headers layer: helmet with the given options (RFC 9110 field names, helmet's
 * values). helmet's headers depend on its options alone unless an option is a function (a CSP
 * directive computing a nonce). When none is, helmet runs once, here, on a recording response,
 * and each response gets the same operations in helmet's order through {@link presetHeaders},
 * checked once instead of on every response. With a function among the options, or when helmet
 * does not answer synchronously, the layer is helmet itself.
 *
 * Replaying helmet's headers with `setHeader` measured no cheaper than helmet (31.3k against
 * 30.6k instructions a call, docs/benchmarks/speed-tricks.md): `setHeader`'s checks were the
 * cost; docs/benchmarks/not-found.md has the measurement of this writer.
 * @param options - helmet's options, validated here ({@link resolveSecurityHeadersOptions})
 * @returns the layer
 * @throws KernelConfigError `Invalid option "securityHeaders.<key>": …` for a key helmet does not
 *   know (with "did you mean") or a value it refuses (with helmet's message)
 */
export function securityHeaders(options: HelmetOptions = {}): RequestHandler {
  const resolved = resolveSecurityHeadersOptions(options);
  const middleware = helmet(resolved);
  const operations = hasFunction(resolved) ? undefined : recordHelmet(middleware);
  if (operations === undefined) return middleware;
  const write = presetHeaders(operations);
  return function securityHeaders(_req: Request, res: Response, next: NextFunction) {
    write(res);
    next();
  };
}
