import { InvalidQueryError } from '../http/ApiErrors';

/** One `name=value` pair of a query string, decoded, with its bracket part split off. */
export interface QueryPair {
  /** The whole decoded name, e.g. `order[title]`. */
  readonly name: string;
  /** The name before `[`, e.g. `order`. */
  readonly base: string;
  /** What is between the brackets (`''` for `name[]`), or undefined without brackets. */
  readonly key?: string;
  readonly value: string;
}

/** Longest query string read, in characters; longer is a 400 (URLs are bounded by the server anyway). */
export const MAX_QUERY_LENGTH = 8192;

/**
 * The 400 for a NUL character (`%00`) in a query parameter's name or value. PostgreSQL's text
 * cannot hold one (`invalid byte sequence for encoding "UTF8": 0x00`, a 500) and SQLite's `LIKE`
 * stops at it (`title=%00` matched every row): it is refused before any store sees it, so every
 * store answers alike.
 */
export const NUL_IN_QUERY = 'Malformed query string: a NUL character (%00) is not allowed.';

function decode(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    throw new InvalidQueryError('Malformed query string: an invalid percent-encoding.');
  }
  if (decoded.includes('\u0000')) throw new InvalidQueryError(NUL_IN_QUERY);
  return decoded;
}

/**
 * Splits a raw query string (`a=1&order[title]=asc`, no leading `?`) into decoded pairs, as
 * PHP reads `name[key]=value` (API Platform's filters read `$request->query`): `+` is a space;
 * a pair without `=` has the value `''`; empty pairs (`&&`) are skipped.
 * @param strict - false: a pair with a malformed percent-encoding or an unbalanced or nested
 *   bracket is left out instead (API Platform ignores what its filters cannot read)
 * @throws InvalidQueryError (400) for a malformed percent-encoding, a name with unbalanced or
 *   nested brackets (strict only), a NUL character ({@link NUL_IN_QUERY}), or a query string over
 *   {@link MAX_QUERY_LENGTH} characters
 */
export function parseQueryString(raw: string, strict = true): QueryPair[] {
  if (raw.length > MAX_QUERY_LENGTH) {
    throw new InvalidQueryError(`The query string is longer than ${MAX_QUERY_LENGTH} characters.`);
  }
  const pairs: QueryPair[] = [];
  for (const part of raw.split('&')) {
    if (part === '') continue;
    try {
      const eq = part.indexOf('=');
      const name = decode(eq === -1 ? part : part.slice(0, eq));
      const value = eq === -1 ? '' : decode(part.slice(eq + 1));
      const m = /^([^[\]]+)(?:\[([^[\]]*)\])?$/.exec(name);
      if (m === null) throw new InvalidQueryError(`Unknown query parameter "${name.slice(0, 100)}".`);
      pairs.push(m[2] === undefined ? { name, base: m[1], value } : { name, base: m[1], key: m[2], value });
    } catch (e) {
      // a NUL is refused in every mode: no store may see one
      if (strict || (e as Error).message === NUL_IN_QUERY) throw e;
    }
  }
  return pairs;
}
