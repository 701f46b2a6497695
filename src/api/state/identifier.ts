import { randomBytes } from 'node:crypto';

/**
 * Item identifiers (API Platform's `identifier` property): what type an item's id has, how it is
 * read from a URL or an IRI segment, and how a store makes a new one. Three types:
 *
 * - `integer` (the default): chosen by the store (an auto-increment, from 1, never reused);
 * - `uuid`: chosen by the store (a UUID version 7, RFC 9562 §5.7) unless the client sends one;
 *   written in lower case (`0193a7b2-…`), read in either case as Ramsey's and Symfony's Uuid do;
 * - `string`: chosen by the client (an ISBN, a slug), checked by the resource's schema for it.
 *
 * Version 7 rather than 4: its first 48 bits are the creation time in milliseconds, so new ids
 * sort after old ones (pages ordered by `id` keep creation order, as with integers) and land at
 * the right end of a B-tree index instead of a random page (PostgreSQL's `uuid` column).
 * @module
 */

/** An item's identifier: a number for `integer` resources, a string for `uuid` and `string` ones. */
export type ItemId = number | string;

/** The identifier types (see the module's documentation). */
export type IdentifierType = 'integer' | 'uuid' | 'string';

/** The identifier types, for option validation. */
export const IDENTIFIER_TYPES: readonly IdentifierType[] = ['integer', 'uuid', 'string'];

/**
 * The largest `integer` identifier: the SQL stores' `integer` column (PostgreSQL's is 32 bits; a
 * larger id in a URL names no item, a 404, rather than the database's range error).
 */
export const MAX_INTEGER_ID = 2147483647;

/** The longest `string` identifier, in characters (a URL segment; an index key in SQL). */
export const MAX_STRING_ID_LENGTH = 255;

const INTEGER = /^[1-9]\d{0,9}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The route requirement of `{id}` for each type (Symfony's regex syntax): what the router
 * matches before the operation runs; an id it refuses matches no route (a 404).
 */
export const ID_REQUIREMENTS: Readonly<Record<IdentifierType, string>> = Object.freeze({
  integer: '\\d+',
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  string: '[^/]+',
});

/**
 * An id as the type holds it, from its text (a decoded URL segment, a query value, a form field).
 * @param type - the resource's identifier type (`integer` when undefined)
 * @param raw - the text, already percent-decoded
 * @returns `integer`: the number (1 to {@link MAX_INTEGER_ID}, no leading zero); `uuid`: the UUID in lower case;
 *   `string`: the text (1 to {@link MAX_STRING_ID_LENGTH} characters, no U+0000, which PostgreSQL's
 *   text refuses, no `/`: the router decodes `%2F` before matching, as Symfony's does, so such an
 *   id could not be one path segment); null when the text cannot be one (no item has it: a 404 in a URL)
 */
export function parseItemId(type: IdentifierType | undefined, raw: string): ItemId | null {
  switch (type ?? 'integer') {
    case 'integer': return INTEGER.test(raw) && Number(raw) <= MAX_INTEGER_ID ? Number(raw) : null;
    case 'uuid': return UUID.test(raw) ? raw.toLowerCase() : null;
    case 'string': return raw !== '' && raw.length <= MAX_STRING_ID_LENGTH && !/[\0/]/.test(raw) ? raw : null;
  }
}

/** Whether `value` is an id of the type (a stored relation's value, a store's argument). */
export function isItemId(type: IdentifierType | undefined, value: unknown): value is ItemId {
  if ((type ?? 'integer') === 'integer') return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
  return typeof value === 'string' && parseItemId(type, value) === value;
}

/**
 * Ascending order of two ids, the stores' order: numbers by value, strings by UTF-16 code unit
 * (PostgreSQL compares them `COLLATE "C"`, SQLite by bytes: equal for the characters ids hold).
 */
export function compareIds(a: ItemId, b: ItemId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * A new UUID version 7 (RFC 9562 §5.7): 48 bits of Unix time in milliseconds, the version, 74
 * random bits (from `crypto.randomBytes`) and the variant, in lower case.
 * @param now - the time, in milliseconds since the epoch (for tests)
 */
export function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * A composite identifier's id (`ResourceMetadata.compositeKey`): `<key>=<value>` of each key, in
 * order, joined by `;` (`name=Bar;year=2017`). A store makes it when `create` is given no id.
 * @param keys - the parts' property names
 * @param data - the item's properties
 */
export function compositeIdText(keys: readonly string[], data: Readonly<Record<string, unknown>>): string {
  return keys.map((k) => `${k}=${String(data[k])}`).join(';');
}
