import type { Request, Response } from 'express';
import { NotFoundHttpError } from '../http/errors';
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
 * The demo routing table: the Symfony reference app's `config/routes.yaml` (same names, paths,
 * methods and requirements: only `book_show` requires `id: \d+`), with controllers that answer
 * as the reference's `AppController` does, plus `api_time`. With a book repository, the books
 * live in SQLite and `book_create`/`book_update` carry a post-deserialization check: only an
 * admin may set `featured: true`.
 * @param books - where books are kept; without one, the book routes answer as the reference
 *   does (fixed data), which is what `debug:router` and unit tests need
 * @returns a new collection
 */
export function createDemoRoutes(books?: BookRepository): RouteCollection {
  const routes = new RouteCollection();
  const bookOptions = (extra: SecuredRouteOptions = {}): SecuredRouteOptions => ({
    provider: (req: Request) => (books === undefined ? null : books.find(String(req.params.id))),
    ...extra,
  });
  routes.add('home', new Route('/', {
    methods: ['GET'],
    controller: (_req: Request, res: Response) => { res.type('html').send('<html><body><h1>home</h1></body></html>'); },
  }));
  routes.add('api_entrypoint', new Route('/api', {
    methods: ['GET'],
    controller: (_req, res) => { res.json({ resource: 'api', books: '/api/books' }); },
  }));
  routes.add('book_list', new Route('/api/books', {
    methods: ['GET'],
    controller: (_req, res) => { res.json(books === undefined ? [{ id: 1, title: 'Dune' }] : books.all()); },
  }));
  routes.add('book_create', new Route('/api/books', {
    methods: ['POST'],
    options: { securityPostDenormalize: featuredOnlyByAdmin, securityMessage: 'Only an admin may feature a book.' } satisfies SecuredRouteOptions,
    controller: (req, res) => {
      if (books === undefined) { res.status(201).json({ id: 2, created: true }); return; }
      const book = books.create(toBook('', req.denormalized?.object ?? {}));
      res.status(201).json({ ...book, created: true });
    },
  }));
  routes.add('book_show', new Route('/api/books/{id}', {
    methods: ['GET'], requirements: { id: '\\d+' },
    options: bookOptions(),
    controller: (req, res) => {
      if (books === undefined) { res.json({ id: Number.parseInt(String(req.params.id), 10), title: 'Dune' }); return; }
      const book = req.storedObject;
      if (book === null || book === undefined) throw new NotFoundHttpError(`Book "${String(req.params.id)}" not found.`);
      res.json(book);
    },
  }));
  routes.add('book_update', new Route('/api/books/{id}', {
    methods: ['PUT', 'PATCH'],
    options: bookOptions({ securityPostDenormalize: featuredOnlyByAdmin, securityPostDenormalizeMessage: 'Only an admin may feature a book.' }),
    controller: (req, res) => {
      const id = String(req.params.id);
      if (books === undefined) { res.json({ id: Number.parseInt(id, 10) || 0, updated: true, method: req.method }); return; }
      const book = books.save(toBook(id, req.denormalized?.object ?? {}));
      res.json({ ...book, updated: true, method: req.method });
    },
  }));
  routes.add('book_delete', new Route('/api/books/{id}', {
    methods: ['DELETE'],
    controller: (req, res) => { books?.delete(String(req.params.id)); res.status(204).end(); },
  }));
  routes.add('hello_slash', new Route('/hello/', {
    methods: ['GET'],
    controller: (_req, res) => { res.type('text/plain').send('hello'); },
  }));
  routes.add('plain', new Route('/plain', {
    methods: ['GET'],
    controller: (_req, res) => { res.type('text/plain').send('plain'); },
  }));
  routes.add('localized_about', new Route('/{_locale}/about', {
    methods: ['GET'], requirements: { _locale: 'en|fr|de' },
    controller: (req, res) => { res.json({ page: 'about', locale: req.locale ?? req.params._locale }); },
  }));
  routes.add('admin_dashboard', new Route('/admin', {
    methods: ['GET'],
    controller: (_req, res) => { res.type('text/plain').send('admin dashboard'); },
  }));
  routes.add('boom', new Route('/boom', {
    methods: ['GET'],
    controller: () => { throw new Error('Kaboom'); },
  }));
  routes.add('api_time', new Route('/api/time', {
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
  return routes;
}
