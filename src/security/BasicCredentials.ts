/** A user-id/password pair from an `Authorization: Basic` header (RFC 7617). */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** Node refuses request heads over 16 KiB by default; anything longer is not a header we read. */
const MAX_HEADER_LENGTH = 16_384;

/**
 * Parses an `Authorization` header value with the `Basic` scheme (RFC 7617 §2): the scheme name
 * in any case, spaces, base64 of `user-id ":" password` in UTF-8. The user-id ends at the first
 * colon; the password may contain colons. Never throws.
 * @param header - the header value, or anything else (then null)
 * @returns the pair, or null when the header is absent, uses another scheme, is not valid base64
 *   or UTF-8, or has no colon
 */
export function parseBasicCredentials(header: unknown): BasicCredentials | null {
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return null;
  const m = BASIC.exec(header);
  if (m === null) return null;
  const token = m[1];
  const data = token.replace(/=+$/, '');
  // a base64 text of 4n+1 characters, or with padding where none belongs, encodes no bytes
  if (data.length % 4 === 1 || (token.length !== data.length && token.length % 4 !== 0)) return null;
  let text: string;
  try {
    text = UTF8.decode(Buffer.from(data, 'base64'));
  } catch {
    return null;
  }
  const colon = text.indexOf(':');
  if (colon === -1) return null;
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
