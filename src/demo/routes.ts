import type { Request, Response } from 'express';
import { Route } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';

/**
 * The demo routing table: the Symfony reference app's `config/routes.yaml`, with the same names,
 * paths, methods and requirements (only `book_show` requires `id: \d+`), and controllers that
 * answer as the reference's `AppController` does.
 * @returns a new collection
 */
export function createDemoRoutes(): RouteCollection {
  const routes = new RouteCollection();
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
    controller: (_req, res) => { res.json([{ id: 1, title: 'Dune' }]); },
  }));
  routes.add('book_create', new Route('/api/books', {
    methods: ['POST'],
    controller: (_req, res) => { res.status(201).json({ id: 2, created: true }); },
  }));
  routes.add('book_show', new Route('/api/books/{id}', {
    methods: ['GET'], requirements: { id: '\\d+' },
    controller: (req, res) => { res.json({ id: Number.parseInt(String(req.params.id), 10), title: 'Dune' }); },
  }));
  routes.add('book_update', new Route('/api/books/{id}', {
    methods: ['PUT', 'PATCH'],
    controller: (req, res) => { res.json({ id: Number.parseInt(String(req.params.id), 10) || 0, updated: true, method: req.method }); },
  }));
  routes.add('book_delete', new Route('/api/books/{id}', {
    methods: ['DELETE'],
    controller: (_req, res) => { res.status(204).end(); },
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
    controller: (req, res) => { res.json({ page: 'about', locale: req.params._locale }); },
  }));
  routes.add('admin_dashboard', new Route('/admin', {
    methods: ['GET'],
    controller: (_req, res) => { res.type('text/plain').send('admin dashboard'); },
  }));
  routes.add('boom', new Route('/boom', {
    methods: ['GET'],
    controller: () => { throw new Error('Kaboom'); },
  }));
  return routes;
}
