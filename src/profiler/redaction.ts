/**
 * What never reaches a profile. Collectors redact when they collect, so neither the store nor any
 * page ever holds the secret (Symfony masks `_password` and `PHP_AUTH_PW`; Telescope hides
 * `authorization` and `password`). Redaction goes by name: a header, cookie, query or body field
 * whose name looks secret keeps its name and loses its value.
 */

import { parse as parseCookie } from 'cookie';

/** Text shown instead of a secret. */
export const REDACTED = '******';

/** Header names whose values never reach a profile, lower case. */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set([
  'authorization', 'proxy-authorization', 'cookie', 'set-cookie',
]);

/** Headers that carry the profiler's own token: not secrets, though their names say "token". */
const PROFILER_HEADERS: ReadonlySet<string> = new Set([
  'x-debug-token', 'x-debug-token-link', 'x-previous-debug-token',
]);

/** Headers whose value is a URL whose query may carry a secret (`?token=…`). */
const URL_HEADERS: ReadonlySet<string> = new Set(['referer', 'location', 'content-location']);

/**
 * The field names redacted by default (query parameters, body fields, session attributes, log
 * context, header names), matched case-insensitively; each pattern is documented in the README
 * ("Redaction"). Extend the list per kernel with the `profiler.redactFields` option.
 */
export const DEFAULT_SECRET_FIELDS: readonly RegExp[] = Object.freeze([
  /pass(word|wd|phrase)?/i, // password, passwd, passphrase, db_pass…
  /secret/i,
  /token/i,
  /api[-_]?key|private[-_]?key|(^|[-_])key$/i, // apiKey, private_key, access_key, key
  /credential|^creds?$/i,
  /session[-_]?id|^sid$/i,
  /csrf|^otp$|signature/i,
  /authori[sz]ation|^auth$|cookie/i,
  /^code$|^(auth|authorization|verification|otp)[-_]?code$/i, // OAuth's ?code=, one-time codes
  /credit[-_]?card|card[-_]?(number|num|no)$|^cc[-_]?(number|num)?$|^pan$/i,
  /^cvv2?$|^cvc2?$|^csc$|security[-_]?code/i,
  /^ssn$|social[-_]?security/i,
  /^pin$|pin[-_]?code/i,
]);

/** {@link DEFAULT_SECRET_FIELDS} as one pattern. */
export const SECRET_FIELD = new RegExp(DEFAULT_SECRET_FIELDS.map((re) => `(?:${re.source})`).join('|'), 'i');

/** Values that look like secrets whatever their name: JWTs, `Basic`/`Bearer` credentials, URLs with a password. */
const SECRET_VALUE = [
  /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/,
  /^(?:bearer|basic)\s+\S+/i,
  /^[a-z][a-z0-9+.-]*:\/\/[^/?#@\s]*:[^/?#@\s]*@/i,
];

/** 13 to 19 digits, optionally grouped by spaces or dashes: the shape of a payment card number. */
const CARD_NUMBER = /(?<![\d.])\d(?:[ -]?\d){12,18}(?![\d.])/g;

/** Whether digits pass the Luhn check (ISO/IEC 7812), as every payment card number does. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, '');
  return digits.length >= 13 && digits.length <= 19 && /^\d+$/.test(digits) && passesLuhn(digits);
}

/** A URL's userinfo password, anywhere in a text: `redis://u:pw@h` → `redis://u:******@h`. */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/[^/?#@\s:"'<>]*):[^/?#@\s"'<>]*@/gi;
/** `Bearer`/`Basic` credentials inside a text. */
const CREDENTIALS_IN_TEXT = /\b(bearer|basic)\s+[\w~+/.=-]{6,}/gi;

const MAX_DEPTH = 8;
const MAX_ITEMS = 200;

/** Whether a name looks like it names a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_FIELD.test(name);
}

/**
 * Whether a value looks like a secret whatever its name: a JWT, `Bearer …`, a URL with a password
 * (`redis://u:pw@host`), a payment card number (13–19 digits passing the Luhn check, as a string
 * or a number).
 */
export function isSecretValue(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && isCardNumber(String(value));
  if (typeof value !== 'string') return false;
  const trimmed = value.trim();
  return SECRET_VALUE.some((re) => re.test(trimmed)) || isCardNumber(trimmed);
}

/**
 * A JSON-safe copy of a value with every field whose name looks secret replaced by
 * {@link REDACTED}, at any depth (8 levels and 200 entries per level at most), except booleans,
 * which hold no secret (`csrfProtection: true`, `requireToken: false` show as they are). Functions
 * become `[function name]`; values that look like credentials are redacted whatever their name.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'symbol' || value === undefined) return null;
  if (isSecretValue(value)) return REDACTED;
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[array]' : '[object]';
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => redact(v, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return `[${value.length} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, MAX_ITEMS)) {
    out[k] = isSecretName(k) && typeof v !== 'boolean' ? REDACTED : redact(v, depth + 1);
  }
  return out;
}

const NAME_VALUE = /(^|[?&;\s"'(])([A-Za-z0-9_.[\]%-]+)=([^&;\s"'<>)#]*)/g;

function decoded(text: string): string {
  try { return decodeURIComponent(text.replace(/\+/g, ' ')); } catch { return text; }
}

/**
 * Free text (an error message, a log message, a URL) with secrets redacted: the values of
 * secret-looking `name=value` pairs and of pairs whose (percent-decoded) value looks secret, as
 * they appear in URLs and forms (`(from "http://a/?token=x")` → `(from "http://a/?token=******")`),
 * URL passwords, `Bearer`/`Basic` credentials and card numbers passing the Luhn check.
 * @param names - the secret field names (default {@link SECRET_FIELD})
 */
export function redactText(text: string, names: RegExp = SECRET_FIELD): string {
  let out = text;
  if (out.includes('=')) {
    out = out.replace(NAME_VALUE, (all, before: string, name: string, value: string) => {
      const plain = decoded(value);
      const secret = names.test(decoded(name)) || isSecretValue(plain) || USERINFO.test(plain);
      USERINFO.lastIndex = 0;
      return secret ? `${before}${name}=${REDACTED}` : all;
    });
  }
  if (out.includes('@')) out = out.replace(USERINFO, `$1:${REDACTED}@`);
  if (/bearer|basic/i.test(out)) out = out.replace(CREDENTIALS_IN_TEXT, `$1 ${REDACTED}`);
  if (/\d{4}/.test(out)) out = out.replace(CARD_NUMBER, (m) => (isCardNumber(m) ? REDACTED : m));
  return out;
}

/**
 * A URL with the values of its secret-looking query parameters and any userinfo password
 * replaced: `/cb?token=abc&x=1` → `/cb?token=******&x=1`. Works on absolute and relative URLs
 * and keeps everything else byte for byte (no re-encoding).
 */
export function redactUrl(url: string): string {
  return redactText(url);
}

/** Names of the cookies a `Cookie` header sends (as the `cookie` package parses it), each with its value redacted. */
export function redactCookieHeader(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (header === undefined) return out;
  for (const name of Object.keys(parseCookie(header))) out[name] = REDACTED;
  return out;
}

/** A `Set-Cookie` value with its cookie value redacted and its attributes kept: `sid=******; Path=/; HttpOnly`. */
export function redactSetCookie(value: string): string {
  const semi = value.indexOf(';');
  const pair = semi < 0 ? value : value.slice(0, semi);
  const eq = pair.indexOf('=');
  const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
  return `${name}=${REDACTED}${semi < 0 ? '' : value.slice(semi)}`;
}

/**
 * Header name and value pairs that {@link redactHeader} returned unchanged, by name then value, at
 * most {@link CLEAN_PAIRS_MAX} pairs (then emptied and filled again): most headers repeat from
 * request to request (`Host`, `Accept`, `User-Agent`, the security headers of every response), and
 * only pairs that hold no secret are kept, so the cache never holds one. Two levels rather than one
 * key per pair: the values of the headers the kernel sets are the same string objects on every
 * response, whose hashes V8 keeps, where a `name + value` key was a new string to hash each time
 * (a debug-on 404's request and response headers: 5.6 → 3.3 µs; docs/benchmarks/not-found.md).
 */
// redacting a typical header: 1.6 µs, 0.4 µs remembered (`npm run bench -- tricks --cases=redaction`)
const CLEAN_HEADERS = new Map<string, Set<string>>();
const CLEAN_PAIRS_MAX = 1024;
let cleanPairs = 0;

function isKnownClean(name: string, value: string): boolean {
  return CLEAN_HEADERS.get(name)?.has(value) === true;
}

function rememberClean(name: string, value: string): void {
  if (cleanPairs >= CLEAN_PAIRS_MAX) {
    CLEAN_HEADERS.clear();
    cleanPairs = 0;
  }
  let values = CLEAN_HEADERS.get(name);
  if (values === undefined) CLEAN_HEADERS.set(name, (values = new Set()));
  values.add(value);
  cleanPairs++;
}

/** Longer values are redacted every time rather than remembered (characters). */
const CLEAN_VALUE_MAX_LENGTH = 512;

/**
 * One header value as a profile shows it: credentials, cookies and secret-looking headers
 * redacted whole; secret-looking `name=value` pairs (URL queries) redacted in the others.
 * @param name - the header name, any case
 * @param value - one value
 * @returns the value as stored, e.g. `******` for `Authorization`
 */
export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  // the headers of one response only (a new token, the error's message): never remembered, their
  // pairs would push the repeating ones out of the cache
  if (PROFILER_HEADERS.has(lower)) return value;
  if (lower === 'x-debug-exception') return redactDebugException(value);
  if (isKnownClean(name, value)) return value;
  const shown = redactHeaderValue(lower, value);
  if (shown === value && value.length <= CLEAN_VALUE_MAX_LENGTH) rememberClean(name, value);
  return shown;
}

/** `X-Debug-Exception`: the URL-encoded message of the error, redacted as text. */
function redactDebugException(value: string): string {
  if (isSecretValue(value)) return REDACTED;
  let decoded = value;
  try { decoded = decodeURIComponent(value); } catch { /* not encoded */ }
  const redacted = redactText(decoded);
  return redacted === decoded ? value : encodeURIComponent(redacted);
}

function redactHeaderValue(lower: string, value: string): string {
  if (lower === 'set-cookie') return redactSetCookie(value);
  if (REDACTED_HEADERS.has(lower) || isSecretName(lower) || isSecretValue(value)) return REDACTED;
  if (URL_HEADERS.has(lower)) return redactUrl(value);
  return redactText(value);
}

/**
 * A header map as a profile shows it (see {@link redactHeader}); lists are joined with `, `,
 * `Set-Cookie` with newlines.
 * @param headers - `req.headers` or `res.getHeaders()`
 * @returns a new map, the same names, every value a string
 */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(headers)) {
    const v = headers[k];
    if (v === undefined) continue;
    if (Array.isArray(v)) {
      out[k] = v.map((x) => redactHeader(k, x)).join(k.toLowerCase() === 'set-cookie' ? '\n' : ', ');
    }
    else out[k] = redactHeader(k, typeof v === 'string' ? v : String(v));
  }
  return out;
}

/**
 * A request body as a profile shows it: parsed bodies (objects) by field name; a string body is
 * read as JSON or as a form when it parses as one, else kept (first 4096 characters).
 */
export function redactBody(body: unknown): unknown {
  if (typeof body !== 'string') return redact(body ?? null);
  const text = body.trim();
  if (text.startsWith('{') || text.startsWith('[')) {
    try { return redact(JSON.parse(text)); } catch { /* not JSON */ }
  }
  if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(text)) return redactText(text);
  return redactText(body.length > 4096 ? `${body.slice(0, 4096)}…` : body);
}

/**
 * Builds the pattern of extra secret field names (the `profiler.redactFields` option): each name
 * matches a field, query parameter or header of that name, case-insensitively.
 * @param names - e.g. `['iban', 'tax_id']`
 * @returns null when there are none
 */
export function extraSecretFields(names: readonly string[]): RegExp | null {
  if (names.length === 0) return null;
  return new RegExp(`^(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`, 'i');
}

/**
 * A collected value with the extra secret names redacted too: fields so named at any depth, and
 * `name=value` pairs in its strings. Used by the profiler after the collectors ran, so every
 * collector honours the application's own secret names.
 * @param value - JSON-safe collected data
 * @param names - from {@link extraSecretFields}
 */
export function redactNamed(value: unknown, names: RegExp, depth = 0): unknown {
  if (typeof value === 'string') return value.includes('=') ? redactText(value, names) : value;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH + 4) return value;
  if (Array.isArray(value)) return value.map((v) => redactNamed(v, names, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = names.test(k) ? REDACTED : redactNamed(v, names, depth + 1);
  }
  return out;
}
