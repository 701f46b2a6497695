/**
 * A query string as PHP reads and writes it (`parse_str` and `http_build_query(…,
 * PHP_QUERY_RFC3986)`), which is how API Platform's `IriHelper` rebuilds the links of a
 * collection's view from the request's query: every parameter the client sent is kept (unknown
 * ones too), in the order PHP's array holds them (a repeated plain name keeps its first place and
 * its last value), `page` taken out, names and values percent-encoded as `rawurlencode` does
 * (brackets as `%5B` `%5D`, a space as `%20`), list indexes written `%5B%5D` as API Platform
 * 3.4 collapses them.
 * @module
 */

import { rawUrlEncode } from '../../routing/generator/UrlGenerator';

type Value = string | Array<{ key: string | null; value: string }>;

/** The parameters of a query string, as PHP's array of them. */
export type PhpParameters = Map<string, Value>;

function decode(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * Reads a raw query string (without `?`) as PHP does; pairs it cannot read (a malformed
 * percent-encoding, a name that starts with `[`) are left out.
 * @param without - names left out (e.g. `page`)
 */
export function parsePhpQuery(raw: string, without: readonly string[] = []): PhpParameters {
  const params: PhpParameters = new Map();
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decode(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decode(part.slice(eq + 1));
    if (name === undefined || value === undefined) continue;
    const m = /^([^[]+)(?:\[([^\]]*)\])?/.exec(name);
    if (m === null) continue;
    const base = m[1];
    if (without.includes(base)) continue;
    if (m[2] === undefined) {
      params.set(base, value); // a Map keeps the key's first place, as PHP's array does
      continue;
    }
    const current = params.get(base);
    const list = Array.isArray(current) ? current : [];
    if (!Array.isArray(current)) params.set(base, list);
    const key = m[2] === '' ? null : m[2];
    const known = key === null ? -1 : list.findIndex((e) => e.key === key);
    if (known >= 0) list[known] = { key, value };
    else list.push({ key, value });
  }
  return params;
}

/**
 * Writes parameters back (`http_build_query` with RFC 3986 encoding), numeric and pushed list
 * indexes as `%5B%5D`, then `extra` (e.g. `page=2`) at the end.
 */
export function formatPhpQuery(params: PhpParameters, extra: ReadonlyArray<[string, string]> = []): string {
  const parts: string[] = [];
  for (const [name, value] of params) {
    const k = rawUrlEncode(name);
    if (typeof value === 'string') {
      parts.push(`${k}=${rawUrlEncode(value)}`);
      continue;
    }
    for (const e of value) {
      const sub = e.key === null || /^\d+$/.test(e.key) ? '' : rawUrlEncode(e.key);
      parts.push(`${k}%5B${sub}%5D=${rawUrlEncode(e.value)}`);
    }
  }
  for (const [k, v] of extra) parts.push(`${rawUrlEncode(k)}=${rawUrlEncode(v)}`);
  return parts.join('&');
}
