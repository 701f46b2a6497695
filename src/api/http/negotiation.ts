import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import type { Request } from 'express';
import type { Format } from '../format/Format';
import { HTML } from '../format/FormatRegistry';
import { FormatNotSupportedError, NotAcceptableError } from './ApiErrors';

/** The media type of the documentation page (the `html` answer). */
export const HTML_TYPE = 'text/html';

/** What {@link choose} answers: a format's index in the offered list, {@link AS_HTML} or {@link NONE}. */
const AS_HTML = -1;
const NONE = -2;

/** What negotiation needs of a list of formats, computed once per list. */
interface Offer {
  /** The media types, each format's in order, then (when HTML is offered) `text/html`. */
  readonly types: readonly string[];
  readonly apiTypes: readonly string[];
  /** The format of each media type (index in the list). */
  readonly owner: ReadonlyMap<string, number>;
  /** The error-only media types (`application/problem+json`), tried when nothing else matches. */
  readonly errorTypes: readonly string[];
  /** The cache key of the list: its media types. */
  readonly key: string;
}

const OFFERS = new WeakMap<readonly Format[], Offer>();

function offerOf(formats: readonly Format[]): Offer {
  let offer = OFFERS.get(formats);
  if (offer !== undefined) return offer;
  const owner = new Map<string, number>();
  const apiTypes: string[] = [];
  const errorTypes: string[] = [];
  formats.forEach((f, i) => {
    for (const t of f.mimeTypes) if (!owner.has(t)) { owner.set(t, i); apiTypes.push(t); }
    for (const t of f.errorMimeTypes ?? []) if (!owner.has(t)) { owner.set(t, i); errorTypes.push(t); }
  });
  const key = [...apiTypes, '|', ...errorTypes].join(' ');
  offer = { types: [...apiTypes, HTML_TYPE], apiTypes, owner, errorTypes, key };
  OFFERS.set(formats, offer);
  return offer;
}

/**
 * Formats chosen, by offered types and `Accept` value (prefixed by whether HTML is offered):
 * clients send a few values, and each is negotiated once (`negotiator` parses and sorts the
 * whole header, about a microsecond and several objects). At most 256, least recently used
 * dropped first; values longer than {@link MAX_CACHED_ACCEPT} characters are negotiated every time.
 */
const NEGOTIATED = new LRUCache<string, number>({ max: 256 });
const MAX_CACHED_ACCEPT = 256;

/** The one-format list of each format (what a format suffix narrows negotiation to), the same array each time. */
const ALONE = new WeakMap<Format, readonly Format[]>();

function alone(format: Format): readonly Format[] {
  let list = ALONE.get(format);
  if (list === undefined) ALONE.set(format, list = Object.freeze([format]));
  return list;
}

/**
 * The format suffix of the path the route matched (`json` for `/api/books/1.json`: symfony's
 * `_format` route parameter, which the operations' `.{_format}` sets), or undefined without one.
 */
export function formatSuffix(req: Request): string | undefined {
  const value = (req.params as Record<string, unknown> | undefined)?._format;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The format of the response, by `Accept` (RFC 9110 §12.5.1, with `negotiator`), among the
 * formats offered (the API's, or the operation's `formats`): the first for `*∕*` or no `Accept`,
 * or `html` when the client accepts HTML and none of the formats (a browser: the documentation
 * page). A format's `errorMimeTypes` (plain JSON's `application/problem+json`) count when
 * nothing else matches.
 *
 * A format suffix in the path ({@link formatSuffix}) narrows the offer to that format (API
 * Platform 3.4's `ContentNegotiationTrait::getRequestFormat`): no `Accept` or one that accepts
 * its media types (`*∕*` too) gets it, another `Accept` is a 406; never the documentation page.
 * @param formats - the offered formats, in order of preference (the same array each time: the
 *   negotiation of a list is cached)
 * @param html - whether the documentation page may answer (GET and HEAD only)
 * @returns the format, or `'html'`
 * @throws FormatNotSupportedError (404) for a suffix that names none of the formats
 * @throws NotAcceptableError (406) when the client accepts none of them
 */
export function negotiateFormat(req: Request, formats: readonly Format[], html: boolean): Format | typeof HTML {
  const suffix = formatSuffix(req);
  if (suffix === undefined) return negotiate(req, formats, html);
  const named = formats.find((f) => f.name === suffix);
  if (named === undefined) throw new FormatNotSupportedError(suffix);
  return negotiate(req, alone(named), false);
}

function negotiate(req: Request, formats: readonly Format[], html: boolean): Format | typeof HTML {
  const accept = req.headers.accept;
  if (accept === undefined || accept.trim() === '') return formats[0];
  const offer = offerOf(formats);
  const cacheable = accept.length <= MAX_CACHED_ACCEPT;
  const key = `${html ? 'html' : 'api'} ${offer.key} ${accept}`;
  const known = cacheable ? NEGOTIATED.get(key) : undefined;
  const chosen = known ?? choose(accept, offer, html);
  if (known === undefined && cacheable) NEGOTIATED.set(key, chosen);
  if (chosen === NONE) throw new NotAcceptableError(accept, html ? offer.types : offer.apiTypes);
  return chosen === AS_HTML ? HTML : formats[chosen];
}

function choose(accept: string, offer: Offer, html: boolean): number {
  const negotiator = new Negotiator({ headers: { accept } });
  const type = negotiator.mediaType([...(html ? offer.types : offer.apiTypes)])
    ?? (offer.errorTypes.length > 0 ? negotiator.mediaType([...offer.errorTypes]) : undefined);
  if (type === undefined) return NONE;
  return type === HTML_TYPE && !offer.owner.has(type) ? AS_HTML : offer.owner.get(type) ?? NONE;
}

/**
 * The error format: the format a suffix names, whatever the `Accept` (API Platform's error
 * listener negotiates among the suffix's media types without throwing, then falls back on the
 * request format, the suffix's), else as {@link negotiateFormat}, but never throws.
 * @returns the format, `'html'`, or undefined when the client accepts none (plain problem details)
 */
export function errorFormat(req: Request, formats: readonly Format[]): Format | typeof HTML | undefined {
  const suffix = formatSuffix(req);
  const named = suffix === undefined ? undefined : formats.find((f) => f.name === suffix);
  if (named !== undefined) return named;
  try {
    return negotiate(req, formats, true);
  } catch {
    return undefined;
  }
}
