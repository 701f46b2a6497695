import * as path from 'node:path';
import type { Request, Response } from 'express';
import { loadRoutes, type ControllerMap } from '../routing/loader/RouteFileLoader';
import { Route } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';
import { formatInTimeZone } from '../timezone/formatInTimeZone';
import { apiRoutes } from '../api/http/apiRoutes';
import type { ApiOptions } from '../api/http/ApiOptions';
import type { Resource } from '../api/resource/defineResource';
import { MemoryState } from '../api/state/MemoryState';
import { queryLogFor } from '../api/sql/queryLog';
import { adminRoutes } from '../admin/adminRoutes';
import { DEMO_CRUD } from './adminConfig';
import { seedDemoData } from './seed';
import { createDemoResources } from './resources';

function memoryResources(): Resource[] {
  const state = new MemoryState();
  const resources = createDemoResources({ provider: state, processor: state });
  seedDemoData(state, resources);
  return resources;
}

/**
 * The demo's pages, by the names `config/routes.yaml` gives their controllers (the reference's
 * `AppController` methods).
 */
export const DEMO_CONTROLLERS: ControllerMap = {
  'App\\Controller\\AppController::home': (_req: Request, res: Response) => {
    res.type('html').send('<html><body><h1>home</h1></body></html>');
  },
  'App\\Controller\\AppController::hello': (_req: Request, res: Response) => { res.type('text/plain').send('hello'); },
  'App\\Controller\\AppController::plain': (_req: Request, res: Response) => { res.type('text/plain').send('plain'); },
  'App\\Controller\\AppController::about': (req: Request, res: Response) => {
    res.json({ page: 'about', locale: req.locale ?? req.params._locale });
  },
  'App\\Controller\\AppController::admin': (_req: Request, res: Response) => {
    res.type('text/plain').send('admin dashboard');
  },
  'App\\Controller\\AppController::boom': () => { throw new Error('Kaboom'); },
};

/**
 * Where the demo's page routes are declared: `config/routes.yaml` at the package root (two levels
 * above this module, from `src/demo` and from `dist/demo` alike).
 */
export const DEMO_ROUTES_FILE = path.join(__dirname, '..', '..', 'config', 'routes.yaml');

/**
 * The demo routing table: the Symfony reference app's `config/routes.yaml` (same names, order,
 * paths, methods and requirements: only `book_show` requires `id: \d+`), plus `api_time`. The
 * pages (`home`, `hello_slash`, `plain`, `localized_about`, `admin_dashboard`, `boom`) are loaded
 * from {@link DEMO_ROUTES_FILE} with {@link DEMO_CONTROLLERS}, but for `admin_dashboard`, whose
 * place the back office takes (`adminRoutes` of `src/admin`: `admin_dashboard` at `/admin`, the
 * login page, the Book and Author screens); the API is the Book and Author
 * resources ({@link createDemoResources}): `api_entrypoint`, `book_list`, `book_create`,
 * `book_show`, `book_update`, `book_delete`, then Author's operations, the JSON-LD contexts and
 * the Hydra documentation, then the OpenAPI document (`/api/docs.json`) and its page
 * (`/api/docs`, also the answer of every API route to a browser). Every route has the `utf8` option, as the reference's
 * (`framework.router.utf8: true`).
 * @param resources - the API resources; default: the demo's, on an in-memory store holding the
 *   demo's seed (`./seed`; what `debug:router` and unit tests need)
 * @param httpCache - the API's `cacheHeaders` and `purger` (the demo behind Varnish); default: none
 * @returns a new collection
 * @throws RouteLoaderError when `config/routes.yaml` is missing or wrong
 */
export function createDemoRoutes(
  resources: readonly Resource[] = memoryResources(), httpCache: Pick<ApiOptions, 'cacheHeaders' | 'purger'> = {},
): RouteCollection {
  const pages = loadRoutes(DEMO_ROUTES_FILE, DEMO_CONTROLLERS, { utf8: true });
  const title = 'express-kernel demo';
  const api = apiRoutes({
    resources, title, stateContext: queryLogFor, ...httpCache,
    docs: {
      description: 'Books and their authors. Reads are anonymous; writes need ROLE_USER (HTTP Basic: user/user '
        + 'in development), deleting and featuring a book ROLE_ADMIN (admin/admin).',
    },
  });
  const time = new Route('/api/time', {
    methods: ['GET'],
    controller: (req, res) => {
      const now = new Date();
      res.json({
        locale: req.locale ?? null,
        localeSource: req.localeInfo?.source ?? null,
        timeZone: req.timeZone ?? 'UTC',
        timeZoneSource: req.timeZoneInfo?.source ?? null,
        utc: now.toISOString(),
        local: formatInTimeZone(now, req, { dateStyle: 'full', timeStyle: 'long' }),
      });
    },
  });
  const admin = adminRoutes({ resources, crud: DEMO_CRUD, stateContext: queryLogFor, title: 'express-kernel admin' });
  // The reference's order: home, the API resources, the other pages, then api_time; the back
  // office's routes take the place of the reference's `admin_dashboard` (its first route is one).
  const ordered = new RouteCollection();
  const [[homeName, home], ...others] = pages.all();
  ordered.add(homeName, home);
  for (const [name, route] of api.all()) ordered.add(name, route);
  for (const [name, route] of others) {
    if (name !== 'admin_dashboard') ordered.add(name, route);
    else for (const [adminName, adminRoute] of admin.all()) ordered.add(adminName, adminRoute);
  }
  ordered.add('api_time', time);
  ordered.addOptions({ utf8: true });
  return ordered;
}
