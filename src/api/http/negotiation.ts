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
  const negotiator = new Negotiator({ headers: { accept } });
  const offered = html ? OFFERED : OFFERED.slice(0, 3);
  const type = negotiator.mediaType(offered)
    ?? (negotiator.mediaType(['application/problem+json']) !== undefined ? FORMAT_TYPES.json : undefined);
  if (type === undefined) throw new NotAcceptableError(accept, offered);
  return BY_TYPE.get(type) as ApiFormat;
}

/** The error format: as {@link negotiateFormat}, but never throws (problem details when nothing fits). */
export function errorFormat(req: Request): ApiFormat {
  try {
    return negotiateFormat(req, true);
  } catch {
    return 'json';
  }
}
