import { RoutingArgumentError } from '../errors';
import { pregQuote } from '../pcre';
import { Route, type RouteOptions } from '../Route';
import { RouteCollection } from '../RouteCollection';

/** One path for every locale, or one path per locale (`{ en: '/about', fr: '/a-propos' }`). */
export type LocalizedPath = string | Readonly<Record<string, string>>;


/** The route as the variant of `locale` of the route `canonical`. */
function variant(
  route: Route, locale: string, canonical: string, changes: { path?: string; host?: string } = {},
): Route {
  return route.with({
    ...changes,
    defaults: { ...route.defaults, _locale: locale, _canonical_route: canonical },
    requirements: { ...route.requirements, _locale: pregQuote(locale) },
  });
}

/**
 * Symfony `LocalizedRouteTrait::createLocalizedRoute`: a route with one path gives the route
 * `name`; a route with a path per locale gives one route `name.{locale}` per locale, each with
 * the defaults `_locale: locale` and `_canonical_route: name` and the requirement
 * `_locale: locale` (quoted). The generator then finds the variant of the current locale when
 * asked for `name`.
 * @param name - the route name
 * @param path - one path, or a map of locale to path
 * @param options - the rest of the route (defaults, requirements, …)
 * @returns a new collection holding the route or its variants
 */
export function localizedRoutes(name: string, path: LocalizedPath, options: RouteOptions = {}): RouteCollection {
  const routes = new RouteCollection();
  if (typeof path === 'string') return routes.add(name, new Route(path, options));
  for (const [locale, localePath] of Object.entries(path)) {
    routes.add(`${name}.${locale}`, variant(new Route(localePath, options), locale, name));
  }
  return routes;
}

/**
 * Symfony `PrefixTrait::addPrefix`, for imports: a string prefix goes before every path (a `/`
 * route becomes the bare prefix unless `trailingSlashOnRoot`); a prefix per locale turns each
 * route without `_locale` into one variant per locale (`name.{locale}`, priority kept) and puts
 * the prefix of its locale before each localized route.
 * @param routes - the imported routes, changed in place
 * @param prefix - one prefix or a map of locale to prefix
 * @param trailingSlashOnRoot - keep `/prefix/` for a `/` route @default true
 * @throws RoutingArgumentError when a localized route's locale has no prefix
 */
export function addLocalizedPrefix(routes: RouteCollection, prefix: LocalizedPath, trailingSlashOnRoot = true): void {
  if (typeof prefix === 'string') {
    routes.addPrefix(prefix);
    if (trailingSlashOnRoot) return;
    const rootPath = new Route(prefix.trim().replace(/^\/+|\/+$/g, '') + '/').path;
    for (const [name, route] of routes.entries()) {
      if (route.path === rootPath) routes.replace(name, route.with({ path: rootPath.replace(/\/+$/, '') }));
    }
    return;
  }
  const prefixes = Object.fromEntries(Object.entries(prefix).map(([l, p]) => [l, p.trim().replace(/^\/+|\/+$/g, '')]));
  const pathFor = (p: string, route: Route) => p + (!trailingSlashOnRoot && route.path === '/' ? '' : route.path);
  for (const [name, route, priority] of routes.entries()) {
    const locale = route.defaults._locale;
    if (locale === undefined || locale === null) {
      routes.remove(name);
      for (const [l, p] of Object.entries(prefixes)) {
        routes.add(`${name}.${l}`, variant(route, l, name, { path: pathFor(p, route) }), priority);
      }
    } else if (typeof locale !== 'string' || prefixes[locale] === undefined) {
      const shown = typeof locale === 'string' ? locale : JSON.stringify(locale);
      throw new RoutingArgumentError(`Route "${name}" with locale "${shown}" is missing a corresponding ` +
        `prefix in its parent collection.`);
    } else {
      routes.add(name, route.with({ path: pathFor(prefixes[locale], route) }), priority);
    }
  }
}

/**
 * Symfony `HostTrait::addHost`: one host for every route, or a host per locale (routes without
 * `_locale` become one variant per locale, as with prefixes).
 * @throws RoutingArgumentError when a localized route's locale has no host
 */
export function addLocalizedHost(routes: RouteCollection, host: LocalizedPath): void {
  if (typeof host === 'string' || Object.keys(host).length === 0) {
    routes.setHost(typeof host === 'string' ? host : '');
    return;
  }
  for (const [name, route, priority] of routes.entries()) {
    const locale = route.defaults._locale;
    if (locale === undefined || locale === null) {
      routes.remove(name);
      for (const [l, h] of Object.entries(host)) {
        routes.add(`${name}.${l}`, variant(route, l, name, { host: h }), priority);
      }
    } else if (typeof locale !== 'string' || host[locale] === undefined) {
      const shown = typeof locale === 'string' ? locale : JSON.stringify(locale);
      throw new RoutingArgumentError(`Route "${name}" with locale "${shown}" is missing a corresponding ` +
        `host in its parent collection.`);
    } else {
      routes.add(name, route.with({
        host: host[locale], requirements: { ...route.requirements, _locale: pregQuote(locale) },
      }), priority);
    }
  }
}
