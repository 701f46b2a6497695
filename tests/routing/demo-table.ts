/**
 * The Symfony oracle's routing table (its `config/routes.yaml`, plus the WebProfilerBundle routes
 * that `config/routes/web_profiler.yaml` imports first; the oracle app is described in
 * tests/fixtures/oracle/README.md), as
 * `php bin/console debug:router` lists it: names, paths, methods and requirements, in matching
 * order. `enabled_locales: [en, fr, de]` gives every route the requirement `_locale: en|fr|de`;
 * only `localized_about` uses it. Only `book_show` has `id: \d+`.
 */
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';

export interface DemoRoute {
  name: string;
  path: string;
  methods: string[];
  requirements: Record<string, string>;
}

const LOCALE = { _locale: 'en|fr|de' };
const any = (name: string, path: string): DemoRoute => ({ name, path, methods: [], requirements: LOCALE });
const route = (
  name: string,
  path: string,
  methods: string[],
  requirements: Record<string, string> = {},
): DemoRoute => ({
  name,
  path,
  methods,
  requirements: { ...requirements, ...LOCALE },
});

/** The WebProfilerBundle routes (`wdt.xml` under `/_wdt`, `profiler.xml` under `/_profiler`), all methods. */
export const PROFILER_ROUTES: readonly DemoRoute[] = [
  any('_wdt', '/_wdt/{token}'),
  any('_profiler_home', '/_profiler/'),
  any('_profiler_search', '/_profiler/search'),
  any('_profiler_search_bar', '/_profiler/search_bar'),
  any('_profiler_phpinfo', '/_profiler/phpinfo'),
  any('_profiler_search_results', '/_profiler/{token}/search/results'),
  any('_profiler_open_file', '/_profiler/open'),
  any('_profiler', '/_profiler/{token}'),
  any('_profiler_router', '/_profiler/{token}/router'),
  any('_profiler_exception', '/_profiler/{token}/exception'),
  any('_profiler_exception_css', '/_profiler/{token}/exception.css'),
];

/** `config/routes.yaml`. */
export const APP_ROUTES: readonly DemoRoute[] = [
  route('home', '/', ['GET']),
  route('api_entrypoint', '/api', ['GET']),
  route('book_list', '/api/books', ['GET']),
  route('book_create', '/api/books', ['POST']),
  route('book_show', '/api/books/{id}', ['GET'], { id: '\\d+' }),
  route('book_update', '/api/books/{id}', ['PUT', 'PATCH']),
  route('book_delete', '/api/books/{id}', ['DELETE']),
  route('hello_slash', '/hello/', ['GET']),
  route('plain', '/plain', ['GET']),
  route('localized_about', '/{_locale}/about', ['GET'], { _locale: 'en|fr|de' }),
  route('admin_dashboard', '/admin', ['GET']),
  route('boom', '/boom', ['GET']),
];

/** The whole demo table (profiler routes first, as in the oracle) as a RouteCollection. */
export function demoCollection(options: { profiler?: boolean } = {}): RouteCollection {
  const collection = new RouteCollection();
  const routes = options.profiler === false ? APP_ROUTES : [...PROFILER_ROUTES, ...APP_ROUTES];
  for (const r of routes) {
    collection.add(r.name, new Route(r.path, { methods: r.methods, requirements: r.requirements }));
  }
  return collection;
}
