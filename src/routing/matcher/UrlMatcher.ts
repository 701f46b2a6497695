import type { Route } from '../Route';
import type { RouteCollection } from '../RouteCollection';
import { compileNamed, type CompiledRoute } from '../RouteCompiler';
import { MethodNotAllowedError, NoConfigurationError, ResourceNotFoundError } from '../errors';
import { byteView, fromByteView } from '../pcre';
import { rawUrlDecode, rtrimSlashes } from '../rawUrlDecode';
import { RouteIndex } from './RouteIndex';
import type { MatchContext, MatchFailure, MatchResult, UrlMatcherInterface } from './UrlMatcherInterface';

/** Options of {@link UrlMatcher}. */
export interface UrlMatcherOptions {
  /**
   * Answer trailing-slash and scheme mismatches of GET/HEAD requests with a redirect, as
   * Symfony's `RedirectableUrlMatcher`. When false, they are plain misses.
   * @default true
   */
  redirectable?: boolean;
}

interface Entry {
  readonly name: string;
  readonly route: Route;
  readonly compiled: CompiledRoute;
  readonly methods: readonly string[];
  /**
   * What a method mismatch on this route adds to the allow list: `methods` without duplicates,
   * frozen. A 405 on one route (the usual case) returns this very list: no allocation per request,
   * and the errors built from it keep it and cache its joined text.
   */
  readonly allowList: readonly string[];
  readonly schemes: readonly string[];
  readonly hostLiteral: string | null;
  /**
   * The path regex as a dynamic route: `compiled.matchRegex`, except for `/`, which Symfony's
   * combined regex gives a `/?` too (a dynamic `/` route matches `//`).
   */
  readonly regex: RegExp;
  /** The route has defaults (the result starts from a copy of them). */
  readonly hasDefaults: boolean;
  /**
   * Not `utf8` and the regexes may tell bytes from characters: they run on the path's bytes
   * (its latin1 view), as PHP's without the `u` modifier (see `CompiledRoute.matchesBytes`).
   */
  readonly bytes: boolean;
}

const DYNAMIC_ROOT = /^\/\/?$/;

const NO_MATCH = null;
/** Shared empty list: allow lists are allocated only when a second route adds to them. */
const NONE: readonly string[] = Object.freeze([]);

/**
 * The routing table's matcher. It follows Symfony 5.4's compiled matcher
 * (`CompiledUrlMatcherTrait` + `RedirectableUrlMatcher`) exactly:
 * - the path is raw-url-decoded before matching; matching is case-sensitive;
 * - routes without path variables are looked up by their path with trailing slashes trimmed,
 *   then the others are tried in declaration order (a static route declared after a dynamic
 *   route that matches it is tried as a dynamic one, so the first declared route always wins);
 * - HEAD matches GET routes;
 * - a method mismatch collects the route's declared methods (no HEAD added);
 * - a trailing-slash mismatch on GET/HEAD stops the scan and redirects to the toggled path,
 *   unless a method mismatch was collected (405 wins); other methods get a 404;
 * - the effects of Symfony matching the dynamic routes with one combined regex: a dynamic `/`
 *   route also matches `//`, and the re-check of a route ending in a variable against the path
 *   without its trailing slashes fails when an earlier route (one that did not match the path
 *   itself) matches that trimmed path.
 *
 * Dynamic routes are found through a {@link RouteIndex}, so a miss does not scan the table.
 */
export class UrlMatcher implements UrlMatcherInterface {
  private readonly staticRoutes = new Map<string, Entry[]>();
  private readonly dynamicRoutes: Entry[] = [];
  private readonly index = new RouteIndex();
  /** Candidates of the trailing-variable re-check (the scan's own stay in the index's buffer). */
  private readonly recheckCandidates: number[] = [];
  private readonly redirectable: boolean;
  private allow: readonly string[] = NONE;
  private allowSchemes: readonly string[] = NONE;
  /** Whether the last doMatch found a static bucket or index candidates for its path. */
  private sawCandidates = false;
  private noConfiguration = false;
  /** Some dynamic route matches bytes: non-ASCII paths are also seen as bytes. */
  private hasByteRoutes = false;
  /** Candidates from the byte view of a non-ASCII path, merged into the character view's. */
  private readonly byteCandidates: number[] = [];

  /**
   * @param routes - the routing table; it is compiled once, here
   * @param options - see {@link UrlMatcherOptions}
   * @throws InvalidRouteError naming the first route that does not compile
   */
  constructor(routes: RouteCollection, options: UrlMatcherOptions = {}) {
    this.redirectable = options.redirectable ?? true;
    const dynamicRegex: Array<{ prefix: string; regex: RegExp; hostRegex: RegExp | null }> = [];
    for (const [name, route] of routes.all()) {
      const compiled = compileNamed(name, route);
      const entry: Entry = {
        name, route, compiled,
        methods: route.methods,
        allowList: new Set(route.methods).size === route.methods.length
          ? route.methods
          : Object.freeze([...new Set(route.methods)]),
        schemes: route.schemes,
        hostLiteral: route.host !== '' && compiled.hostVariables.length === 0 ? route.host.toLowerCase() : null,
        hasDefaults: Object.keys(route.defaults).length > 0,
        regex: compiled.path === '/' ? DYNAMIC_ROOT : compiled.matchRegex,
        bytes: compiled.matchesBytes,
      };
      const prefix = rtrimSlashes(compiled.staticPrefix);
      if (compiled.pathVariables.length === 0) {
        const host = compiled.hostVariables.length === 0 ? route.host : '';
        const url = compiled.hasTrailingSlash ? compiled.path.slice(0, -1) : compiled.path;
        const shadowed = dynamicRegex.some((d) =>
          (d.prefix === '' || url.startsWith(d.prefix)) && (d.regex.test(url) || d.regex.test(url + '/')) &&
          (host === '' || d.hostRegex === null || d.hostRegex.test(host)));
        if (!shadowed) {
          let bucket = this.staticRoutes.get(url);
          if (bucket === undefined) this.staticRoutes.set(url, (bucket = []));
          bucket.push(entry);
          continue;
        }
      }
      dynamicRegex.push({ prefix, regex: compiled.matchRegex, hostRegex: compiled.hostRegex });
      if (entry.bytes) this.hasByteRoutes = true;
      this.index.add(this.dynamicRoutes.length, compiled.indexSegments, compiled.tailFrom);
      this.dynamicRoutes.push(entry);
    }
  }

  /** @inheritdoc */
  match(pathInfo: string, context: MatchContext): MatchResult {
    const outcome = this.tryMatch(pathInfo, context);
    if ('route' in outcome) return outcome;
    if (outcome.failure === 'method-not-allowed') {
      throw new MethodNotAllowedError(context.method, outcome.allowedMethods);
    }
    if (outcome.noConfiguration === true) throw new NoConfigurationError();
    throw new ResourceNotFoundError(outcome.pathInfo);
  }

  /**
   * {@link match} without exceptions: a miss is returned, not thrown, so a caller on the hot path
   * (the kernel's router layer) pays no throw. Same rules, same answers.
   * @returns the match, or a {@link MatchFailure} saying what `match` would throw
   */
  tryMatch(pathInfo: string, context: MatchContext): MatchResult | MatchFailure {
    this.noConfiguration = false;
    const found = this.doMatch(pathInfo, context);
    if (found !== NO_MATCH) return found;
    if (this.allow.length > 0) return { failure: 'method-not-allowed', allowedMethods: this.allow };
    if (this.noConfiguration) return { failure: 'not-found', pathInfo, noConfiguration: true };
    if (!this.redirectable) return { failure: 'not-found', pathInfo };
    let tried = pathInfo;
    if (context.method !== 'GET' && context.method !== 'HEAD') {
      // no redirect for other methods
    } else if (this.allowSchemes.length > 0) {
      const r = this.redirectScheme(tried, context);
      if (r !== NO_MATCH) return r;
    } else {
      const trimmed = rtrimSlashes(pathInfo) || '/';
      if (trimmed !== '/') {
        tried = trimmed === pathInfo ? pathInfo + '/' : trimmed;
        // Static lookup and index both ignore trailing slashes: with nothing found for the path,
        // the toggled path finds nothing either (only the message needs it).
        if (!this.sawCandidates) return { failure: 'not-found', pathInfo: tried };
        const r = this.doMatch(tried, context);
        if (r !== NO_MATCH) return { ...r, redirect: { pathInfo: tried } };
        if (this.allowSchemes.length > 0) {
          const s = this.redirectScheme(tried, context);
          if (s !== NO_MATCH) return s;
        }
      }
    }
    return { failure: 'not-found', pathInfo: tried };
  }

  private redirectScheme(pathInfo: string, context: MatchContext): MatchResult | null {
    const scheme = this.allowSchemes[0];
    const r = this.doMatch(pathInfo, { ...context, scheme });
    return r === NO_MATCH ? NO_MATCH : { ...r, redirect: { pathInfo, scheme } };
  }

  /**
   * Symfony re-checks a route ending in a variable by running its combined regex again on the
   * trimmed path and requiring the same route to come first. Routes that matched the path
   * (regex and host) were tried already and are out of the combined regex by then (`(*F)`); any
   * other earlier dynamic route that matches the trimmed path takes the re-check.
   * @returns true when such an earlier route exists (the re-check fails)
   */
  private trimmedGoesEarlier(id: number, chars: string, charsTrimmed: string, bytes: string, host: string): boolean {
    const bytesTrimmed = bytes === chars ? charsTrimmed : rtrimSlashes(bytes) || '/';
    const candidates = this.candidatesOf(charsTrimmed, bytesTrimmed, this.recheckCandidates);
    for (let c = 0; c < candidates.length && candidates[c] < id; c++) {
      const d = this.dynamicRoutes[candidates[c]];
      const path = d.bytes ? bytes : chars;
      const trimmed = d.bytes ? bytesTrimmed : charsTrimmed;
      if (d.regex.test(trimmed) && hostMatches(d, host) && !d.regex.test(path)) return true;
    }
    return false;
  }

  /**
   * The index's candidates for a path; when its byte view differs (a non-ASCII path and routes
   * without `utf8`), the union of both views' candidates, ascending.
   */
  private candidatesOf(path: string, bytes: string, out?: number[]): number[] {
    const found = this.index.candidates(path, out);
    if (bytes === path) return found;
    const more = this.index.candidates(bytes, this.byteCandidates);
    for (let i = 0; i < more.length; i++) if (!found.includes(more[i])) found.push(more[i]);
    return found.sort((a, b) => a - b);
  }

  private doMatch(rawPathInfo: string, context: MatchContext): MatchResult | null {
    this.allow = NONE;
    this.allowSchemes = NONE;
    this.sawCandidates = false;
    const pathinfo = rawUrlDecode(rawPathInfo);
    if (pathinfo === null) return NO_MATCH;
    const path = pathinfo === '' ? '/' : pathinfo;
    const trimmed = rtrimSlashes(path) || '/';
    // Routes without the `utf8` option see bytes, as PHP's regexes without the `u` modifier do.
    const bytes = this.hasByteRoutes ? byteView(path) : path;
    const method = context.method;
    const canonical = method === 'HEAD' ? 'GET' : method;
    const supportsRedirections = canonical === 'GET' && this.redirectable;

    const bucket = this.staticRoutes.get(trimmed);
    if (bucket !== undefined) {
      this.sawCandidates = true;
      for (let i = 0; i < bucket.length; i++) {
        const e = bucket[i];
        if (e.route.condition !== undefined && !e.route.condition({ ...context, pathInfo: rawPathInfo })) continue;
        const hostParams = hostParamsOf(e, context.host);
        if (hostParams === HOST_MISMATCH) continue;
        if (path !== '/' && e.compiled.hasTrailingSlash === (trimmed === path)) {
          if (supportsRedirections && (e.methods.length === 0 || e.methods.includes('GET'))) {
            this.allow = NONE;
            this.allowSchemes = NONE;
            this.sawCandidates = true;
            return NO_MATCH;
          }
          continue;
        }
        const hasScheme = e.schemes.length === 0 || e.schemes.includes(context.scheme);
        if (hasScheme && e.methods.length > 0 && !e.methods.includes(canonical) && !e.methods.includes(method)) {
          this.allow = addUnique(this.allow, e.allowList);
          continue;
        }
        if (!hasScheme) {
          this.allowSchemes = addUnique(this.allowSchemes, e.schemes);
          continue;
        }
        return result(e, hostParams, undefined, undefined);
      }
    }

    const candidates = this.candidatesOf(path, bytes);
    if (candidates.length > 0) this.sawCandidates = true;
    for (let c = 0; c < candidates.length; c++) {
      const id = candidates[c];
      const e = this.dynamicRoutes[id];
      const seen = e.bytes ? bytes : path;
      let m = e.regex.exec(seen);
      if (m === null) continue;
      // As in Symfony's combined regex, the host is checked before the condition.
      const hostParams = hostParamsOf(e, context.host);
      if (hostParams === HOST_MISMATCH) continue;
      if (e.route.condition !== undefined && !e.route.condition({ ...context, pathInfo: rawPathInfo })) continue;
      let hasTrailingVar = trimmed !== path && e.compiled.hasTrailingVar;
      if (hasTrailingVar) {
        const last = m[e.compiled.pathVariables.length] as string | undefined;
        if (e.compiled.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
          const n = e.regex.exec(!e.bytes || bytes === path ? trimmed : rtrimSlashes(bytes) || '/');
          if (n !== null && !this.trimmedGoesEarlier(id, path, trimmed, bytes, context.host)) {
            if (e.compiled.hasTrailingSlash) m = n;
            else hasTrailingVar = false;
          }
        }
      }
      if (path !== '/' && !hasTrailingVar && e.compiled.hasTrailingSlash === (trimmed === path)) {
        if (supportsRedirections && (e.methods.length === 0 || e.methods.includes('GET'))) {
          this.allow = NONE;
          this.allowSchemes = NONE;
          return NO_MATCH;
        }
        continue;
      }
      if (e.schemes.length > 0 && !e.schemes.includes(context.scheme)) {
        this.allowSchemes = addUnique(this.allowSchemes, e.schemes);
        continue;
      }
      if (e.methods.length > 0 && !e.methods.includes(canonical) && !e.methods.includes(method)) {
        this.allow = addUnique(this.allow, e.allowList);
        continue;
      }
      return result(e, hostParams, e.compiled.pathVariables, m, e.bytes && bytes !== path);
    }
    if (path === '/' && this.allow.length === 0 && this.allowSchemes.length === 0) this.noConfiguration = true;
    return NO_MATCH;
  }
}

function hostMatches(e: Entry, host: string): boolean {
  if (e.hostLiteral !== null) return e.hostLiteral === host;
  return e.compiled.hostRegex === null || e.compiled.hostRegex.test(host);
}

/** Returned by {@link hostParamsOf} when the route's host requirement rejects the host. */
const HOST_MISMATCH = null;

/**
 * Checks a route's host requirement.
 * @returns the host variables (undefined when the route has none), or HOST_MISMATCH
 */
function hostParamsOf(e: Entry, host: string): Record<string, string> | undefined | null {
  if (e.hostLiteral !== null) return e.hostLiteral === host ? undefined : HOST_MISMATCH;
  if (e.compiled.hostRegex === null) return undefined;
  const hm = e.compiled.hostRegex.exec(host);
  return hm === null ? HOST_MISMATCH : captures(e.compiled.hostVariables, hm, 1);
}

/**
 * A collected list (allowed methods or schemes) after a route's own frozen list: that list itself
 * when it is the first (no copy), else a list of this match's own with the new values appended
 * once each (a frozen first list is copied before anything is appended).
 */
function addUnique(target: readonly string[], values: readonly string[]): readonly string[] {
  if (target === NONE) return values;
  const out = Object.isFrozen(target) ? [...target] : target as string[];
  for (const v of values) if (!out.includes(v)) out.push(v);
  return out;
}

function captures(names: readonly string[], m: RegExpExecArray, offset: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const v = m[offset + i];
    if (v !== undefined) out[names[i]] = v;
  }
  return out;
}

function result(
  e: Entry, hostParams: Record<string, string> | undefined, vars: readonly string[] | undefined,
  m: RegExpExecArray | undefined, fromBytes = false,
): MatchResult {
  const params = (e.hasDefaults ? { ...e.route.defaults } : {}) as Record<string, string | null>;
  if (hostParams !== undefined) Object.assign(params, hostParams);
  if (vars !== undefined && m !== undefined) {
    for (let i = 0; i < vars.length; i++) {
      const v = m[i + 1];
      if (v !== undefined) params[vars[i]] = fromBytes ? fromByteView(v) : v;
    }
  }
  return { route: e.name, params };
}
