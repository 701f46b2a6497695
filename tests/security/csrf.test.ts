import fc from 'fast-check';
import type { Request } from 'express';
import request from 'supertest';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { csrfToken, isCsrfTokenValid } from '../../src/security/csrf';
import { sessionCookie } from './formLoginKernel';

/** `/token` prints the session's token, `/check?token=` whether a token is valid, `/keep` keeps its request. */
function routes(kept: Request[]): RouteCollection {
  const r = new RouteCollection();
  r.add('token', new Route('/token', { methods: ['GET'], controller: (req, res) => { res.json({ token: csrfToken(req) }); } }));
  r.add('check', new Route('/check', {
    methods: ['GET'],
    controller: (req, res) => { res.json({ valid: isCsrfTokenValid(req, req.query.token) }); },
  }));
  r.add('keep', new Route('/keep', { methods: ['GET'], controller: (req, res) => { kept.push(req); res.json({ ok: true }); } }));
  return r;
}

describe('csrf', () => {
  const kept: Request[] = [];
  const kernel = createKernel({
    routes: routes(kept), debug: true, secret: 'a-test-secret-of-at-least-32-characters!', session: { store: 'sqlite', sqlitePath: ':memory:' },
  });
  afterAll(async () => { await kernel.close(); });

  describe('csrfToken(req)', () => {
    test('creates a 64-hex token in the session (starting it) and gives the same one afterwards', async () => {
      const first = await request(kernel).get('/token');
      const cookie = sessionCookie(first);
      expect(cookie).toBeDefined();
      expect(first.body.token).toMatch(/^[0-9a-f]{64}$/);
      const again = await request(kernel).get('/token').set('Cookie', cookie!);
      expect(again.body.token).toBe(first.body.token);
      const other = await request(kernel).get('/token');
      expect(other.body.token).not.toBe(first.body.token);
    });

    test('without the session layer it throws a clear error (a 500 naming the missing layer)', async () => {
      const bare = createKernel({ routes: routes([]), debug: true });
      const res = await request(bare).get('/token').set('Accept', 'application/json');
      expect(res.status).toBe(500);
      expect(res.body.detail).toMatch(/^csrfToken\(\) needs the session layer/);
      expect((await request(bare).get('/check?token=x').set('Accept', 'application/json')).body).toEqual({ valid: false });
    });
  });

  describe('isCsrfTokenValid(req, submitted)', () => {
    test('accepts the session\'s token, refuses another session\'s and a request without session', async () => {
      const mine = await request(kernel).get('/token');
      const cookie = sessionCookie(mine)!;
      const theirs = (await request(kernel).get('/token')).body.token as string;
      const check = (token: string, withCookie = true) => {
        const req = request(kernel).get('/check').query({ token });
        return (withCookie ? req.set('Cookie', cookie) : req).then((r) => r.body.valid as boolean);
      };
      expect(await check(mine.body.token)).toBe(true);
      expect(await check(theirs)).toBe(false);
      expect(await check(mine.body.token.toUpperCase())).toBe(false);
      expect(await check(mine.body.token, false)).toBe(false);
      // an array (?token=a&token=a) is never a token
      const twice = await request(kernel).get(`/check?token=${mine.body.token}&token=${mine.body.token}`).set('Cookie', cookie);
      expect(twice.body.valid).toBe(false);
    });

    test('property: it never accepts anything but the token, and never throws', async () => {
      const first = await request(kernel).get('/token');
      const token = first.body.token as string;
      await request(kernel).get('/keep').set('Cookie', sessionCookie(first)!);
      const req = kept.at(-1)!;
      expect(isCsrfTokenValid(req, token)).toBe(true);
      const near = fc.nat({ max: token.length - 1 }).chain((i) => fc.constantFrom(
        token.slice(0, i), `${token}${token[i]}`, `${token.slice(0, i)}${token[i] === 'a' ? 'b' : 'a'}${token.slice(i + 1)}`,
        ` ${token}`, `${token}\n`, [token], { token }, { toString: () => token },
      ));
      const anything = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.anything(), fc.integer(), fc.double(),
        fc.constant(undefined), fc.constant(null), fc.array(fc.string()), near);
      fc.assert(fc.property(anything, (value) => {
        const expected = value === token;
        expect(isCsrfTokenValid(req, value)).toBe(expected);
      }), { numRuns: 2000 });
      // a request that never had a session, and a session without a token
      const bare = Object.create(req) as Request;
      Object.defineProperty(bare, 'session', { value: undefined });
      fc.assert(fc.property(fc.anything(), (value) => !isCsrfTokenValid(bare, value)));
    });
  });
});
