/**
 * Validation of the values trusted proxies forward (`X-Forwarded-Host`, `-Port`, `-Prefix`).
 * A trusted proxy passes on what the client sent when it does not set the header itself, so
 * these values are client input: a value that is not what the header means is refused, never
 * pasted into `Location` headers and generated URLs.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** A DNS name (RFC 1123 labels, `_` allowed as Symfony does), IPv4, or a bracketed IPv6 address. */
const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*\\.?|\\[[0-9a-f:.]+\\])$`, 'i');

/** RFC 3986 `path-abempty`: `/` then path characters, percent escapes complete. */
const PATH = /^(?:\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*)+$/;

/**
 * @param value - a port as sent, e.g. `8443`
 * @returns true for 1 to 65535 written as up to 5 digits
 */
export function isValidPort(value: string): boolean {
  if (!/^\d{1,5}$/.test(value)) return false;
  const n = Number(value);
  return n >= 1 && n <= 65535;
}

/**
 * @param value - a host without port, e.g. `example.com`, `10.0.0.1`, `[::1]`
 * @returns true for a DNS name (labels of letters, digits, `-`, `_`, none empty, at most 253
 *   characters), an IPv4 address or a bracketed IPv6 address
 */
export function isValidHost(value: string): boolean {
  if (value.length > 255 || !HOST.test(value)) return false;
  if (value.startsWith('[')) return isIPv6(value.slice(1, -1));
  // a last label that is a number makes the WHATWG URL parser read the host as IPv4 (`a.0` fails)
  const last = value.replace(/\.$/, '').split('.').pop() ?? '';
  return !/^(?:\d+|0x[0-9a-f]*)$/i.test(last) || isIPv4(value.replace(/\.$/, ''));
}

/**
 * @param value - an `X-Forwarded-Host` value: a host with an optional `:port`
 * @returns true when the host is valid ({@link isValidHost}) and the port, if any, is 1–65535
 */
export function isValidHostAndPort(value: string): boolean {
  const m = /^(.*?)(?::(\d*))?$/.exec(value);
  if (m === null) return false;
  const [, host, port] = m;
  if (host.startsWith('[') ? !host.endsWith(']') : host.includes(':')) return false;
  return isValidHost(host) && (port === undefined || isValidPort(port));
}

/**
 * @param value - an `X-Forwarded-Prefix` value, e.g. `/shop`
 * @returns true for an absolute path (RFC 3986 `path-abempty` starting with `/`); `@evil.com`,
 *   `.evil.com` or `//evil.com` are refused (they would move the host of generated URLs), and so
 *   is a dot segment (`/.`, `/a/..`, `/%2e`: RFC 3986 §5.2.4 removes it, so the generated URL's
 *   path would not start with the prefix given)
 */
export function isValidPrefix(value: string): boolean {
  return PATH.test(value) && !value.startsWith('//') && !value.split('/').some(isDotSegment);
}

/** `.` or `..`, also written `%2e` (the WHATWG URL parser's single- and double-dot segments). */
function isDotSegment(segment: string): boolean {
  return /^(?:\.|%2e){1,2}$/i.test(segment);
}
