import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { CorsOptions, CorsRule, resolveCorsOptions } from './options';
import { isOriginAllowed } from './origins';
import { defineRequestSlot } from '../http/requestSlots';

/** What the CORS layer decided for a request, kept on `req.cors` for the profiler. */
export interface CorsDecision {
  /**
   * The `Origin` header, or null when the request is no CORS request: it had none, or its
   * `Origin` is the scheme and host it was sent to (a same-origin form post or `fetch`).
   */
  readonly origin: string | null;
  /** Whether CORS headers were granted (a rule matched the path and listed the origin). */
  readonly allowed: boolean;
  /** Whether it was a preflight: `OPTIONS` with `Origin` and `Access-Control-Request-Method`. */
  readonly preflight: boolean;
  /** The `paths` key whose rule applied, or null when none matched the path. */
  readonly rule: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link corsLayer} on every request it sees. */
    cors?: CorsDecision;
  }
}
defineRequestSlot('cors');

/** Lets the `cors` package treat a plain `OPTIONS` as the actual request it is, not a preflight. */
function asActualRequest(req: Request): Request {
  return Object.create(req, { method: { value: 'GET' } }) as Request;
}

/** The decision for a request without `Origin` on a path no rule covers. */
const NOT_CORS: CorsDecision = Object.freeze({ origin: null, allowed: false, preflight: false, rule: null });

/**
 * The CORS layer (NelmioCorsBundle's `CorsListener`), built on the `cors` package with settings
 * per path prefix:
 * - a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) on a configured
 *   path is answered here, before the firewall: 204 with `Access-Control-Allow-Origin` (the
 *   origin echoed, with `Vary: Origin`), `-Allow-Methods`, `-Allow-Headers`, `-Max-Age` and
 *   `-Allow-Credentials` when the origin is allowed; when it is not, no CORS header, and the
 *   preflight goes on to routing like any OPTIONS request (405 with `Allow` where no route takes OPTIONS);
 * - any other request from an allowed origin goes on with `Access-Control-Allow-Origin`,
 *   `-Expose-Headers` and `-Allow-Credentials` set, so they are on every answer, 404s included;
 * - a disallowed origin gets no CORS header; a plain `OPTIONS` (no preflight headers) goes on
 *   to the routing table, which answers 405 with `Allow` when no route takes `OPTIONS`.
 * - a request whose `Origin` equals the scheme and host it was sent to (`http://127.0.0.1:3000`
 *   posting to itself: browsers send `Origin` on same-origin POSTs) is no CORS request: it goes
 *   on untouched and is recorded like one without `Origin` (NelmioCorsBundle's
 *   `skip_same_as_origin`, on by default); so is a browser's request marked
 *   `Sec-Fetch-Site: same-origin` (Fetch Metadata), whose `Origin` is `null` under
 *   `Referrer-Policy: no-referrer`.
 * The decision is recorded on `req.cors` ({@link CorsDecision}).
 * @param options - see {@link CorsOptions}; validated here, once
 * @returns the layer, for `createKernel({ layers: { cors: … } })`
 * @throws KernelConfigError for a bad option, at construction
 */
export function corsLayer(options: CorsOptions): RequestHandler {
  const { rules } = resolveCorsOptions(options);
  const compiled = rules.map((rule): { rule: CorsRule; handler: RequestHandler; noOrigin: CorsDecision } => ({
    rule,
    noOrigin: Object.freeze({ origin: null, allowed: false, preflight: false, rule: rule.path }),
    handler: cors({
      origin: true, // echo: only called for origins the rule allows
      credentials: rule.credentials,
      exposedHeaders: [...rule.exposedHeaders],
      maxAge: rule.maxAge,
      methods: [...rule.methods],
      allowedHeaders: rule.allowedHeaders === '*' ? undefined : [...rule.allowedHeaders],
      preflightContinue: false,
      optionsSuccessStatus: 204,
    }),
  }));

  return function corsHandler(req: Request, res: Response, next: NextFunction) {
    const header = req.headers.origin;
    const uri = req.kernel?.uri;
    // a browser's same-origin request: its Origin is the host it is sent to, or `null` under
    // `Referrer-Policy: no-referrer` with `Sec-Fetch-Site: same-origin` (a header pages cannot set)
    const sameOrigin = header === uri?.schemeAndHttpHost || req.headers['sec-fetch-site'] === 'same-origin';
    const origin = typeof header === 'string' && header !== '' && !sameOrigin ? header : null;
    const pathInfo = uri?.pathInfo ?? req.path;
    const entry = compiled.find((c) => c.rule.pathPattern.test(pathInfo));
    if (origin === null) {
      // not a CORS request (the common case, same-origin posts included): a decision made once per rule
      req.cors = entry?.noOrigin ?? NOT_CORS;
      return next();
    }
    const preflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    const allowed = entry !== undefined && isOriginAllowed(origin, entry.rule.origins);
    req.cors = Object.freeze({ origin, allowed, preflight, rule: entry?.rule.path ?? null });
    if (entry === undefined) return next();
    res.vary('Origin');
    if (allowed) return entry.handler(req.method === 'OPTIONS' && !preflight ? asActualRequest(req) : req, res, next);
    // A disallowed origin gets no CORS header; its preflight goes on like any OPTIONS request
    // (to routing: 405 with Allow, as the reference answers every OPTIONS).
    return next();
  };
}
