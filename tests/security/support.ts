import session from 'express-session';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createKernel, Kernel } from '../../src/kernel/createKernel';
import type { KernelOptions } from '../../src/kernel/options';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { accessCheck } from '../../src/security/accessCheck';
import { bodyParsing } from '../../src/http/body/bodyParsing';
import { firewall } from '../../src/security/firewall';
import type { FirewallOptions } from '../../src/security/FirewallOptions';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { postDenormalizeCheck } from '../../src/security/postDenormalizeCheck';

/** admin:admin (ROLE_ADMIN, as the oracle's users_in_memory) and alice:alice (ROLE_USER). */
export function testUsers(): InMemoryUserProvider {
  return new InMemoryUserProvider({
    users: { admin: { password: 'admin', roles: ['ROLE_ADMIN'] }, alice: { password: 'alice', roles: ['ROLE_USER'] } },
    cost: 4,
  });
}

export const HIERARCHY = { ROLE_ADMIN: ['ROLE_USER'] };

/** `Authorization: Basic …` for a user-id and password. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** The demo's /admin and /api/books routes, plus /api/me that shows what the firewall set. */
export function baseRoutes(): RouteCollection {
  const routes = new RouteCollection();
  routes.add('admin_dashboard', new Route('/admin', { methods: ['GET'], controller: (_req, res) => { res.type('text/plain').send('admin dashboard'); } }));
  routes.add('book_list', new Route('/api/books', { methods: ['GET'], controller: (_req, res) => { res.json([{ id: 1, title: 'Dune' }]); } }));
  routes.add('book_create', new Route('/api/books', { methods: ['POST'], controller: (_req, res) => { res.status(201).json({ id: 2, created: true }); } }));
  routes.add('me', new Route('/api/me', {
    methods: ['GET'],
    controller: (req, res) => { res.json({ user: req.user?.identifier ?? null, security: req.security }); },
  }));
  routes.add('cart', new Route('/api/cart', {
    methods: ['POST'],
    controller: (req, res) => { (req as unknown as { session: Record<string, unknown> }).session.cart = 'book-1'; res.json({ ok: true }); },
  }));
  routes.add('cart_show', new Route('/api/cart', {
    methods: ['GET'],
    controller: (req, res) => {
      res.json({ cart: (req as unknown as { session?: Record<string, unknown> }).session?.cart ?? null });
    },
  }));
  return routes;
}

/** A test-only layer after the firewall that shows who it authenticated, on every response (404s included). */
export const showUser: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
  res.setHeader('X-Security-User', req.user?.identifier ?? 'anonymous');
  next();
};

/** An express-session on a MemoryStore, configured as the session layer is (nothing saved until written). */
export function memorySession(store = new session.MemoryStore()): RequestHandler {
  return session({ secret: 'test secret', store, resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } });
}

/** A debug kernel with the firewall, the three route handlers and the `showUser` probe. */
export function securedKernel(
  firewallOptions: FirewallOptions,
  extra: Partial<KernelOptions> & { session?: RequestHandler } = {},
): Kernel {
  const { session: sessionLayer, ...rest } = extra;
  return createKernel({
    routes: baseRoutes(),
    debug: true,
    ...rest,
    layers: {
      firewall: firewall(firewallOptions),
      locale: showUser,
      ...(sessionLayer === undefined ? {} : { session: sessionLayer }),
      ...(rest.layers ?? {}),
    },
    routeHandlers: [accessCheck(), bodyParsing(), postDenormalizeCheck()],
  });
}

/** The `name=value` of a Set-Cookie for `name`, or undefined. */
export function cookieOf(setCookie: string[] | string | undefined, name = 'connect.sid'): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie];
  return list.map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`));
}
