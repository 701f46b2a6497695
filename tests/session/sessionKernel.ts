import request from 'supertest';
import { createKernel, Kernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { existingSession, requireSession, SessionLayer } from '../../src/session';

export const SECRET = 'a-test-secret-of-at-least-32-characters!';

/**
 * Test routes: `/public` and `/peek` never write to the session, `/cart` needs it
 * (requireSession), `/info` shows `req.sessionInfo`, `/login` stores secret-looking values.
 */
export function sessionRoutes(): RouteCollection {
  const r = new RouteCollection();
  r.add('public', new Route('/public', { methods: ['GET'], controller: (_req, res) => { res.type('text/plain').send('ok'); } }));
  r.add('peek', new Route('/peek', { methods: ['GET'], controller: (req, res) => { res.json({ cart: req.session?.cart ?? null }); } }));
  r.add('cart_add', new Route('/cart/{item}', {
    methods: ['POST'],
    controller: (req, res) => {
      const session = requireSession(req);
      session.cart = [...(session.cart ?? []), String(req.params.item)];
      res.json({ cart: session.cart });
    },
  }));
  r.add('cart', new Route('/cart', { methods: ['GET'], controller: (req, res) => { res.json({ cart: requireSession(req).cart ?? [] }); } }));
  r.add('existing', new Route('/existing', {
    methods: ['GET'],
    controller: (req, res) => {
      // what the read-only layers see, then what a plain read of req.session starts
      const before = existingSession(req) === undefined ? null : req.sessionID;
      const id = req.session?.id ?? null;
      res.json({ before, id, after: existingSession(req)?.id ?? null });
    },
  }));
  r.add('info', new Route('/info', { methods: ['GET'], controller: (req, res) => { res.json(req.sessionInfo); } }));
  r.add('login', new Route('/login', {
    methods: ['POST'],
    controller: (req, res) => {
      Object.assign(requireSession(req), { user: 'ada', password: 'hunter2', apiToken: 'abc', jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', profile: { name: 'Ada', csrfToken: 'x' } });
      res.json({ ok: true });
    },
  }));
  r.add('logout', new Route('/logout', {
    methods: ['POST'],
    controller: (req, res, next) => {
      requireSession(req).destroy((err) => (err ? next(err) : res.json({ ok: true })));
    },
  }));
  return r;
}

declare module 'express-session' {
  interface SessionData {
    cart: string[];
  }
}

/** A debug kernel with the session layer and the test routes. */
export function sessionKernel(layer: SessionLayer, trustedProxies: string[] = []): Kernel {
  return createKernel({ routes: sessionRoutes(), debug: true, trustedProxies, layers: { session: layer } });
}

/** The `name=value` part of the response's session cookie, or undefined. */
export function sessionCookie(res: request.Response, name = 'EKSESSID'): string | undefined {
  const cookies = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  return cookies.find((c) => c.startsWith(`${name}=`))?.split(';')[0];
}
