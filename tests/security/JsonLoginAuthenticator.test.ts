import request from 'supertest';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { JsonLoginAuthenticator } from '../../src/security/JsonLoginAuthenticator';
import type { FirewallOptions } from '../../src/security/FirewallOptions';
import { cookieOf, HIERARCHY, memorySession, securedKernel, testUsers } from './support';

const provider = testUsers();

function options(stateless = false): FirewallOptions {
  return {
    firewalls: [{ name: 'main', stateless, provider, authenticators: [new JsonLoginAuthenticator({ checkPath: '/api/login' }), new HttpBasicAuthenticator()] }],
    accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
    roleHierarchy: HIERARCHY,
  };
}

const login = (username: unknown, password: unknown) => JSON.stringify({ username, password });

describe('JsonLoginAuthenticator', () => {
  const kernel = securedKernel(options(), { session: memorySession() });

  describe('success', () => {
    test('answers 200 {user, roles}, gives the session a new id, and later requests are authenticated by it', async () => {
      const cart = await request(kernel).post('/api/cart');
      const before = cookieOf(cart.headers['set-cookie']);
      expect(before).toBeDefined();

      const res = await request(kernel).post('/api/login').set('Cookie', before!).set('Content-Type', 'application/json').send(login('admin', 'admin'));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: 'admin', roles: ['ROLE_ADMIN', 'ROLE_USER'] });
      const after = cookieOf(res.headers['set-cookie']);
      expect(after).toBeDefined();
      expect(after).not.toBe(before);

      const me = await request(kernel).get('/api/me').set('Cookie', after!);
      expect(me.body.user).toBe('admin');
      expect(me.body.security.authenticator).toBe('session');
      expect((await request(kernel).get('/admin').set('Cookie', after!)).status).toBe(200);
      // migrate: the session data moved to the new id
      expect((await request(kernel).get('/api/cart').set('Cookie', after!)).body).toEqual({ cart: 'book-1' });
      // the old id is dead (fixation)
      const old = await request(kernel).get('/api/me').set('Cookie', before!);
      expect(old.body.user).toBeNull();
    });

    test('a session user that no longer exists is dropped: the client is anonymous again', async () => {
      const users = testUsers();
      let gone = false;
      const vanishing = {
        loadUserByIdentifier: async (id: string) => (gone ? null : users.loadUserByIdentifier(id)),
        checkPassword: (id: string, pw: string) => users.checkPassword(id, pw),
      };
      const k = securedKernel({ firewalls: [{ name: 'main', provider: vanishing, authenticators: [new JsonLoginAuthenticator()] }] }, { session: memorySession() });
      const res = await request(k).post('/api/login').send({ username: 'alice', password: 'alice' });
      const cookie = cookieOf(res.headers['set-cookie'])!;
      expect((await request(k).get('/api/me').set('Cookie', cookie)).body.user).toBe('alice');
      gone = true;
      expect((await request(k).get('/api/me').set('Cookie', cookie)).body.user).toBeNull();
    });

    test('a stateless firewall answers the login but remembers nothing', async () => {
      const k = securedKernel(options(true), { session: memorySession() });
      const res = await request(k).post('/api/login').send({ username: 'admin', password: 'admin' });
      expect(res.status).toBe(200);
      expect(cookieOf(res.headers['set-cookie'])).toBeUndefined();
    });
  });

  describe('failure', () => {
    test('a wrong password is a 401 {"error":"Invalid credentials."} and authenticates nothing', async () => {
      const res = await request(kernel).post('/api/login').set('Content-Type', 'application/json').send(login('admin', 'nope'));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid credentials.' });
      expect(cookieOf(res.headers['set-cookie'])).toBeUndefined();
    });

    test('an unknown user gets the same answer', async () => {
      const res = await request(kernel).post('/api/login').send({ username: 'mallory', password: 'x' });
      expect([res.status, res.body]).toEqual([401, { error: 'Invalid credentials.' }]);
    });

    test.each([
      ['{"username": "admin", ', /^Malformed JSON body: /],
      [JSON.stringify(['admin', 'admin']), /^Invalid JSON\.$/],
      [JSON.stringify({ password: 'admin' }), /^The key "username" must be provided\.$/],
      [JSON.stringify({ username: 1, password: 'admin' }), /^The key "username" must be a string\.$/],
      [JSON.stringify({ username: 'admin' }), /^The key "password" must be provided\.$/],
      // the right credentials, with 512 more levels of arrays: every JSON body has the depth limit
      [`{"username":"admin","password":"admin","x":${'['.repeat(512)}${']'.repeat(512)}}`,
        /^Malformed JSON body: nested deeper than the limit of 512 arrays and objects\.$/],
    ])('the body %s is a 400', async (body, message) => {
      const res = await request(kernel).post('/api/login').set('Content-Type', 'application/json').set('Accept', 'application/json').send(body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(message);
    });

    test('an empty password is bad credentials, not a 400', async () => {
      const res = await request(kernel).post('/api/login').send({ username: 'admin', password: '' });
      expect(res.status).toBe(401);
    });

    test('a login that is not JSON is not for this authenticator: routing answers', async () => {
      const res = await request(kernel).post('/api/login').type('form').send('username=admin&password=admin');
      expect(res.status).toBe(404);
    });

    test('a GET on the check path is not a login', async () => {
      const res = await request(kernel).get('/api/login');
      expect(res.status).toBe(404);
    });
  });

  describe('session layer down', () => {
    test('a login while the session store is down is a 503, not a silent success', async () => {
      const flagDown = (req: import('express').Request, _res: unknown, next: () => void) => { (req as unknown as { sessionUnavailable: boolean }).sessionUnavailable = true; next(); };
      const k = securedKernel(options(), { session: flagDown as never });
      const res = await request(k).post('/api/login').set('Accept', 'application/json').send({ username: 'admin', password: 'admin' });
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe('Session storage is unavailable.');
    });
  });

  describe('new JsonLoginAuthenticator(options)', () => {
    test('rejects a check path without a leading slash', () => {
      expect(() => new JsonLoginAuthenticator({ checkPath: 'api/login' })).toThrow('Invalid option "checkPath": expected a path starting with "/" (got "api/login").');
    });
    test('reads nested username and password paths', async () => {
      const k = securedKernel({ firewalls: [{ name: 'main', provider, authenticators: [new JsonLoginAuthenticator({ usernamePath: 'credentials.login', passwordPath: 'credentials.secret' })] }] });
      const res = await request(k).post('/api/login').send({ credentials: { login: 'alice', secret: 'alice' } });
      expect(res.body).toEqual({ user: 'alice', roles: ['ROLE_USER'] });
    });
  });
});
