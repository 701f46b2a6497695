import type { Request } from 'express';
import proxyaddr from 'proxy-addr';
import { rawUrlDecode } from '../routing/rawUrlDecode';
import { arrayOption, invalid, stringListOption } from '../config/optionValidation';
import { compileRegex, pcreToJs } from '../routing/pcre';

/**
 * A regular expression option: a RegExp is kept; a string is read as a PCRE-like source without
 * delimiters (as in Symfony's YAML: `^/admin`) and compiled.
 * @param flags - flags for string sources, e.g. `i` for hosts
 * @throws KernelConfigError naming the regex error
 */
function regexOption(value: unknown, option: string, flags: string): RegExp {
  if (value instanceof RegExp) return value;
  if (typeof value !== 'string') throw invalid(option, 'expected a RegExp or a regular expression source such as "^/admin"', value);
  const compiled = compileRegex(pcreToJs(value), flags);
  if (compiled instanceof Error) throw invalid(option, `not a valid regular expression: ${compiled.message}`, value);
  return compiled;
}

/** @throws KernelConfigError unless `value` is an array of HTTP method tokens; returns them uppercased */
function methodsOption(value: unknown, option: string): string[] {
  return stringListOption(value, option).map((m, i) => {
    if (!/^[A-Za-z]+$/.test(m)) throw invalid(`${option}[${i}]`, 'expected an HTTP method such as "GET"', m);
    return m.toUpperCase();
  });
}

/** What firewalls and access-control rules match requests on (Symfony `RequestMatcher`). */
export interface RequestMatcherOptions {
  /**
   * Regular expression searched (not anchored: write `^`) in the decoded path info.
   * @example '^/admin' or /^\/api\//
   */
  path?: RegExp | string;
  /** Regular expression searched in the host, case-insensitively when given as a string. @example '^admin\\.example\\.com$' */
  host?: RegExp | string;
  /** Methods, any case; empty or absent means any. @example ['POST', 'PUT'] */
  methods?: string[];
  /** Client IPs and CIDRs (and proxy-addr names such as `loopback`). @example ['10.0.0.0/8', '::1'] */
  ips?: string[];
}

/** The request as matchers see it. */
export interface RequestFacts {
  /** The path info, percent-decoded as PHP's `rawurldecode` does. */
  readonly path: string;
  readonly host: string;
  /** The effective method (`req.kernel.method`, with `X-HTTP-Method-Override`). */
  readonly method: string;
  /** The client IP (`req.kernel.uri.clientIp`: trusted proxies honoured). */
  readonly ip: string;
}

/**
 * PHP's `rawurldecode` of a raw path. Bytes that are not UTF-8 are read as Latin-1 instead of
 * failing, so `%61dmin%FF` still shows `admin` to a `^/admin` rule.
 */
export function decodedPathInfo(raw: string): string {
  return rawUrlDecode(raw) ?? raw.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** @returns the facts of a request the kernel resolved, or null when its URI was invalid */
export function requestFacts(req: Request): RequestFacts | null {
  const uri = req.kernel?.uri;
  if (uri === undefined) return null;
  return { path: decodedPathInfo(uri.pathInfo), host: uri.host, method: req.kernel!.method, ip: uri.clientIp };
}

/** A compiled {@link RequestMatcherOptions}: every given condition must hold. */
export interface RequestMatcher {
  matches(facts: RequestFacts): boolean;
  /** The conditions, for decisions and logs, e.g. `path ^/admin, methods GET|HEAD`. */
  readonly description: string;
}

/**
 * Compiles matching conditions once.
 * @param options - the conditions (unknown keys are the caller's to reject)
 * @param option - the option path to blame, e.g. `accessControl[0]`
 * @param pathKey - the name of the path option there (`pattern` for firewalls) @default 'path'
 * @throws KernelConfigError e.g. `Invalid option "accessControl[0].ips[1]": not an IP address or CIDR…`
 */
export function compileRequestMatcher(options: RequestMatcherOptions, option: string, pathKey = 'path'): RequestMatcher {
  const parts: string[] = [];
  const tests: Array<(f: RequestFacts) => boolean> = [];
  if (options.path !== undefined) {
    const re = regexOption(options.path, `${option}.${pathKey}`, '');
    tests.push((f) => { re.lastIndex = 0; return re.test(f.path); });
    parts.push(`${pathKey} ${typeof options.path === 'string' ? options.path : String(re)}`);
  }
  if (options.host !== undefined) {
    const re = regexOption(options.host, `${option}.host`, 'i');
    tests.push((f) => { re.lastIndex = 0; return re.test(f.host); });
    parts.push(`host ${typeof options.host === 'string' ? options.host : String(re)}`);
  }
  if (options.methods !== undefined) {
    const methods = methodsOption(options.methods, `${option}.methods`);
    if (methods.length > 0) {
      tests.push((f) => methods.includes(f.method));
      parts.push(`methods ${methods.join('|')}`);
    }
  }
  if (options.ips !== undefined) {
    const ips = stringListOption(arrayOption(options.ips, `${option}.ips`), `${option}.ips`);
    let trusted: (address: string, hop: number) => boolean;
    try {
      trusted = proxyaddr.compile(ips);
    } catch (e) {
      throw invalid(`${option}.ips`, `not an IP address or CIDR: ${(e as Error).message}`, ips);
    }
    tests.push((f) => f.ip !== '' && trusted(f.ip, 0));
    parts.push(`ips ${ips.join(', ')}`);
  }
  return {
    matches: (f) => tests.every((t) => t(f)),
    description: parts.length === 0 ? 'any request' : parts.join(', '),
  };
}
