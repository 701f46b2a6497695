import type { DeprecationListener, RouteCollection } from '../RouteCollection';
import type { RequestContext } from '../RequestContext';
import type { Route, RouteDefault } from '../Route';
import { compileNamed, type Token } from '../RouteCompiler';
import { InvalidParameterError, MissingMandatoryParametersError, RouteNotFoundError } from '../errors';
import { byteView, compileRegex } from '../pcre';
import { looseEquals } from './looseEquals';

/** How {@link UrlGenerator.generate} writes the URL (Symfony `UrlGeneratorInterface` constants). */
export enum ReferenceType {
  /** `http://example.com/dir/file` */
  ABSOLUTE_URL = 0,
  /** `/dir/file` */
  ABSOLUTE_PATH = 1,
  /** `../parent-file`, relative to the context's path info */
  RELATIVE_PATH = 2,
  /** `//example.com/dir/file` */
  NETWORK_PATH = 3,
}

/** A parameter value; arrays and objects of extra parameters go into the query string. */
export type ParameterValue =
  | string | number | boolean | null | undefined | ParameterValue[] | { [k: string]: ParameterValue };

/** Generates URLs from named routes (Symfony `UrlGeneratorInterface`). */
export interface UrlGeneratorInterface {
  /**
   * @param name - the route name
   * @param parameters - path and host variables; the others go into the query string
   * @param referenceType - see {@link ReferenceType} @default ReferenceType.ABSOLUTE_PATH
   * @returns the URL, percent-encoded
   * @throws RouteNotFoundError when no route has that name
   * @throws MissingMandatoryParametersError when a variable without default has no value
   * @throws InvalidParameterError when a value breaks its variable's requirement
   */
  generate(name: string, parameters?: Record<string, ParameterValue>, referenceType?: ReferenceType): string;
}

/**
 * Where the generator reports what Symfony's `UrlGenerator` logs or triggers: a value that breaks
 * a requirement (with `setStrictRequirements(false)`) and the use of a deprecated alias.
 * Pino's and Console's loggers fit (`warn(object, message)` is pino's argument order).
 */
export interface RoutingLogger {
  /** A parameter broke its requirement; `context` has `parameter`, `route`, `expected`, `given`. */
  error(context: Record<string, unknown>, message: string): void;
  /** A deprecated alias was used; `context` has `package` and `version`. */
  warn(context: Record<string, unknown>, message: string): void;
}

/** Options of {@link UrlGenerator}. */
export interface UrlGeneratorOptions {
  /** Where broken requirements (when not strict) and alias deprecations go. @default none */
  logger?: RoutingLogger;
  /**
   * The locale whose variant of a localized route is used when neither the parameters nor the
   * context give `_locale` (Symfony's `$defaultLocale`, the `kernel.default_locale`).
   * @example 'en'
   */
  defaultLocale?: string;
}

const PATH_DECODED: Record<string, string> = {
  '%2F': '/', '%252F': '%2F', '%40': '@', '%3A': ':', '%3B': ';', '%2C': ',', '%3D': '=', '%2B': '+',
  '%21': '!', '%2A': '*', '%7C': '|',
};
const QUERY_DECODED: Record<string, string> = {
  '%2F': '/', '%252F': '%2F', '%3F': '?', '%40': '@', '%3A': ':', '%21': '!', '%3B': ';', '%2C': ',', '%2A': '*',
};

function strtr(s: string, map: Record<string, string>): string {
  const keys = Object.keys(map).sort((a, b) => b.length - a.length).map((k) => k.replace(/[%]/g, '%'));
  return s.replace(new RegExp(keys.join('|'), 'g'), (k) => map[k]);
}

/**
 * The text of a parameter in a path, locale or fragment position: `String(value)` (PHP's `(string)`
 * for scalars; a list joins with ","). Nested values belong in the query string, built by buildQuery.
 */
function parameterText(value: unknown): string {
  return String(value);
}

/** PHP `rawurlencode` (RFC 3986: everything but `A-Za-z0-9-_.~` is encoded). */
export function rawUrlEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function buildQuery(params: Record<string, ParameterValue>, prefix?: string): string[] {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined) continue;
    const key = prefix === undefined ? k : `${prefix}[${k}]`;
    if (typeof v === 'object') {
      parts.push(...buildQuery(Array.isArray(v) ? Object.fromEntries(v.map((x, i) => [String(i), x])) : v, key));
    }
    else parts.push(`${rawUrlEncode(key)}=${rawUrlEncode(typeof v === 'boolean' ? (v ? '1' : '0') : String(v))}`);
  }
  return parts;
}

function relativePath(basePath: string, targetPath: string): string {
  if (basePath === targetPath) return '';
  const sourceDirs = (basePath.startsWith('/') ? basePath.slice(1) : basePath).split('/');
  const targetDirs = (targetPath.startsWith('/') ? targetPath.slice(1) : targetPath).split('/');
  sourceDirs.pop();
  const targetFile = targetDirs.pop() ?? '';
  let common = 0;
  while (common < sourceDirs.length && common < targetDirs.length && sourceDirs[common] === targetDirs[common]) {
    common++;
  }
  const path = '../'.repeat(sourceDirs.length - common) + [...targetDirs.slice(common), targetFile].join('/');
  const colon = path.indexOf(':');
  const slash = path.indexOf('/');
  return path === '' || path[0] === '/' || (colon !== -1 && (slash === -1 || colon < slash)) ? `./${path}` : path;
}

/**
 * Generates URLs for the named routes of a collection (Symfony `UrlGenerator`): variables are
 * checked against their requirements (case-insensitively, as Symfony does), trailing optional
 * variables equal to their default are left out, extra parameters become the query string
 * (`_fragment` the fragment), and `.`/`..` segments are encoded so a browser keeps them.
 */
export class UrlGenerator implements UrlGeneratorInterface {
  private readonly requirementCache = new Map<string, RegExp>();
  private strictRequirements: boolean | null = true;
  private readonly logger: RoutingLogger | undefined;
  private readonly defaultLocale: string | undefined;

  /**
   * @param routes - the routing table
   * @param context - scheme, host, ports, base URL and parameters used for URLs; may be changed
   *   between calls through {@link UrlGenerator.context}
   * @param options - see {@link UrlGeneratorOptions}
   * @throws InvalidRouteError naming the first route that does not compile: every route is
   *   compiled here, as Symfony's router compiles them for its generator
   */
  constructor(
    private readonly routes: RouteCollection, public context: RequestContext, options: UrlGeneratorOptions = {},
  ) {
    this.logger = options.logger;
    this.defaultLocale = options.defaultLocale;
    for (const [name, route] of routes.all()) compileNamed(name, route);
  }

  /**
   * What a value that breaks its variable's requirement does (Symfony `setStrictRequirements`):
   * `true` throws {@link InvalidParameterError} (the default), `false` logs an error and makes
   * `generate` return `''` (as Symfony's code does), `null` skips the check.
   */
  setStrictRequirements(enabled: boolean | null): void {
    this.strictRequirements = enabled;
  }

  /** The current mode (Symfony `isStrictRequirements`). */
  isStrictRequirements(): boolean | null {
    return this.strictRequirements;
  }

  /**
   * Finds the route: for a localized route (`name.{locale}` with `_canonical_route` = name), the
   * variant of `_locale` from the parameters, else the context, else the default locale, trying
   * `fr_CA`, then `fr`; otherwise the route or alias called `name`.
   */
  private find(name: string, parameters: Record<string, ParameterValue>): Route | undefined {
    const fromParams = parameters._locale;
    let locale = fromParams !== undefined && fromParams !== null ? parameterText(fromParams) : undefined;
    if (locale === undefined) {
      const fromContext = this.context.parameters._locale;
      const usable = fromContext !== undefined && fromContext !== null && fromContext !== '';
      locale = usable ? parameterText(fromContext) : this.defaultLocale;
    }
    const logger = this.logger;
    const onDeprecation: DeprecationListener | undefined = logger === undefined
      ? undefined : (d) => { logger.warn({ package: d.package, version: d.version }, d.message); };
    // Symfony: `fr_CA` then `fr` (the text before the first `_`).
    for (let l = locale; l !== undefined; l = l.includes('_') ? l.slice(0, l.indexOf('_')) : undefined) {
      const variant = this.routes.get(`${name}.${l}`, onDeprecation);
      if (variant !== undefined && variant.defaults._canonical_route === name) return variant;
    }
    return this.routes.get(name, onDeprecation);
  }

  /** @inheritdoc */
  generate(
    name: string,
    parameters: Record<string, ParameterValue> = {},
    referenceType: ReferenceType = ReferenceType.ABSOLUTE_PATH,
  ): string {
    const route = this.find(name, parameters);
    if (route === undefined) throw new RouteNotFoundError(name);
    const compiled = route.compile();
    const defaults = route.defaults;
    if (defaults._canonical_route !== undefined && defaults._locale !== undefined && defaults._locale !== null) {
      if (!compiled.variables.includes('_locale')) {
        parameters = { ...parameters };
        delete parameters._locale;
      } else if (parameters._locale === undefined || parameters._locale === null) {
        parameters = { ...parameters, _locale: defaults._locale };
      }
    }
    const contextParameters = this.context.parameters as Record<string, ParameterValue>;
    const merged: Record<string, ParameterValue> = { ...defaults, ...contextParameters, ...parameters };
    const missing = compiled.variables.filter((v) => !(v in merged));
    if (missing.length > 0) throw new MissingMandatoryParametersError(name, missing);

    let url = this.render(compiled.tokens, merged, defaults, name, true, compiled.utf8);
    if (url === null) return '';
    if (url === '') url = '/';
    url = strtr(rawUrlEncode(url), PATH_DECODED);
    url = url.replace(/\/\.\.\//g, '/%2E%2E/').replace(/\/\.\//g, '/%2E/');
    if (url.endsWith('/..')) url = url.slice(0, -2) + '%2E%2E';
    else if (url.endsWith('/.')) url = url.slice(0, -1) + '%2E';

    let scheme = this.context.scheme;
    let host = this.context.host;
    let type = referenceType;
    if (route.schemes.length > 0 && !route.schemes.includes(scheme)) {
      type = ReferenceType.ABSOLUTE_URL;
      scheme = route.schemes[0];
    }
    if (compiled.hostTokens.length > 0) {
      // Symfony keeps the host's case and compares it with the context's (lower-cased) host as is.
      const routeHost = this.render(compiled.hostTokens, merged, defaults, name, false, compiled.utf8);
      if (routeHost === null) return '';
      if (routeHost !== host) {
        host = routeHost;
        if (type !== ReferenceType.ABSOLUTE_URL) type = ReferenceType.NETWORK_PATH;
      }
    }
    let schemeAuthority = '';
    if ((type === ReferenceType.ABSOLUTE_URL || type === ReferenceType.NETWORK_PATH)
      && (host !== '' || (scheme !== '' && scheme !== 'http' && scheme !== 'https'))) {
      let port = '';
      if (scheme === 'http' && this.context.httpPort !== 80) port = `:${this.context.httpPort}`;
      else if (scheme === 'https' && this.context.httpsPort !== 443) port = `:${this.context.httpsPort}`;
      schemeAuthority = (type === ReferenceType.NETWORK_PATH || scheme === '' ? '//' : `${scheme}://`) + host + port;
    }
    url = type === ReferenceType.RELATIVE_PATH
      ? relativePath(this.context.pathInfo, url)
      : schemeAuthority + this.context.baseUrl + url;

    // Symfony: array_udiff_assoc(extra, defaults, fn ($a, $b) => $a == $b ? 0 : 1)
    const extra: Record<string, ParameterValue> = {};
    for (const [k, v] of Object.entries(parameters)) {
      if (compiled.variables.includes(k)) continue;
      if (k in defaults && looseEquals(v, defaults[k])) continue;
      extra[k] = v;
    }
    let fragment = typeof defaults._fragment === 'string' ? defaults._fragment : '';
    if (extra._fragment !== undefined) {
      fragment = parameterText(extra._fragment);
      delete extra._fragment;
    }
    const query = buildQuery(extra).join('&');
    if (query !== '') url += '?' + strtr(query, QUERY_DECODED);
    if (fragment !== '') url += '#' + strtr(rawUrlEncode(fragment), QUERY_DECODED);
    return url;
  }

  /** @returns the text, or null when a value broke its requirement and the mode is not strict */
  private render(
    tokens: readonly Token[], merged: Record<string, ParameterValue>, defaults: Record<string, RouteDefault>,
    name: string, optionalTail: boolean, utf8: boolean,
  ): string | null {
    let url = '';
    let optional = optionalTail;
    for (let i = tokens.length - 1; i >= 0; i--) {
      const token = tokens[i];
      if (token.kind === 'text') {
        url = token.text + url;
        optional = false;
        continue;
      }
      const value = merged[token.name];
      const hasDefault = token.name in defaults;
      if (
        !optional || token.important || !hasDefault
        || (value !== null && value !== undefined && parameterText(value) !== parameterText(defaults[token.name]))
      ) {
        const given = value === null || value === undefined ? '' : parameterText(value);
        const broken = this.strictRequirements !== null
          && !this.requirement(token.regex, utf8).test(utf8 ? given : byteView(given));
        if (broken) {
          const error = new InvalidParameterError(token.name, name, token.regex, given);
          if (this.strictRequirements) throw error;
          this.logger?.error({ parameter: token.name, route: name, expected: token.regex, given }, error.message);
          return null;
        }
        url = token.separator + given + url;
        optional = false;
      }
    }
    return url;
  }

  private requirement(source: string, utf8: boolean): RegExp {
    const key = utf8 ? source : `b:${source}`;
    let re = this.requirementCache.get(key);
    if (re === undefined) {
      const stripped = source.replace(/\(\?(?:=|<=|!|<!)(?:[^()\\]+|\\.|\([^()]*\))*\)/g, '');
      const compiled = compileRegex(`^(?:${stripped})$`, 'i', utf8);
      re = compiled instanceof Error ? /^/ : compiled;
      this.requirementCache.set(key, re);
    }
    return re;
  }
}
