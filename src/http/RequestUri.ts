import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import proxyaddr from 'proxy-addr';
import { BadRequestHttpError } from './errors';
import { isValidHostAndPort, isValidPort, isValidPrefix } from './forwarded';

/**
 * The parts of the request URL as Symfony's `Request` computes them: scheme, host, port, base
 * URL and raw path info, with `X-Forwarded-Proto/Host/Port/Prefix/For` honoured only when the
 * direct peer is a trusted proxy.
 */
export interface RequestUri {
  readonly scheme: 'http' | 'https';
  /** Lowercase, without port; IPv6 in brackets. */
  readonly host: string;
  readonly port: number;
  /** `scheme://host[:port]`, the port left out when it is the scheme's default. */
  readonly schemeAndHttpHost: string;
  /** Mount path (and trusted `X-Forwarded-Prefix`), raw, without trailing slash. */
  readonly baseUrl: string;
  /** The raw path as sent (no decoding, no normalisation), relative to the base URL. */
  readonly pathInfo: string;
  /** The raw query string without `?`, empty when none. */
  readonly queryString: string;
  /** The client address (the first untrusted hop). */
  readonly clientIp: string;
}

/** Decides whether a peer address is a trusted proxy: `(address, hopIndex) => boolean`. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** How many peer addresses a trust function remembers its answer for (least recently used out). */
const TRUST_CACHE_SIZE = 1024;

/**
 * @param trustedProxies - IPs, CIDRs or proxy-addr names (`loopback`, `uniquelocal`)
 * @returns a trust function (proxy-addr's, which decides by address alone, whatever the hop);
 *   it remembers its answers for the last 1024 addresses, as most requests come from a few
 *   peers. An empty list trusts nobody.
 * @throws TypeError naming the bad entry
 */
export function compileTrust(trustedProxies: readonly string[]): TrustFunction {
  if (trustedProxies.length === 0) return () => false;
  const trusts = proxyaddr.compile([...trustedProxies]);
  // proxy-addr parses the address on each call: 1.5 µs, 0.1 µs remembered (`npm run bench -- tricks --cases=trust`)
  const answers = new LRUCache<string, boolean>({ max: TRUST_CACHE_SIZE });
  return (address) => {
    let answer = answers.get(address);
    if (answer === undefined) answers.set(address, answer = trusts(address, 0));
    return answer;
  };
}

const HOST_CHARS = /(?:^\[)?[a-zA-Z0-9\-:\]_]+\.?/g;

function portOf(value: string, scheme: string): number {
  const pos = value.startsWith('[') ? value.indexOf(':', value.lastIndexOf(']')) : value.lastIndexOf(':');
  if (pos !== -1) {
    const raw = value.slice(pos + 1);
    if (raw !== '' && raw !== '0') return Number.parseInt(raw, 10) || 0;
  }
  return scheme === 'https' ? 443 : 80;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined) return undefined;
  const first = v.split(',')[0].trim();
  return first === '' ? undefined : first;
}

/** Percent-encodes bytes a client sent raw (non-ASCII, controls) and drops a fragment. */
function normaliseTarget(url: string): string {
  let target = url;
  const hash = target.indexOf('#');
  if (hash !== -1) target = target.slice(0, hash);
  if (/[^\x21-\x7e]/.test(target)) {
    target = target.replace(/[^\x21-\x7e]/g, (c) => {
      const code = c.charCodeAt(0);
      const bytes = code <= 0xff ? [code] : [...Buffer.from(c, 'utf8')];
      return bytes.map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('');
    });
  }
  return target;
}

/** Host, port and `scheme://host[:port]` of a request. */
interface Authority {
  readonly host: string;
  readonly port: number;
  readonly schemeAndHttpHost: string;
}

/**
 * The authority of a request from its Host (or trusted `X-Forwarded-Host` / `-Port`).
 * @throws BadRequestHttpError `Invalid Host "<host>".` (RFC 952/2181 characters only)
 */
function authorityOf(
  req: Request, scheme: 'http' | 'https', source: string, forwardedPort: string | undefined,
): Authority {
  let hostSource = source;
  let port: number;
  if (hostSource === '') {
    const local = req.socket?.localAddress ?? '127.0.0.1';
    hostSource = local.includes(':') ? `[${local.replace(/^::ffff:(?=\d+\.)/, '')}]` : local;
    if (hostSource.startsWith('[') && /^\[\d+\.\d+\.\d+\.\d+\]$/.test(hostSource)) hostSource = hostSource.slice(1, -1);
    port = forwardedPort !== undefined ? portOf(`0.0.0.0:${forwardedPort}`, scheme) : req.socket?.localPort ?? 80;
  } else {
    port = portOf(forwardedPort !== undefined ? `0.0.0.0:${forwardedPort}` : hostSource, scheme);
  }
  const host = hostSource.replace(/:\d+$/, '').trim().toLowerCase();
  if (host !== '' && host.replace(HOST_CHARS, '') !== '') {
    throw new BadRequestHttpError(`Invalid Host "${host}".`, {}, 'ERR_HTTP_INVALID_HOST');
  }
  const defaultPort = (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443);
  return Object.freeze({ host, port, schemeAndHttpHost: `${scheme}://${host}${defaultPort ? '' : `:${port}`}` });
}

const HEADER_NAMES: Record<string, string> = {
  'x-forwarded-host': 'X-Forwarded-Host',
  'x-forwarded-port': 'X-Forwarded-Port',
  'x-forwarded-prefix': 'X-Forwarded-Prefix',
};

/**
 * The first value of a header a trusted proxy forwarded.
 * @throws BadRequestHttpError `Invalid X-Forwarded-Port header "-1".` when `valid` refuses it
 */
function forwarded(headers: Request['headers'], name: string, valid: (value: string) => boolean): string | undefined {
  const value = firstValue(headers[name]);
  if (value !== undefined && !valid(value)) {
    const shown = value.length > 200 ? `${value.slice(0, 200)}…` : value;
    const message = `Invalid ${HEADER_NAMES[name]} header "${shown}".`;
    throw new BadRequestHttpError(message, {}, 'ERR_HTTP_INVALID_FORWARDED_HEADER');
  }
  return value;
}

/**
 * Computes the {@link RequestUri} of an Express request.
 * @param req - the request (inside a mounted kernel, `req.baseUrl` is the mount path)
 * @param trust - see {@link compileTrust}
 * @throws BadRequestHttpError `Invalid Host "<host>".` when the host has characters RFC 952/2181
 *   forbid (Symfony `Request::getHost()`)
 * @throws BadRequestHttpError `Invalid X-Forwarded-Port header "<value>".` (code
 *   `ERR_HTTP_INVALID_FORWARDED_HEADER`) when a trusted proxy forwards a host that is not a host
 *   (and optional port), a port outside 1–65535 or a prefix that is not a path starting with `/`
 */
export function resolveRequestUri(req: Request, trust: TrustFunction): RequestUri {
  const remote = req.socket?.remoteAddress ?? '';
  const trusted = remote !== '' && trust(remote, 0);
  const headers = req.headers;

  let scheme: 'http' | 'https' = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
  if (trusted) {
    const proto = firstValue(headers['x-forwarded-proto']);
    if (proto !== undefined) scheme = ['https', 'on', 'ssl', '1'].includes(proto.toLowerCase()) ? 'https' : 'http';
  }

  const forwardedHost = trusted ? forwarded(headers, 'x-forwarded-host', isValidHostAndPort) : undefined;
  const forwardedPort = trusted ? forwarded(headers, 'x-forwarded-port', isValidPort) : undefined;
  const hostHeader = typeof headers.host === 'string' ? headers.host.trim() : '';
  const { host, port, schemeAndHttpHost } = authorityOf(req, scheme, forwardedHost ?? hostHeader, forwardedPort);

  let baseUrl = req.baseUrl ?? '';
  if (trusted) {
    const prefix = forwarded(headers, 'x-forwarded-prefix', isValidPrefix);
    if (prefix !== undefined) baseUrl = prefix.replace(/\/+$/, '') + baseUrl;
  }

  let target = normaliseTarget(req.url ?? '/');
  if (!target.startsWith('/')) {
    // absolute-form request-target: keep the path and query
    const m = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?]*(.*)$/.exec(target);
    target = m === null ? '/' + target : m[1] || '/';
  }
  const q = target.indexOf('?');
  const pathInfo = (q === -1 ? target : target.slice(0, q)) || '/';
  const queryString = q === -1 ? '' : target.slice(q + 1);
  const clientIp = (trusted ? proxyaddr(req, trust) : remote).replace(/^::ffff:(?=\d+\.)/, '');
  return {
    scheme, host, port, schemeAndHttpHost, baseUrl,
    pathInfo: pathInfo.startsWith('/') ? pathInfo : '/' + pathInfo,
    queryString, clientIp,
  };
}
