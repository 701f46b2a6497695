import type { Request, Response, NextFunction } from 'express';
import { compileRoute, type CompiledRoute } from './RouteCompiler';
import { InvalidRouteError } from './errors';
import { pregQuote } from './pcre';

/**
 * A controller: an Express handler that receives the matched route's parameters on
 * `req.params` (merged with the route defaults) and answers the request.
 */
export type Controller = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * An extra match condition (Symfony's `condition`, here a function instead of an expression).
 * @param context - the request context the matcher was given
 * @returns true when the route may match
 */
export type RouteCondition = (context: { method: string; host: string; scheme: string; pathInfo: string }) => boolean;

/**
 * A default value. Numbers are kept as strings (they end up in `req.params` like path
 * variables); booleans (`_stateless`), arrays and maps are kept as given (Symfony allows any
 * default; an array default is compared with an array query parameter as PHP's `==` when
 * generating).
 */
export type RouteDefault = string | boolean | null | RouteDefault[] | { [key: string]: RouteDefault };

/** A default as given: like {@link RouteDefault}, plus numbers, booleans and undefined (null). */
export type RouteDefaultInput =
  | string | number | boolean | null | undefined | RouteDefaultInput[] | { [key: string]: RouteDefaultInput };

/** What a route is made of, besides its path. All fields are optional. */
export interface RouteOptions {
  /** Default parameter values. A path variable with a default is optional. @default {} */
  defaults?: Record<string, RouteDefaultInput>;
  /** Regular expression per variable (PCRE-like source, without anchors). @example { id: '\\d+' } */
  requirements?: Record<string, string>;
  /** Allowed methods, case-insensitive; empty means any. HEAD matches GET routes. @example ['GET', 'POST'] */
  methods?: readonly string[];
  /**
   * Host pattern, with `{var}` placeholders (inline `{var<regex>?default}` too), matched
   * case-insensitively. @example '{sub}.example.com'
   */
  host?: string;
  /** Allowed schemes; empty means any. @example ['https'] */
  schemes?: readonly string[];
  /** Extra condition evaluated after the path matched. */
  condition?: RouteCondition;
  /** The handler that answers a request matching this route. */
  controller?: Controller;
  /**
   * Per-route data: access checks and the like, and Symfony's route options, among them `utf8`
   * (same as the top-level {@link RouteOptions.utf8}).
   */
  options?: object;
  /**
   * Symfony's `utf8` route option. When true, the route matches characters (its regexes run in
   * Unicode mode) and may hold UTF-8 text and requirements. When false (Symfony 5.4's default
   * for a `Route`), it matches bytes: it is run against the UTF-8 bytes of the decoded path
   * (`.` matches one byte of `é`), and compiling it throws when its path, host or a requirement
   * holds non-ASCII text or a Unicode escape (`\\p{L}`, `\\X`, `\\x{…}`).
   * Same as `options: { utf8 }`; this one wins when both are given.
   * @default false
   */
  utf8?: boolean;
}

const INLINE = /\{(!?)(\w+)(<.*?>)?(\?[^}]*)?\}/g;

function sanitizeRequirement(key: string, regex: string): string {
  let r = regex;
  if (r.startsWith('^')) r = r.slice(1);
  else if (r.startsWith('\\A')) r = r.slice(2);
  if (r.endsWith('$') && !r.endsWith('\\$')) r = r.slice(0, -1);
  else if (r.endsWith('\\z')) r = r.slice(0, -2);
  if (r === '') throw new InvalidRouteError(key, `Routing requirement for "${key}" cannot be empty.`);
  return r;
}

function toDefault(v: RouteDefaultInput): RouteDefault {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toDefault);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toDefault(x)]));
  return String(v);
}

/**
 * Symfony `Route::extractInlineDefaultsAndRequirements`: `{name<regex>?default}` becomes
 * `{name}`, with the requirement and default written into the given records.
 */
function extractInline(
  pattern: string, defaults: Record<string, RouteDefault>, requirements: Record<string, string>,
): string {
  if (!pattern.includes('?') && !pattern.includes('<')) return pattern;
  return pattern.replace(INLINE, (_m, bang: string, name: string, req?: string, def?: string) => {
    if (def !== undefined && def.length > 0) defaults[name] = def === '?' ? null : def.slice(1);
    if (req !== undefined && req.length > 0) requirements[name] = sanitizeRequirement(name, req.slice(1, -1));
    return `{${bang}${name}}`;
  });
}

/** What {@link Route.with} may change: any route option, and the path. */
export interface RouteChanges extends RouteOptions {
  /** The new path pattern. */
  path?: string;
}

/**
 * One entry of the routing table: a path pattern with `{placeholders}`, requirements, defaults,
 * methods, host and schemes. Mirrors Symfony's `Symfony\Component\Routing\Route`, including the
 * inline syntax `{id<\d+>}` (requirement) and `{page?1}` (default), in the path and in the host.
 * A route is immutable: {@link Route.with} gives a changed copy (the collection's bulk changes
 * use it).
 *
 * @throws InvalidRouteError when an inline requirement is empty; compiling (see
 *   {@link Route.compile}) throws for the rest
 */
export class Route {
  readonly path: string;
  readonly defaults: Record<string, RouteDefault>;
  readonly requirements: Record<string, string>;
  readonly methods: readonly string[];
  readonly schemes: readonly string[];
  readonly host: string;
  readonly condition: RouteCondition | undefined;
  readonly controller: Controller | undefined;
  readonly options: Readonly<Record<string, unknown>>;
  /** Symfony's `utf8` option: match characters rather than bytes (see {@link RouteOptions.utf8}). */
  readonly utf8: boolean;
  private compiled: CompiledRoute | undefined;

  /**
   * @param path - the path pattern; a leading slash is added when missing
   * @param options - see {@link RouteOptions}
   */
  constructor(path: string, options: RouteOptions = {}) {
    const defaults: Record<string, RouteDefault> = {};
    const requirements: Record<string, string> = {};
    const cleaned = extractInline(path, defaults, requirements);
    this.path = '/' + cleaned.trim().replace(/^\/+/, '');
    for (const [k, v] of Object.entries(options.defaults ?? {})) defaults[k] = toDefault(v);
    for (const [k, v] of Object.entries(options.requirements ?? {})) requirements[k] = sanitizeRequirement(k, v);
    // Symfony sets the host after the defaults and requirements: the host's inline ones win.
    this.host = extractInline(options.host ?? '', defaults, requirements);
    this.defaults = defaults;
    this.requirements = requirements;
    this.methods = Object.freeze((options.methods ?? []).map((m) => m.toUpperCase()));
    this.schemes = Object.freeze((options.schemes ?? []).map((s) => s.toLowerCase()));
    this.condition = options.condition;
    this.controller = options.controller;
    const own = { ...(options.options ?? {}) } as Record<string, unknown>;
    if (options.utf8 !== undefined) own.utf8 = options.utf8;
    this.options = Object.freeze(own);
    this.utf8 = own.utf8 === true;
  }

  /** True when `name` has a default value (even `null`). */
  hasDefault(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.defaults, name);
  }

  /**
   * Compiles the route once and caches the result.
   * @throws InvalidRouteError
   */
  compile(): CompiledRoute {
    if (this.compiled === undefined) this.compiled = compileRoute(this);
    return this.compiled;
  }

  /**
   * True for one locale's variant of a localized route (Symfony `Route::isLocalized`): it has a
   * string `_locale` default, a `_canonical_route` default, and the requirement `_locale` equal
   * to the quoted locale (what `localizedRoutes` and the loader's per-locale prefixes and hosts
   * give it). Such a route keeps its locale (see {@link Route.with}), and compiling it writes the
   * locale into its path in place of `{_locale}` (see {@link CompiledRoute.path}).
   */
  isLocalized(): boolean {
    const locale = this.defaults._locale;
    const canonical = this.defaults._canonical_route;
    return typeof locale === 'string' && canonical !== undefined && canonical !== null
      && this.requirements._locale === pregQuote(locale);
  }

  /**
   * A copy of this route with some parts replaced (Symfony's setters, `setPath`, `setHost`,
   * `setDefaults`, …, on an immutable route). Defaults, requirements and options given here
   * replace the old ones whole; merge them yourself to add (`{ ...route.defaults, x }`).
   * A localized route (see {@link Route.isLocalized}) keeps its `_locale` default and
   * requirement when the changes give it another (Symfony's `setDefault`, `addDefaults`,
   * `setRequirement` and `addRequirements` ignore `_locale` on such a route); changes without
   * `_locale` remove it.
   * @param changes - the parts to replace
   * @returns a new route
   */
  with(changes: RouteChanges): Route {
    let { defaults, requirements } = changes;
    if ((defaults !== undefined || requirements !== undefined) && this.isLocalized()) {
      if (defaults !== undefined && defaults._locale !== undefined && defaults._locale !== null
        && Object.prototype.hasOwnProperty.call(defaults, '_locale')) {
        defaults = { ...defaults, _locale: this.defaults._locale };
      }
      if (requirements !== undefined && Object.prototype.hasOwnProperty.call(requirements, '_locale')) {
        requirements = { ...requirements, _locale: this.requirements._locale };
      }
    }
    return new Route(changes.path ?? this.path, {
      defaults: this.defaults, requirements: this.requirements, methods: this.methods, host: this.host,
      schemes: this.schemes, condition: this.condition, controller: this.controller, options: this.options,
      ...changes,
      ...(defaults === undefined ? {} : { defaults }),
      ...(requirements === undefined ? {} : { requirements }),
    });
  }

  /**
   * A copy of this route with other requirements (used by the traceable matcher to tell which
   * requirement failed).
   */
  withRequirements(requirements: Record<string, string>): Route {
    return new Route(this.path, {
      defaults: this.defaults,
      requirements,
      host: this.host,
      options: this.options,
    });
  }
}
