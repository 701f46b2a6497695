import type { Request, Response } from 'express';
import { formatMessage } from '../errors/codes';
import { HttpError, NotFoundHttpError } from '../http/errors';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_PROFILER_PANEL_NOT_FOUND: NotFoundHttpError;
    ERR_PROFILER_INVALID_CRITERION: InvalidCriterionError;
  }
}
import type { TrustFunction } from '../http/RequestUri';
import type { Profile, ProfileCriteria } from './Profile';
import type { ProfilerStorage } from './storage/ProfilerStorage';

/**
 * The profiler pages' own Content-Security-Policy: no script at all, styles inline, forms to
 * the same origin. Whatever a profile echoes, a page cannot run it.
 */
export const PROFILER_CSP = "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
  + "form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

/** A profiler page handler. */
export type PageHandler = (req: Request, res: Response) => Promise<void>;

/** The base URL (mount path or script name) the profiler's links start with. */
export function baseOf(req: Request): string {
  return req.kernel!.uri?.baseUrl ?? '';
}

/**
 * Wraps a page so only clients `allowed` accepts see it; others get the same 404 as a path with
 * no route. Pages are never cached or indexed, and carry {@link PROFILER_CSP}.
 */
export function guarded(allowed: TrustFunction): (handler: PageHandler) => PageHandler {
  return (handler) => async function profilerPage(req: Request, res: Response) {
    const uri = req.kernel!.uri;
    if (uri === undefined || !allowed(uri.clientIp, 0)) {
      const url = `${uri?.schemeAndHttpHost ?? ''}${uri?.baseUrl ?? ''}${uri?.pathInfo ?? ''}`;
      throw new NotFoundHttpError(formatMessage('ERR_HTTP_NOT_FOUND', req.kernel!.method, url));
    }
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Cache-Control', 'no-cache, private');
    res.setHeader('Content-Security-Policy', PROFILER_CSP);
    await handler(req, res);
  };
}

/** A profile by token; `latest` is the newest profile (Symfony's special token). */
export async function loadProfile(storage: ProfilerStorage, token: string): Promise<Profile | null> {
  if (token === 'latest') {
    const [newest] = await storage.find({ limit: 1 });
    return newest === undefined ? null : storage.read(newest.token);
  }
  return storage.read(token);
}

/** A search filter that does not parse: the JSON API's 400 (code `ERR_PROFILER_INVALID_CRITERION`). */
export class InvalidCriterionError extends HttpError {
  override name = 'InvalidCriterionError';
  declare readonly code: 'ERR_PROFILER_INVALID_CRITERION';
  /**
   * @param parameter - the query parameter, e.g. `status`
   * @param value - its value as given
   * @param expected - what it should be, e.g. `a status code from 100 to 599`
   */
  constructor(readonly parameter: string, readonly value: string, expected: string) {
    const message = formatMessage('ERR_PROFILER_INVALID_CRITERION', parameter, expected, JSON.stringify(value));
    super('ERR_PROFILER_INVALID_CRITERION', message);
  }
}

/**
 * A date filter as ms since the epoch. A date and time without a zone is UTC, as the pages show
 * times; a bare date as `end` means the end of that day.
 */
function dateOf(value: string, end: boolean): number {
  let text = value.trim();
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return end && /^\d{4}-\d\d-\d\d$/.test(value.trim()) ? ms + 86_399_999 : ms;
}

/**
 * The search criteria of a query string: `ip`, `method`, `status`, `url` (substring), `start`,
 * `end` (dates), `limit` (1–1000, default 10).
 * @param strict - throw on a value that does not parse (JSON API) instead of ignoring it (pages)
 * @throws InvalidCriterionError when strict and a value does not parse
 */
export function criteriaOf(query: Request['query'], strict: boolean): ProfileCriteria {
  const str = (k: string): string | undefined => (
    typeof query[k] === 'string' && query[k] !== '' ? query[k] : undefined
  );
  const parsed = <T>(k: string, parse: (v: string) => T | undefined, expected: string): T | undefined => {
    const raw = str(k);
    if (raw === undefined) return undefined;
    const value = parse(raw);
    if (value === undefined && strict) throw new InvalidCriterionError(k, raw, expected);
    return value;
  };
  const int = (min: number, max: number) => (v: string): number | undefined => {
    const n = /^\d+$/.test(v) ? Number(v) : NaN;
    return n >= min && n <= max ? n : undefined;
  };
  const date = (end: boolean) => (v: string): number | undefined => {
    const ms = dateOf(v, end);
    return Number.isFinite(ms) ? ms : undefined;
  };
  return {
    ip: str('ip'),
    method: parsed(
      'method', (v) => (/^[A-Za-z]+$/.test(v) ? v.toUpperCase() : undefined), 'an HTTP method such as GET',
    ),
    url: str('url'),
    statusCode: parsed('status', int(100, 599), 'a status code from 100 to 599'),
    start: parsed('start', date(false), 'a date such as 2024-05-01 or 2024-05-01T10:00'),
    end: parsed('end', date(true), 'a date such as 2024-05-01 or 2024-05-01T10:00'),
    limit: parsed('limit', int(1, 1000), 'a whole number from 1 to 1000') ?? 10,
  };
}
