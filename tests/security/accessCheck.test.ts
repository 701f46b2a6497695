import type { Request } from 'express';
import request from 'supertest';
import { Route } from '../../src/routing/Route';
import { accessCheck } from '../../src/security/accessCheck';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import type { PostDenormalizeContext, SecuredRouteOptions } from '../../src/security/RouteSecurity';
import type { AccessDecision } from '../../src/security/SecurityState';
import { baseRoutes, basic, HIERARCHY, securedKernel, testUsers } from './support';

interface Book { id: number; title: string; featured: boolean; owner: string }

/** A tiny store: what the controllers persist, and whether they ran. */
function bookStore() {
  const books: Book[] = [
    { id: 1, title: 'Dune', featured: false, owner: 'alice' },
    { id: 2, title: 'Emma', featured: true, owner: 'admin' },
  ];
  const persisted: Book[] = [];
  const seen: Array<PostDenormalizeContext> = [];
  const find = (req: Request) => books.find((b) => String(b.id) === req.params.id) ?? null;
  const routes = baseRoutes();
  const item: SecuredRouteOptions = {
    provider: find,
    security: ({ isGranted }) => isGranted('ROLE_USER'),
    securityPostDenormalize: (ctx) => {
      seen.push(ctx);
      const { object, previousObject, isGranted } = ctx as PostDenormalizeContext & {
        object: Book; previousObject: Book | null;
      };
      return isGranted('ROLE_ADMIN') || object.featured === (previousObject?.featured ?? false);
    },
    securityPostDenormalizeMessage: 'Only an admin can feature a book.',
  };
  const persist = (req: Request, res: import('express').Response) => {
    const book = req.denormalized!.object as Book;
    persisted.push(book);
    const i = books.findIndex((b) => b.id === book.id);
    if (i === -1) books.push(book); else books[i] = book;
    res.json({ book, decisions: req.security?.decisions });
  };
  routes.add('book_update', new Route('/api/books/{id}', { methods: ['PUT', 'PATCH'], requirements: { id: '\\d+' }, controller: persist, options: { ...item } }));
  routes.add('book_create', new Route('/api/books', {
    methods: ['POST'],
    controller: (req, res) => { res.status(201).json(req.denormalized ?? 'not denormalized'); },
    options: {
      json: true, securityPostDenormalize: ({ previousObject }) => previousObject === null,
    } satisfies SecuredRouteOptions,
  }));
  routes.add('book_show', new Route('/api/books/{id}', {
    methods: ['GET'], requirements: { id: '\\d+' },
    controller: (req, res) => { res.json(req.storedObject); },
    options: { provider: find, security: ({ object, user }) => (object as Book | null)?.owner === user?.identifier, securityMessage: 'Not your book.' } satisfies SecuredRouteOptions,
  }));
  routes.add('book_retitle', new Route('/api/books/{id}/title', {
    methods: ['PUT'], requirements: { id: '\\d+' },
    controller: (req, res) => { res.json({ stored: req.storedObject, denormalized: req.denormalized }); },
    options: {
      provider: find,
      // a deserializer that populates the object it is given, in place, as Symfony's does
      denormalize: (req, previous) => Object.assign(previous ?? {}, req.body),
      securityPostDenormalize: ({ object, previousObject }) => {
        (object as Book).title += ' (checked)';
        return (previousObject as Book).title !== (object as Book).title;
      },
    } satisfies SecuredRouteOptions,
  }));
  return { books, persisted, seen, routes };
}

describe('accessCheck() and postDenormalizeCheck(): API Platform\'s security and securityPostDenormalize', () => {
  const provider = testUsers();
  let store: ReturnType<typeof bookStore>;
  let kernel: ReturnType<typeof securedKernel>;
  beforeEach(() => {
    store = bookStore();
    kernel = securedKernel({ firewalls: [{ name: 'main', provider, authenticators: [new HttpBasicAuthenticator()] }], roleHierarchy: HIERARCHY }, { routes: store.routes });
  });
  const put = (path: string, as: string | undefined, body: object) => {
    const r = request(kernel).put(path).set('Accept', 'application/json').send(body);
    return as === undefined ? r : r.set('Authorization', basic(as, as));
  };

  test('a non-admin setting featured: true gets 403 with the message; the controller does not run', async () => {
    const res = await put('/api/books/1', 'alice', { featured: true });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('Only an admin can feature a book.');
    expect(store.persisted).toEqual([]);
    expect(store.books[0].featured).toBe(false);
  });

  test('a non-admin may change other fields', async () => {
    const res = await put('/api/books/1', 'alice', { title: 'Dune Messiah' });
    expect(res.status).toBe(200);
    expect(store.books[0]).toEqual({ id: 1, title: 'Dune Messiah', featured: false, owner: 'alice' });
    expect(res.body.decisions.map((d: AccessDecision) => [d.source, d.rule, d.result])).toEqual([
      ['security', 'route "book_update"', 'granted'],
      ['security_post_denormalize', 'route "book_update"', 'granted'],
    ]);
  });

  test('an admin may feature a book (ROLE_ADMIN includes ROLE_USER)', async () => {
    const res = await put('/api/books/1', 'admin', { featured: true });
    expect(res.status).toBe(200);
    expect(store.persisted).toEqual([{ id: 1, title: 'Dune', featured: true, owner: 'alice' }]);
  });

  test('security runs before the body is read: anonymous clients get the entry point\'s 401 even with a malformed body', async () => {
    const res = await request(kernel).put('/api/books/1').set('Content-Type', 'application/json').send('{"featured":');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
    expect(store.seen).toEqual([]);
  });

  test('security sees the stored object; securityMessage replaces "Access Denied."', async () => {
    const mine = await request(kernel).get('/api/books/1').set('Authorization', basic('alice', 'alice'));
    expect(mine.body).toEqual(store.books[0]);
    const theirs = await request(kernel).get('/api/books/2').set('Authorization', basic('alice', 'alice')).set('Accept', 'application/json');
    expect([theirs.status, theirs.body.detail]).toEqual([403, 'Not your book.']);
  });

  test('previousObject is a shallow copy: changing object in the check or in place does not change it, nor the stored object', async () => {
    const res = await put('/api/books/1/title', 'alice', { title: 'Children of Dune' });
    expect(res.status).toBe(200);
    expect(res.body.denormalized.object.title).toBe('Children of Dune (checked)');
    expect(res.body.denormalized.previousObject.title).toBe('Dune');
    expect(store.books[0].title).toBe('Dune');
  });

  test('the check gets the previous object as a copy of the stored one, not the stored one itself', async () => {
    const original = store.books[0];
    await put('/api/books/1', 'alice', { title: 'X' });
    expect(store.seen).toHaveLength(1);
    expect(store.seen[0].previousObject).toEqual({ id: 1, title: 'Dune', featured: false, owner: 'alice' });
    expect(store.seen[0].previousObject).not.toBe(original);
    expect(original.title).toBe('Dune');
  });

  test('on create (no provider) previousObject is null and object is the body', async () => {
    const res = await request(kernel).post('/api/books').set('Authorization', basic('alice', 'alice')).send({ title: 'New' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ previousObject: null, object: { title: 'New' } });
  });

  test('a body that is not a JSON object is a 400 for the default denormalizer', async () => {
    const res = await put('/api/books/1', 'admin', [1, 2]);
    expect([res.status, res.body.detail]).toEqual([400, 'Expected a JSON object body.']);
  });

  test('GET requests are not denormalized', async () => {
    const res = await request(kernel).get('/api/books/1').set('Authorization', basic('alice', 'alice'));
    expect(res.status).toBe(200);
    expect(store.seen).toEqual([]);
  });
});

describe('accessCheck(options)', () => {
  test('with routes, validates their security options at construction', () => {
    const routes = baseRoutes();
    routes.add('bad', new Route('/bad', { options: { security: 'is_granted("ROLE_ADMIN")' } }));
    expect(() => accessCheck({ routes })).toThrow('Invalid option "routes.bad.options.security": expected a function (got "is_granted(\\"ROLE_ADMIN\\")").');
  });

  test('a bad option on a route nobody validated is a 500 when it is first used, naming the option', async () => {
    const routes = baseRoutes();
    routes.add('bad', new Route('/bad', { controller: (_req, res) => { res.send('x'); }, options: { securityMessage: 42 } }));
    const k = securedKernel({ firewalls: [{ name: 'main' }] }, { routes });
    const res = await request(k).get('/bad');
    expect(res.status).toBe(500);
    expect(decodeURIComponent(res.headers['x-debug-exception'])).toBe('Invalid option "routes.bad.options.securityMessage": expected a string (got 42).');
  });
});
