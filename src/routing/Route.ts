import type { Request, Response, NextFunction } from 'express';
import { compileRoute, CompiledRoute } from './RouteCompiler';
import { InvalidRouteError } from './errors';

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

/** What a route is made of, besides its path. All fields are optional. */
export interface RouteOptions {
  /** Default parameter values. A path variable with a default is optional. @default {} */
  defaults?: Record<string, string | number | null | undefined>;
  /** Regular expression per variable (PCRE-like source, without anchors). @example { id: '\\d+' } */
  requirements?: Record<string, string>;
  /** Allowed methods, case-insensitive; empty means any. HEAD matches GET routes. @example ['GET', 'POST'] */
  methods?: readonly string[];
  /** Host pattern, with `{var}` placeholders, matched case-insensitively. @example '{sub}.example.com' */
  host?: string;
  /** Allowed schemes; empty means any. @example ['https'] */
  schemes?: readonly string[];
  /** Extra condition evaluated after the path matched. */
  condition?: RouteCondition;
  /** The handler that answers a request matching this route. */
  controller?: Controller;
  /** Post-deserialization and pre-deserialization access checks and other per-route data. */
  options?: object;
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

/**
 * One entry of the routing table: a path pattern with `{placeholders}`, requirements, defaults,
 * methods, host and schemes. Mirrors Symfony's `Symfony\Component\Routing\Route`, including the
 * inline syntax `{id<\d+>}` (requirement) and `{page?1}` (default).
 *
 * @throws InvalidRouteError when the pattern cannot compile (bad or duplicate variable name, empty
 *   requirement, requirement that is not a valid regular expression).
 */
export class Route {
  readonly path: string;
  readonly defaults: Record<string, string | null>;
  readonly requirements: Record<string, string>;
  readonly methods: readonly string[];
  readonly schemes: readonly string[];
  readonly host: string;
  readonly condition: RouteCondition | undefined;
  readonly controller: Controller | undefined;
  readonly options: Readonly<Record<string, unknown>>;
  private compiled: CompiledRoute | undefined;

  /**
   * @param path - the path pattern; a leading slash is added when missing
   * @param options - see {@link RouteOptions}
   */
  constructor(path: string, options: RouteOptions = {}) {
    const defaults: Record<string, string | null> = {};
    const requirements: Record<string, string> = {};
    const cleaned = path.replace(INLINE, (_m, bang: string, name: string, req?: string, def?: string) => {
      if (def !== undefined && def.length > 0) defaults[name] = def === '?' ? null : def.slice(1);
      if (req !== undefined && req.length > 0) requirements[name] = sanitizeRequirement(name, req.slice(1, -1));
      return `{${bang}${name}}`;
    });
    this.path = '/' + cleaned.trim().replace(/^\/+/, '');
    for (const [k, v] of Object.entries(options.defaults ?? {})) defaults[k] = v === undefined || v === null ? null : String(v);
    for (const [k, v] of Object.entries(options.requirements ?? {})) requirements[k] = sanitizeRequirement(k, v);
    this.defaults = defaults;
    this.requirements = requirements;
    this.methods = Object.freeze((options.methods ?? []).map((m) => m.toUpperCase()));
    this.schemes = Object.freeze((options.schemes ?? []).map((s) => s.toLowerCase()));
    this.host = options.host ?? '';
    this.condition = options.condition;
    this.controller = options.controller;
    this.options = Object.freeze({ ...(options.options ?? {}) }) as Readonly<Record<string, unknown>>;
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
   * A copy of this route with other requirements (used by the traceable matcher to tell which
   * requirement failed).
   */
  withRequirements(requirements: Record<string, string>): Route {
    return new Route(this.path, {
      defaults: this.defaults,
      requirements,
      host: this.host,
      options: this.options as Record<string, unknown>,
    });
  }
}
