/**
 * A reference matcher for the tests: Symfony 5.4's `CompiledUrlMatcherTrait::match()/doMatch()`
 * (with `RedirectableUrlMatcherInterface`) and `CompiledUrlMatcherDumper::groupStaticRoutes()`,
 * written out as a plain linear scan over `collection.all()`. No index, no caching, no cleverness:
 * it exists so that the real matcher can be compared with it.
 *
 * It reuses `route.compile()` (the route regexes), since the point is to test the matcher's index
 * and control flow, not the regex compiler.
 */
import type { Route } from '../../src/routing/Route';
import type { RouteCollection } from '../../src/routing/RouteCollection';
import type { CompiledRoute } from '../../src/routing/RouteCompiler';

export interface RefContext {
  method: string;
  host: string;
  scheme: string;
}

/** What a match ends with, in a shape both matchers can be reduced to. */
export type Outcome =
  | {
      kind: 'match';
      route: string;
      params: Record<string, string | null>;
      redirect?: { pathInfo: string; scheme?: string };
    }
  | {
      kind: 'error';
      error: 'ResourceNotFoundError' | 'NoConfigurationError' | 'MethodNotAllowedError';
      message: string;
      allowedMethods?: string[];
    };

interface Entry {
  name: string;
  route: Route;
  compiled: CompiledRoute;
  /** The regex the dynamic scan uses: the path regex with its trailing slash made optional. */
  regex: RegExp;
  hasTrailingSlash: boolean;
  hasTrailingVar: boolean;
}

type Found = { route: string; params: Record<string, string | null> };
/** doMatch()'s `return []`: nothing, plus what was collected in `$allow` / `$allowSchemes`. */
type Missed = { allow: string[]; allowSchemes: string[] };

class NoConfiguration extends Error {}

/** PHP `$x ?: '/'` for a string: '' and '0' are falsy. */
const orSlash = (s: string): string => (s === '' || s === '0' ? '/' : s);
/** PHP `rtrim($s, '/')`. */
const rtrim = (s: string): string => s.replace(/\/+$/, '');
/** PHP `$array += array_flip($list)`: add what is not there yet, keep first-seen order. */
const addAll = (target: string[], values: readonly string[]): void => {
  for (const v of values) if (!target.includes(v)) target.push(v);
};

/**
 * PHP `rawurldecode()` followed by the `u` modifier's UTF-8 check: every `%XX` (two hex digits)
 * becomes a byte, everything else is kept; `null` when the bytes are not valid UTF-8 (a `/u`
 * regex then matches nothing, and no static path can equal the string).
 */
export function phpRawUrlDecode(raw: string): string | null {
  const bytes = Buffer.concat(
    raw.split(/(%[0-9A-Fa-f]{2})/).map((part, i) =>
      i % 2 === 1 ? Buffer.from([parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8'),
    ),
  );
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

export class ReferenceMatcher {
  /** Static routes, keyed by path without its one trailing slash, in declaration order. */
  private readonly staticRoutes = new Map<string, Entry[]>();
  /** Everything else, in declaration order. */
  private readonly dynamicRoutes: Entry[] = [];

  /**
   * @param options.redirectable - RedirectableUrlMatcherInterface or not @default true
   * @param options.combinedRegexQuirks - reproduce two effects of Symfony matching all dynamic
   *   routes with one combined regex: (1) a route ending in a variable is re-checked against the
   *   path without its trailing slashes by running the whole combined regex again, so an earlier
   *   route that matches only the trimmed path wins the re-check; (2) every dynamic route gets
   *   `/?$`, so a `/` route that is dynamic (shadowed) also matches `//`. With `false`, only the
   *   route's own regex is used for both. @default true
   */
  constructor(
    collection: RouteCollection,
    private readonly options: { redirectable?: boolean; combinedRegexQuirks?: boolean } = {},
  ) {
    // CompiledUrlMatcherDumper::groupStaticRoutes(): a route without path variables is static,
    // unless an earlier dynamic route could match its path (then it stays with the dynamic ones,
    // so that declaration order still decides).
    for (const [name, route] of collection.all()) {
      const compiled = route.compile();
      const hasTrailingSlash = route.path !== '/' && route.path.endsWith('/');
      const entry: Entry = {
        name,
        route,
        compiled,
        hasTrailingSlash,
        hasTrailingVar: /\{\w+\}\/?$/.test(route.path),
        // compileDynamicRoutes() appends `/?$` to every route, `/` included (groupStaticRoutes()
        // does not, for `/`): a dynamic `/` route matches `//` too.
        regex: route.path === '/' && options.combinedRegexQuirks !== false ? /^\/\/?$/ : compiled.matchRegex,
      };
      if (compiled.pathVariables.length === 0) {
        const host = compiled.hostVariables.length === 0 ? route.host : '';
        const url = hasTrailingSlash ? route.path.slice(0, -1) : route.path;
        const shadowed = this.dynamicRoutes.some((d) => {
          const prefix = rtrim(d.compiled.staticPrefix);
          return (
            (prefix === '' || url.startsWith(prefix)) &&
            (d.compiled.matchRegex.test(url) || d.compiled.matchRegex.test(url + '/')) &&
            (host === '' || d.compiled.hostRegex === null || d.compiled.hostRegex.test(host))
          );
        });
        if (!shadowed) {
          const list = this.staticRoutes.get(url) ?? [];
          list.push(entry);
          this.staticRoutes.set(url, list);
          continue;
        }
      }
      this.dynamicRoutes.push(entry);
    }
  }

  /** CompiledUrlMatcherTrait::match(). */
  match(pathInfo: string, context: RefContext): Outcome {
    try {
      return this.matchOrThrow(pathInfo, context);
    } catch (e) {
      if (e instanceof NoConfiguration) {
        return { kind: 'error', error: 'NoConfigurationError', message: 'No routes found for "/".' };
      }
      throw e;
    }
  }

  private matchOrThrow(pathInfo: string, context: RefContext): Outcome {
    const first = this.doMatch(pathInfo, context);
    if ('route' in first) return { kind: 'match', ...first };
    if (first.allow.length > 0) {
      return {
        kind: 'error',
        error: 'MethodNotAllowedError',
        // Symfony's MethodNotAllowedException has an empty message; this is the project's wording.
        message: `Method "${context.method}" is not allowed (Allow: ${first.allow.join(', ')}).`,
        allowedMethods: first.allow,
      };
    }
    const redirectable = this.options.redirectable ?? true;
    let path = pathInfo;
    let allowSchemes = first.allowSchemes;
    if (redirectable && (context.method === 'GET' || context.method === 'HEAD')) {
      const trimmed = orSlash(rtrim(path));
      if (allowSchemes.length === 0 && trimmed !== '/') {
        // Toggle the trailing slash: `/foo` ↔ `/foo/` (`/foo//` becomes `/foo`).
        path = trimmed === path ? path + '/' : trimmed;
        const second = this.doMatch(path, context);
        if ('route' in second) return { kind: 'match', ...second, redirect: { pathInfo: path } };
        allowSchemes = second.allowSchemes;
      }
      if (allowSchemes.length > 0) {
        // `redirect_scheme:` match again with the first collected scheme.
        const scheme = allowSchemes[0];
        const third = this.doMatch(path, { ...context, scheme });
        if ('route' in third) return { kind: 'match', ...third, redirect: { pathInfo: path, scheme } };
      }
    }
    return { kind: 'error', error: 'ResourceNotFoundError', message: `No routes found for "${path}".` };
  }

  /** CompiledUrlMatcherTrait::doMatch(). */
  private doMatch(rawPathInfo: string, context: RefContext): Found | Missed {
    const allow: string[] = [];
    const allowSchemes: string[] = [];
    const decoded = phpRawUrlDecode(rawPathInfo);
    if (decoded === null) return { allow, allowSchemes };
    const pathinfo = orSlash(decoded);
    const trimmed = orSlash(rtrim(pathinfo));
    const host = context.host.toLowerCase();
    const method = context.method;
    const canonical = method === 'HEAD' ? 'GET' : method;
    const supportsRedirections = canonical === 'GET' && (this.options.redirectable ?? true);
    const conditionContext = { method, host: context.host, scheme: context.scheme, pathInfo: rawPathInfo };
    const methodMismatch = (methods: readonly string[]): boolean =>
      methods.length > 0 && !methods.includes(canonical) && !methods.includes(method);
    const redirectStop = (e: Entry): boolean =>
      supportsRedirections && (e.route.methods.length === 0 || e.route.methods.includes('GET'));

    for (const e of this.staticRoutes.get(trimmed) ?? []) {
      if (e.route.condition !== undefined && !e.route.condition(conditionContext)) continue;
      const hostParams = this.matchHost(e, host, true);
      if (hostParams === null) continue;
      if (pathinfo !== '/' && e.hasTrailingSlash === (trimmed === pathinfo)) {
        if (redirectStop(e)) return { allow: [], allowSchemes: [] };
        continue;
      }
      const hasScheme = e.route.schemes.length === 0 || e.route.schemes.includes(context.scheme);
      if (hasScheme && methodMismatch(e.route.methods)) {
        addAll(allow, e.route.methods);
        continue;
      }
      if (!hasScheme) {
        addAll(allowSchemes, e.route.schemes);
        continue;
      }
      return { route: e.name, params: { ...(e.route.defaults as Record<string, string | null>), ...hostParams } };
    }

    const rejected = new Set<Entry>();
    for (const e of this.dynamicRoutes) {
      let m = e.regex.exec(pathinfo);
      // In Symfony the host is part of the combined regex, so it is checked before the condition.
      const hostParams = m === null ? null : this.matchHost(e, host, false);
      if (m === null || hostParams === null) continue;
      rejected.add(e);
      if (e.route.condition !== undefined && !e.route.condition(conditionContext)) continue;

      let hasTrailingVar = trimmed !== pathinfo && e.hasTrailingVar;
      if (hasTrailingVar) {
        const last = m[e.compiled.pathVariables.length];
        if (e.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
          const n = e.regex.exec(trimmed);
          // Symfony re-runs the combined regex on the trimmed path and requires the same route to
          // come first: an earlier route that did not match the path must not match the trimmed one.
          const earlier = this.dynamicRoutes.slice(0, this.dynamicRoutes.indexOf(e));
          const stolen = this.options.combinedRegexQuirks !== false && earlier.some(
            (d) => !rejected.has(d) && d.regex.test(trimmed) && this.matchHost(d, host, false) !== null,
          );
          if (n !== null && !stolen) {
            if (e.hasTrailingSlash) m = n;
            else hasTrailingVar = false;
          }
        }
      }

      if (pathinfo !== '/' && !hasTrailingVar && e.hasTrailingSlash === (trimmed === pathinfo)) {
        if (redirectStop(e)) return { allow: [], allowSchemes: [] };
        continue;
      }
      const params: Record<string, string | null> = {
        ...(e.route.defaults as Record<string, string | null>), ...hostParams,
      };
      e.compiled.pathVariables.forEach((v, i) => {
        if (m[i + 1] !== undefined) params[v] = m[i + 1];
      });
      if (e.route.schemes.length > 0 && !e.route.schemes.includes(context.scheme)) {
        addAll(allowSchemes, e.route.schemes);
        continue;
      }
      if (methodMismatch(e.route.methods)) {
        addAll(allow, e.route.methods);
        continue;
      }
      return { route: e.name, params };
    }

    if (pathinfo === '/' && allow.length === 0 && allowSchemes.length === 0) throw new NoConfiguration();
    return { allow, allowSchemes };
  }

  /**
   * The route's host requirement against the lowercased request host: host variables, or
   * `null` when it does not match. A static route with a literal host compares strings (as
   * Symfony does); everything else uses the case-insensitive host regex.
   */
  private matchHost(e: Entry, host: string, isStatic: boolean): Record<string, string> | null {
    if (e.route.host === '') return {};
    if (isStatic && e.compiled.hostVariables.length === 0) return e.route.host === host ? {} : null;
    const hm = e.compiled.hostRegex?.exec(host);
    if (hm === null || hm === undefined) return null;
    const out: Record<string, string> = {};
    e.compiled.hostVariables.forEach((v, i) => {
      if (hm[i + 1] !== undefined) out[v] = hm[i + 1];
    });
    return out;
  }
}
