import type { Request } from 'express';
import type { StoredItem } from '../state/types';

/**
 * Entity tags of items (RFC 9110 §8.8.3) and the conditional requests that use them (§13.1):
 * a strong tag `"<id>-<version>"`, changed by every write of the item.
 * @module
 */

/** The item's strong ETag, e.g. `"3-2"` (id 3, version 2). */
export function etagOf(item: StoredItem): string {
  return `"${item.id}-${item.version}"`;
}

/** The tags of an `If-Match` / `If-None-Match` value; `['*']` for `*`; undefined when absent. */
export function parseTagList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '*') return ['*'];
  return value.match(/(W\/)?"[^"]*"/g) ?? [];
}

/**
 * `If-None-Match` (§13.1.2, weak comparison): true when the client's copy is current, so a GET
 * answers 304.
 */
export function notModified(req: Request, etag: string): boolean {
  const tags = parseTagList(req.headers['if-none-match']);
  if (tags === undefined) return false;
  const opaque = (t: string): string => t.replace(/^W\//, '');
  return tags.includes('*') || tags.some((t) => opaque(t) === opaque(etag));
}

/**
 * `If-Match` (§13.1.1, strong comparison): undefined when absent; else whether the stored item
 * is the one the client names (a weak tag never matches).
 */
export function ifMatch(req: Request, etag: string): boolean | undefined {
  const tags = parseTagList(req.headers['if-match']);
  if (tags === undefined) return undefined;
  return tags.includes('*') || tags.includes(etag);
}
