import { z } from 'zod';
import { httpToken, optionsObject } from '../../config/optionSchemas';

/**
 * API Platform's `cacheHeaders` (the `#[ApiResource]` and operation option, and the API-wide
 * `defaults.cache_headers`) and the `Cache-Control` value Symfony's `Response::setCache()` and
 * `ResponseHeaderBag::computeCacheControlValue()` make of them.
 * @module
 */

/** A number of seconds a `Cache-Control` directive takes (RFC 9111 §1.2.2 delta-seconds; at most 2^31 − 1). */
const seconds = z.number({ error: 'expected a whole number of seconds ≥ 0' })
  .int({ error: 'expected a whole number of seconds ≥ 0' })
  .min(0, { error: 'expected a whole number of seconds ≥ 0' })
  .max(2 ** 31 - 1, { error: 'expected a whole number of seconds ≤ 2147483647 (RFC 9111 §1.2.2)' });

/** The schema of {@link CacheHeaders} (checked where it is declared: resource, operation, `apiRoutes`). */
export const cacheHeadersSchema = optionsObject({
  /**
   * `Cache-Control: max-age=<seconds>`: how long any cache, the browser's included, may serve the
   * response without asking again.
   * @default null (none)
   * @example 60
   */
  max_age: seconds.nullable().optional(),
  /**
   * `Cache-Control: s-maxage=<seconds>`, for shared caches (Varnish, a CDN) only; makes the
   * response `public` unless `public` is false, and is left out when `public` is false.
   * @default null (none)
   * @example 3600
   */
  shared_max_age: seconds.nullable().optional(),
  /** `Cache-Control: stale-while-revalidate=<seconds>` (RFC 5861). @default null (none) */
  stale_while_revalidate: seconds.nullable().optional(),
  /** `Cache-Control: stale-if-error=<seconds>` (RFC 5861). @default null (none) */
  stale_if_error: seconds.nullable().optional(),
  /**
   * Request headers the response depends on, added to `Vary` (those already there are kept):
   * a shared cache keeps one copy per value.
   * @default ['Accept']
   * @example ['Accept', 'Cookie']
   */
  vary: z.array(httpToken('a header name (an RFC 9110 token)'), { error: 'expected an array of header names' })
    .readonly().nullable().optional(),
  /**
   * true: `Cache-Control: public` (a shared cache may keep it); false: `private` (only the
   * browser may; no `s-maxage`). null: neither is written, and Symfony's rule applies: `private`
   * unless `s-maxage` is set.
   * @default null
   */
  public: z.boolean({ error: 'expected true, false or null' }).nullable().optional(),
});

/**
 * API Platform's `cacheHeaders`: the `Cache-Control` and `Vary` of successful GET (and HEAD)
 * responses. Given API-wide (`apiRoutes({ cacheHeaders })`, API Platform's
 * `defaults.cache_headers`), on a resource (`defineResource({ cacheHeaders })`) or on one
 * operation (`Get({ cacheHeaders })`, which replaces the resource's); each key left out (or null)
 * falls back to the API-wide value, then to API Platform's default. Keys are API Platform's.
 * @example { max_age: 60, shared_max_age: 3600, public: true, vary: ['Accept', 'Cookie'] }
 */
export type CacheHeaders = z.input<typeof cacheHeadersSchema>;

/**
 * API Platform 3.4's defaults when nothing is configured (`ApiPlatformExtension`: `etag` true,
 * `max_age` and `shared_max_age` null, `vary` `['Accept']`, `public` null). With them a GET is
 * answered `Cache-Control: no-cache, private` (Symfony's value for a response that sets no
 * directive) and `Vary: Accept`.
 */
export const DEFAULT_CACHE_HEADERS: Readonly<CacheHeaders> = Object.freeze({ vary: Object.freeze(['Accept']) });

/** What {@link cacheControl} makes of an operation's headers over the API-wide ones. */
export interface ResolvedCacheHeaders {
  /** The `Cache-Control` value. */
  readonly cacheControl: string;
  /** Header names to add to `Vary`. */
  readonly vary: readonly string[];
}

/** Symfony's `Cache-Control` of a response that sets no directive ("conservative by default"). */
export const CONSERVATIVE_CACHE_CONTROL = 'no-cache, private';

/**
 * The `Cache-Control` and `Vary` of a successful GET: each key of `operation` (the operation's
 * `cacheHeaders`, else its resource's) over `api` (the API-wide defaults) over
 * {@link DEFAULT_CACHE_HEADERS}, written as Symfony does: directives sorted by name, `private`
 * added when neither `public` nor `private` nor `s-maxage` is set, and `no-cache, private` when
 * none is set (API Platform's `AddHeadersProcessor` then `ResponseHeaderBag`).
 * @example resolveCacheHeaders({ max_age: 60, shared_max_age: 3600, public: true }, {})
 *   // { cacheControl: 'max-age=60, public, s-maxage=3600', vary: ['Accept'] }
 */
export function resolveCacheHeaders(operation: CacheHeaders | undefined, api: CacheHeaders): ResolvedCacheHeaders {
  const pick = <K extends keyof CacheHeaders>(key: K): CacheHeaders[K] =>
    operation?.[key] ?? api[key] ?? DEFAULT_CACHE_HEADERS[key];
  const isPublic = pick('public');
  const directives = new Map<string, string | true>();
  const maxAge = pick('max_age');
  if (maxAge != null) directives.set('max-age', String(maxAge));
  const shared = pick('shared_max_age');
  if (isPublic !== false && shared != null) {
    directives.set('s-maxage', String(shared));
    directives.set('public', true); // Symfony's setSharedMaxAge() calls setPublic()
  }
  if (isPublic === true) directives.set('public', true);
  if (isPublic === false) directives.set('private', true);
  const swr = pick('stale_while_revalidate');
  if (swr != null) directives.set('stale-while-revalidate', String(swr));
  const sie = pick('stale_if_error');
  if (sie != null) directives.set('stale-if-error', String(sie));
  return Object.freeze({ cacheControl: cacheControlValue(directives), vary: Object.freeze([...pick('vary') ?? []]) });
}

/** Symfony's `computeCacheControlValue()`: sorted, and `private` unless public, private or s-maxage. */
function cacheControlValue(directives: ReadonlyMap<string, string | true>): string {
  if (directives.size === 0) return CONSERVATIVE_CACHE_CONTROL;
  const text = [...directives.keys()].sort()
    .map((name) => (directives.get(name) === true ? name : `${name}=${directives.get(name)}`)).join(', ');
  if (directives.has('public') || directives.has('private') || directives.has('s-maxage')) return text;
  return `${text}, private`;
}

/**
 * Whether a shared cache may store the response (Symfony's `Response::isCacheable()`, which API
 * Platform's `AddTagsProcessor` asks before writing `Cache-Tags`): a 200 or 203 whose
 * `Cache-Control` has neither `no-store` nor `private`, and that carries an `ETag` or a
 * positive `s-maxage` or `max-age`.
 * @param status - the status (a 304 counts as the 200 it revalidates)
 */
export function isCacheable(status: number, cacheControl: string, hasEtag: boolean): boolean {
  if (status !== 200 && status !== 203 && status !== 304) return false;
  const directives = new Map<string, string>();
  for (const part of cacheControl.split(',')) {
    const [name, value = ''] = part.trim().toLowerCase().split('=', 2);
    if (name !== '' && !directives.has(name)) directives.set(name, value.replace(/^"|"$/g, ''));
  }
  if (directives.has('no-store') || directives.has('private')) return false;
  if (hasEtag) return true;
  const ttl = Number(directives.get('s-maxage') ?? directives.get('max-age') ?? '0');
  return Number.isFinite(ttl) && ttl > 0;
}
