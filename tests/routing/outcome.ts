import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import type { RouteCondition } from '../../src/routing/Route';
import type { MatchContext, UrlMatcherInterface } from '../../src/routing/matcher/UrlMatcherInterface';
import { MethodNotAllowedError, NoConfigurationError, ResourceNotFoundError } from '../../src/routing/errors';
import type { Outcome } from './reference-matcher';

/** Runs a matcher and reduces whatever it does (result or routing error) to an {@link Outcome}. */
export function outcomeOf(matcher: UrlMatcherInterface, pathInfo: string, context: MatchContext): Outcome {
  try {
    const r = matcher.match(pathInfo, context);
    return r.redirect === undefined
      ? { kind: 'match', route: r.route, params: r.params }
      : { kind: 'match', route: r.route, params: r.params, redirect: r.redirect };
  } catch (e) {
    if (e instanceof MethodNotAllowedError) {
      return { kind: 'error', error: 'MethodNotAllowedError', message: e.message, allowedMethods: [...e.allowedMethods] };
    }
    if (e instanceof NoConfigurationError) return { kind: 'error', error: 'NoConfigurationError', message: e.message };
    if (e instanceof ResourceNotFoundError) return { kind: 'error', error: 'ResourceNotFoundError', message: e.message };
    throw e;
  }
}

/** A route as plain data, so that fast-check prints tables readably. */
export interface RouteSpec {
  name: string;
  path: string;
  methods?: string[];
  schemes?: string[];
  host?: string;
  /** Named conditions (functions do not print); see {@link CONDITIONS}. */
  condition?: keyof typeof CONDITIONS;
  priority?: number;
}

export const CONDITIONS = {
  'method is not PUT': (c) => c.method !== 'PUT',
  'path shorter than 8': (c) => c.pathInfo.length < 8,
} satisfies Record<string, RouteCondition>;

export function buildCollection(specs: readonly RouteSpec[]): RouteCollection {
  const collection = new RouteCollection();
  for (const s of specs) {
    // The harness gives Symfony's routes the `utf8` option (the tables hold `é`).
    const route = new Route(s.path, {
      utf8: true,
      methods: s.methods,
      schemes: s.schemes,
      host: s.host,
      condition: s.condition === undefined ? undefined : CONDITIONS[s.condition],
    });
    collection.add(s.name, route, s.priority ?? 0);
  }
  return collection;
}
