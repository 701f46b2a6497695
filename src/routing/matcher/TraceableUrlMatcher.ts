import { Route } from '../Route';
import type { RouteCollection } from '../RouteCollection';
import { byteView } from '../pcre';
import { rawUrlDecode, rtrimSlashes } from '../rawUrlDecode';
import type { MatchContext } from './UrlMatcherInterface';

/** How close a route came to matching (Symfony `TraceableUrlMatcher::ROUTE_*`). */
export enum TraceLevel {
  ROUTE_DOES_NOT_MATCH = 0,
  ROUTE_ALMOST_MATCHES = 1,
  ROUTE_MATCHES = 2,
}

/** One line of the matching log: why a route did or did not match. */
export interface Trace {
  /** Symfony's log line, e.g. `Requirement for "_locale" does not match (en|fr|de)`. */
  readonly log: string;
  readonly level: TraceLevel;
  /** The route name. */
  readonly name: string;
  /** The route's path pattern. */
  readonly path: string;
}

/**
 * Explains, route by route and in matching order, why each route did or did not match a path
 * (Symfony `TraceableUrlMatcher`, which follows the non-compiled `UrlMatcher` and does not
 * redirect). Used by the `router:match` command and the profiler's routing panel. It scans the
 * whole table: it is a debugging tool, not the request path's matcher.
 */
export class TraceableUrlMatcher {
  /** @param routes - the routing table */
  constructor(private readonly routes: RouteCollection) {}

  /**
   * @param pathInfo - the raw path info
   * @param context - method, host and scheme
   * @returns one trace per route examined, stopping at the first that matches
   */
  getTraces(pathInfo: string, context: MatchContext): Trace[] {
    const traces: Trace[] = [];
    const decoded = rawUrlDecode(pathInfo);
    const chars = decoded === null ? null : decoded === '' ? '/' : decoded;
    const bytes = chars === null ? null : byteView(chars);
    const method = context.method === 'HEAD' ? 'GET' : context.method;
    for (const [name, route] of this.routes.all()) {
      const compiled = route.compile();
      // Symfony reports the path as compiled (a localized route's has its locale)
      const routePath = compiled.path;
      const add = (log: string, level: TraceLevel): void => { traces.push({ log, level, name, path: routePath }); };
      // Routes without the `utf8` option see the path's bytes, as in UrlMatcher.
      const path = compiled.matchesBytes ? bytes : chars;
      const trimmed = path === null ? '' : rtrimSlashes(path) || '/';
      const prefix = rtrimSlashes(compiled.staticPrefix);
      if (path === null || (prefix !== '' && !trimmed.startsWith(prefix))) {
        add(`Path "${routePath}" does not match`, TraceLevel.ROUTE_DOES_NOT_MATCH);
        continue;
      }
      let m = compiled.matchRegex.exec(path);
      if (m === null) {
        const bare = new Route(routePath, { defaults: route.defaults, utf8: route.utf8 });
        if (!bare.compile().regex.test(path)) {
          add(`Path "${routePath}" does not match`, TraceLevel.ROUTE_DOES_NOT_MATCH);
          continue;
        }
        const failing = Object.entries(route.requirements).find(([n, regex]) => {
          const one = route.withRequirements({ [n]: regex }).compile();
          return one.variables.includes(n) && !one.regex.test(path);
        });
        if (failing !== undefined) {
          add(`Requirement for "${failing[0]}" does not match (${failing[1]})`, TraceLevel.ROUTE_ALMOST_MATCHES);
        }
        continue;
      }
      let hasTrailingVar = trimmed !== path && compiled.hasTrailingVar;
      if (hasTrailingVar) {
        const last = m[compiled.pathVariables.length] as string | undefined;
        if (compiled.hasTrailingSlash || last === undefined || (last !== '' && !last.endsWith('/'))) {
          const n = compiled.matchRegex.exec(trimmed);
          if (n !== null) {
            if (compiled.hasTrailingSlash) m = n;
            else hasTrailingVar = false;
          }
        }
      }
      if (compiled.hostRegex !== null && !compiled.hostRegex.test(context.host)) {
        add(`Host "${context.host}" does not match the requirement ("${route.host}")`, TraceLevel.ROUTE_ALMOST_MATCHES);
        continue;
      }
      if (route.condition !== undefined && !route.condition({ ...context, pathInfo })) {
        add(
          `Condition "${route.condition.name || 'function'}" does not evaluate to "true"`,
          TraceLevel.ROUTE_ALMOST_MATCHES,
        );
        continue;
      }
      if (path !== '/' && !hasTrailingVar && compiled.hasTrailingSlash === (trimmed === path)) {
        add(`Path "${routePath}" does not match`, TraceLevel.ROUTE_DOES_NOT_MATCH);
        continue;
      }
      if (route.schemes.length > 0 && !route.schemes.includes(context.scheme)) {
        add(
          `Scheme "${context.scheme}" does not match any of the required schemes (${route.schemes.join(', ')})`,
          TraceLevel.ROUTE_ALMOST_MATCHES,
        );
        continue;
      }
      if (route.methods.length > 0 && !route.methods.includes(method)) {
        add(
          `Method "${context.method}" does not match any of the required methods (${route.methods.join(', ')})`,
          TraceLevel.ROUTE_ALMOST_MATCHES,
        );
        continue;
      }
      add('Route matches!', TraceLevel.ROUTE_MATCHES);
      break;
    }
    return traces;
  }
}
