import * as path from 'node:path';
import type { Request, Response } from 'express';
import { NotFoundHttpError } from '../http/errors';
import { loadRoutes, type ControllerMap } from '../routing/loader/RouteFileLoader';
import { Route } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';
import type { PostDenormalizeContext, SecuredRouteOptions } from '../security/RouteSecurity';
import { formatInTimeZone } from '../timezone/formatInTimeZone';
import { BookRepository, toBook } from './books';

/** Only an admin may set `featured: true` (checked after the body is deserialized). */
function featuredOnlyByAdmin({ object, isGranted }: PostDenormalizeContext): boolean {
  return (object as { featured?: unknown }).featured !== true || isGranted('ROLE_ADMIN');
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
 * paths, methods and requirements: only `book_show` requires `id: \d+`), with controllers that
 * answer as the reference's `AppController` does, plus `api_time`. The pages (`home`,
 * `hello_slash`, `plain`, `localized_about`, `admin_dashboard`, `boom`) are loaded from
 * {@link DEMO_ROUTES_FILE} with {@link DEMO_CONTROLLERS}; the API resources are declared here.
 * Every route has the `utf8` option, as the reference's (`framework.router.utf8: true`).
 * With a book repository, the books live in SQLite and `book_create`/`book_update` carry a
 * post-deserialization check: only an admin may set `featured: true`.
 * @param books - where books are kept; without one, the book routes answer as the reference
 *   does (fixed data), which is what `debug:router` and unit tests need
 * @returns a new collection
 * @throws RouteLoaderError when `config/routes.yaml` is missing or wrong
 */
export function createDemoRoutes(books?: BookRepository): RouteCollection {
  const pages = loadRoutes(DEMO_ROUTES_FILE, DEMO_CONTROLLERS, { utf8: true });
  const api = new RouteCollection();
  const bookOptions = (extra: SecuredRouteOptions = {}): SecuredRouteOptions => ({
    provider: (req: Request) => (books === undefined ? null : books.find(String(req.params.id))),
    ...extra,
  });
  api.add('api_entrypoint', new Route('/api', {
    methods: ['GET'],
    controller: (_req, res) => { res.json({ resource: 'api', books: '/api/books' }); },
  }));
  api.add('book_list', new Route('/api/books', {
    methods: ['GET'],
    controller: (_req, res) => { res.json(books === undefined ? [{ id: 1, title: 'Dune' }] : books.all()); },
  }));
  api.add('book_create', new Route('/api/books', {
    methods: ['POST'],
    options: { securityPostDenormalize: featuredOnlyByAdmin, securityMessage: 'Only an admin may feature a book.' } satisfies SecuredRouteOptions,
    controller: (req, res) => {
      if (books === undefined) { res.status(201).json({ id: 2, created: true }); return; }
      const book = books.create(toBook('', req.denormalized?.object ?? {}));
      res.status(201).json({ ...book, created: true });
    },
  }));
  api.add('book_show', new Route('/api/books/{id}', {
    methods: ['GET'], requirements: { id: '\\d+' },
    options: bookOptions(),
    controller: (req, res) => {
      if (books === undefined) { res.json({ id: Number.parseInt(String(req.params.id), 10), title: 'Dune' }); return; }
      const book = req.storedObject;
      if (book === null || book === undefined) throw new NotFoundHttpError(`Book "${String(req.params.id)}" not found.`);
      res.json(book);
    },
  }));
  api.add('book_update', new Route('/api/books/{id}', {
    methods: ['PUT', 'PATCH'],
    options: bookOptions({ securityPostDenormalize: featuredOnlyByAdmin, securityPostDenormalizeMessage: 'Only an admin may feature a book.' }),
    controller: (req, res) => {
      const id = String(req.params.id);
      if (books === undefined) { res.json({ id: Number.parseInt(id, 10) || 0, updated: true, method: req.method }); return; }
      const book = books.save(toBook(id, req.denormalized?.object ?? {}));
      res.json({ ...book, updated: true, method: req.method });
    },
  }));
  api.add('book_delete', new Route('/api/books/{id}', {
    methods: ['DELETE'],
    controller: (req, res) => { books?.delete(String(req.params.id)); res.status(204).end(); },
  }));
  api.add('api_time', new Route('/api/time', {
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
  }));
  api.addOptions({ utf8: true });
  // The reference's order: home, the API resources, the other pages, then api_time.
  const ordered = new RouteCollection();
  const [[homeName, home], ...others] = pages.all();
  ordered.add(homeName, home);
  for (const [name, route] of api.all()) if (name !== 'api_time') ordered.add(name, route);
  for (const [name, route] of others) ordered.add(name, route);
  ordered.add('api_time', api.get('api_time') as Route);
  return ordered;
}
