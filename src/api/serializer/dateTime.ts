/**
 * Datetimes on the wire as API Platform writes them: Symfony's `DateTimeNormalizer` with its
 * default format, RFC 3339 `Y-m-d\TH:i:sP` (`2015-03-01T10:00:00+00:00`), in JSON-LD, HAL and
 * JSON alike. Stores keep UTC with milliseconds (`2015-03-01T10:00:00.000Z`, see `PropertyKind`).
 * @module
 */

/** What a store keeps: `YYYY-MM-DDTHH:MM:SS`, milliseconds, `Z`. */
const STORED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

/**
 * A stored datetime as the API writes it: `2015-03-01T10:00:00+00:00`. A fraction of a second
 * that is not zero is kept (`2015-03-01T10:00:00.250+00:00`, still RFC 3339) where API
 * Platform's format would drop it: what a client reads is what it wrote. A value in another
 * shape (a store that keeps something else) is written as it is.
 * @param stored - the store's value, e.g. `2015-03-01T10:00:00.000Z`
 * @returns the RFC 3339 text with the `+00:00` offset
 */
export function formatDateTime(stored: string): string {
  const m = STORED.exec(stored);
  if (m === null) return stored;
  const fraction = m[2] === undefined || /^0+$/.test(m[2]) ? '' : `.${m[2]}`;
  return `${m[1]}${fraction}+00:00`;
}

/** RFC 3339 with a numeric offset (`+00:00`, `+02:00`, `-05:30`): what the API writes and reads back. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?[+-]\d{2}:\d{2}$/;

/**
 * A datetime a client sent, in the store's UTC shape when it carries a numeric offset (the
 * API's own `2015-03-01T10:00:00+00:00`, or `2015-03-01T12:00:00+02:00`): so a representation
 * the API wrote can be sent back as it is (a PUT after a GET, a merge-patch that leaves the
 * datetime alone), whatever the resource's zod schema says of offsets. Any other value is
 * returned as it is, for the schema to judge.
 * @returns `2015-03-01T10:00:00.000Z` for a valid offset datetime, else `value`
 */
export function utcDateTime(value: unknown): unknown {
  if (typeof value !== 'string' || !WITH_OFFSET.test(value)) return value;
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString();
}
