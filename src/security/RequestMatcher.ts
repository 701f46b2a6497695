import type { Request } from 'express';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { rawUrlDecode } from '../routing/rawUrlDecode';
import { stringList } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { compileRegex, pcreToJs } from '../routing/pcre';

const REGEX = 'expected a RegExp or a regular expression source such as "^/admin"';
const METHOD = 'expected an HTTP method such as "GET"';

/** A string regular expression source (PCRE-like, no delimiters) compiled, or the error. */
function compiled(source: string, flags: string): RegExp | Error {
  return compileRegex(pcreToJs(source), flags);
}

/**
 * A regular expression option: a RegExp is kept; a string is read as a PCRE-like source without
 * delimiters (as in Symfony's YAML: `^/admin`) and must compile: `not a valid regular expression: …`.
 * @param flags - flags for string sources, e.g. `i` for hosts
 */
export function regexSchema(flags: string): z.ZodUnion<readonly [z.ZodInstanceOf<RegExp>, z.ZodString]> {
  return z.union([z.instanceof(RegExp), z.string()], { error: REGEX }).superRefine((value, ctx) => {
    const error = typeof value === 'string' ? compiled(value, flags) : undefined;
    if (error instanceof Error) {
      ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${error.message}`, input: value });
    }
  });
}

/** HTTP methods, any case (letters only). */
export const methodsSchema = z.array(z.string({ error: METHOD }).regex(/^[A-Za-z]+$/, { error: METHOD }), {
  error: 'expected an array',
});

/** Client IPs, CIDRs and proxy-addr names, checked by compiling them. */
export const ipsSchema = stringList.superRefine((ips, ctx) => {
  try {
    proxyaddr.compile(ips);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR: ${(e as Error).message}`, input: ips });
  }
});

/**
 * The fields of {@link RequestMatcherOptions}, shared by firewalls (which call `path` `pattern`)
 * and access-control rules.
 */
export const requestMatcherShape = {
  /**
   * Regular expression searched (not anchored: write `^`) in the decoded path info.
   * @example '^/admin' or /^\/api\//
   */
  path: regexSchema('').optional(),
  /**
   * Regular expression searched in the host, case-insensitively when given as a string.
   * @example '^admin\\.example\\.com$'
   */
  host: regexSchema('i').optional(),
  /** Methods, any case; empty or absent means any. @example ['POST', 'PUT'] */
  methods: methodsSchema.optional(),
  /** Client IPs and CIDRs (and proxy-addr names such as `loopback`). @example ['10.0.0.0/8', '::1'] */
  ips: ipsSchema.optional(),
};

/** What firewalls and access-control rules match requests on (Symfony `RequestMatcher`). */
export type RequestMatcherOptions = z.input<z.ZodObject<typeof requestMatcherShape>>;

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
  return rawUrlDecode(raw)
    ?? raw.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
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
 * Builds the matcher of conditions {@link requestMatcherShape} already validated.
 * @param pathKey - the name of the path option (`pattern` for firewalls), for the description
 */
export function buildRequestMatcher(options: RequestMatcherOptions, pathKey = 'path'): RequestMatcher {
  const parts: string[] = [];
  const tests: Array<(f: RequestFacts) => boolean> = [];
  if (options.path !== undefined) {
    const re = options.path instanceof RegExp ? options.path : compiled(options.path, '') as RegExp;
    tests.push((f) => { re.lastIndex = 0; return re.test(f.path); });
    parts.push(`${pathKey} ${typeof options.path === 'string' ? options.path : String(re)}`);
  }
  if (options.host !== undefined) {
    const re = options.host instanceof RegExp ? options.host : compiled(options.host, 'i') as RegExp;
    tests.push((f) => { re.lastIndex = 0; return re.test(f.host); });
    parts.push(`host ${typeof options.host === 'string' ? options.host : String(re)}`);
  }
  const methods = (options.methods ?? []).map((m) => m.toUpperCase());
  if (methods.length > 0) {
    tests.push((f) => methods.includes(f.method));
    parts.push(`methods ${methods.join('|')}`);
  }
  if (options.ips !== undefined) {
    const ips = options.ips;
    const trusted = proxyaddr.compile(ips);
    tests.push((f) => f.ip !== '' && trusted(f.ip, 0));
    parts.push(`ips ${ips.join(', ')}`);
  }
  return {
    matches: (f) => tests.every((t) => t(f)),
    description: parts.length === 0 ? 'any request' : parts.join(', '),
  };
}

/**
 * Validates and compiles matching conditions once.
 * @param options - the conditions (other keys are the caller's to reject)
 * @param option - the option path to blame, e.g. `accessControl[0]`
 * @param pathKey - the name of the path option there (`pattern` for firewalls) @default 'path'
 * @throws KernelConfigError e.g. `Invalid option "accessControl[0].ips": not an IP address or CIDR…`
 */
export function compileRequestMatcher(
  options: RequestMatcherOptions, option: string, pathKey = 'path',
): RequestMatcher {
  const { path, host, methods, ips } = requestMatcherShape;
  const schema = z.object<Record<string, z.ZodType>>({ host, methods, ips, [pathKey]: path });
  const given = { host: options.host, methods: options.methods, ips: options.ips, [pathKey]: options.path };
  const parsed = parseOptions(schema, given, option) as RequestMatcherOptions & Record<string, unknown>;
  return buildRequestMatcher({ ...parsed, path: parsed[pathKey] as RegExp | string | undefined }, pathKey);
}
