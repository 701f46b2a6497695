import { LRUCache } from 'lru-cache';
import Negotiator from 'negotiator';
import type { Request } from 'express';
import { NotAcceptableError } from './ApiErrors';

/** The formats the API serves (API Platform's `formats`: jsonld, jsonhal, json) and `html` for the docs page. */
export type ApiFormat = 'jsonld' | 'hal' | 'json' | 'html';

/** Media type of each format. */
export const FORMAT_TYPES: Readonly<Record<ApiFormat, string>> = Object.freeze({
  jsonld: 'application/ld+json',
  hal: 'application/hal+json',
  json: 'application/json',
  html: 'text/html',
});

const OFFERED = [FORMAT_TYPES.jsonld, FORMAT_TYPES.hal, FORMAT_TYPES.json, FORMAT_TYPES.html];
const BY_TYPE = new Map(Object.entries(FORMAT_TYPES).map(([format, type]) => [type, format as ApiFormat]));

/** What {@link choose} answers when the client accepts none of the formats. */
const NONE = 'none';
const OFFERED_API = OFFERED.slice(0, 3);

/**
 * Formats chosen, by `Accept` value (prefixed by whether HTML is offered): clients send a few
 * values, and each is negotiated once (`negotiator` parses and sorts the whole header, about a
 * microsecond and several objects). At most 256, least recently used dropped first; values
 * longer than {@link MAX_CACHED_ACCEPT} characters are negotiated every time.
 */
const NEGOTIATED = new LRUCache<string, ApiFormat | typeof NONE>({ max: 256 });
const MAX_CACHED_ACCEPT = 256;

/**
 * The format of the response, by `Accept` (RFC 9110 §12.5.1, with `negotiator`): JSON-LD for
 * `*∕*` or no `Accept` (the first offered), HAL, plain JSON, or `html` when the client accepts
 * HTML and none of the three (a browser: the documentation page). `application/problem+json`
 * counts as plain JSON.
 * @param html - whether the documentation page may answer (GET and HEAD only)
 * @throws NotAcceptableError (406) when the client accepts none of them
 */
export function negotiateFormat(req: Request, html: boolean): ApiFormat {
  const accept = req.headers.accept;
  if (accept === undefined || accept.trim() === '') return 'jsonld';
  const cacheable = accept.length <= MAX_CACHED_ACCEPT;
  const key = `${html ? 'html' : 'api'} ${accept}`;
  const known = cacheable ? NEGOTIATED.get(key) : undefined;
  const format = known ?? choose(accept, html);
  if (known === undefined && cacheable) NEGOTIATED.set(key, format);
  if (format === NONE) throw new NotAcceptableError(accept, html ? OFFERED : OFFERED_API);
  return format;
}

function choose(accept: string, html: boolean): ApiFormat | typeof NONE {
  const negotiator = new Negotiator({ headers: { accept } });
  const type = negotiator.mediaType(html ? OFFERED : OFFERED_API)
    ?? (negotiator.mediaType(['application/problem+json']) !== undefined ? FORMAT_TYPES.json : undefined);
  return type === undefined ? NONE : BY_TYPE.get(type) as ApiFormat;
}

/** The error format: as {@link negotiateFormat}, but never throws (problem details when nothing fits). */
export function errorFormat(req: Request): ApiFormat {
  try {
    return negotiateFormat(req, true);
  } catch {
    return 'json';
  }
}
