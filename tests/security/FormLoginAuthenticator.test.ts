import request from 'supertest';
import { profileOf } from '../../src/testing';
import { FormLoginAuthenticator } from '../../src/security/FormLoginAuthenticator';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { firewall } from '../../src/security/firewall';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { createKernel } from '../../src/kernel/createKernel';
import type { KernelOptions } from '../../src/kernel/options';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { basic, testUsers } from './support';
import { Browser, formLoginKernel, FormLoginKernel } from './formLoginKernel';

describe('FormLoginAuthenticator (firewall admin, real SQLite sessions and throttling)', () => {
  let k: FormLoginKernel;
  beforeEach(() => { k = formLoginKernel(3); });
  afterEach(async () => { await k.close(); });

  describe('entry point', () => {
    test('an anonymous HTML GET is redirected (302) to the login page, and the login goes back to that URL', async () => {
      const browser = new Browser(k.kernel);
      const res = await browser.get('/admin/books?page=2&sort=title');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/admin/login');
      expect((await browser.session())?.['_security.admin.target_path']).toBe('/admin/books?page=2&sort=title');

      const login = await browser.login('admin', 'admin');
      expect(login.status).toBe(302);
      expect(login.headers.location).toBe('/admin/books?page=2&sort=title');
      const page = await browser.get('/admin/books');
      expect([page.status, page.text]).toEqual([200, 'books']);
      // used once: forgotten after the login
      expect((await browser.session())?.['_security.admin.target_path']).toBeUndefined();
    });

    test('a JSON client is redirected too (Symfony form_login), but its URL is not saved', async () => {
      const browser = new Browser(k.kernel);
      const res = await browser.get('/admin/books', 'application/json');
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
      expect((await browser.login('admin', 'admin')).headers.location).toBe('/admin');
    });

    test('an anonymous POST is redirected without saving anything: no session is started', async () => {
      const res = await request(k.kernel).post('/admin/books').type('form').send({ a: 'b' });
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    test('the login page itself is public', async () => {
      const res = await request(k.kernel).get('/admin/login').set('Accept', 'application/json');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ error: null, lastUsername: '', user: null });
      expect(res.body.csrf).toMatch(/^[0-9a-f]{64}$/);
    });
  });

  describe('success', () => {
    test('rotates the session id, keeps the user in the session and redirects to the default target', async () => {
      const browser = new Browser(k.kernel);
      const { csrf } = await browser.loginPage();
      const before = browser.cookie;
      expect(before).toBeDefined();
      const res = await browser.post('/admin/login', { _username: ' admin ', _password: 'admin', _csrf_token: csrf });
      expect([res.status, res.headers.location]).toEqual([302, '/admin']);
      expect(browser.cookie).toBeDefined();
      expect(browser.cookie).not.toBe(before);
      const session = await browser.session();
      expect(session?._security_admin).toBe('admin');
      // a fresh CSRF token after the login (CVE-2022-24895): the old one is gone
      expect(session?._csrf_token).toBeUndefined();
      expect((await browser.loginPage()).csrf).not.toBe(csrf);
      // the old session id is dead
      const old = await request(k.kernel).get('/admin').set('Cookie', before!).set('Accept', 'text/html');
      expect([old.status, old.headers.location]).toEqual([302, '/admin/login']);
    });

    test('_target_path wins when it is a local path; an absolute or protocol-relative URL is ignored', async () => {
      const a = new Browser(k.kernel);
      expect((await a.login('admin', 'admin', { _target_path: '/admin/books?x=1' })).headers.location)
        .toBe('/admin/books?x=1');
      for (const evil of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
        const b = new Browser(k.kernel);
        expect((await b.login('admin', 'admin', { _target_path: evil })).headers.location).toBe('/admin');
      }
    });

    test('the profiler\'s security panel shows the firewall and the form_login authenticator', async () => {
      const browser = new Browser(k.kernel);
      const res = await browser.login('admin', 'admin');
      const profile = await profileOf(res, k.kernel);
      expect(profile.collectors.security).toMatchObject({ firewall: 'admin', user: 'admin', authenticator: 'form_login' });
      const panel = await request(k.kernel).get(`/_profiler/${profile.token}?panel=security`);
      expect(panel.status).toBe(200);
      expect(panel.text).toMatch(/Authenticator<\/th><td>form_login</);
      expect(panel.text).toContain('admin');
    });

    test('the profile of a login attempt holds neither the password nor the CSRF token', async () => {
      const browser = new Browser(k.kernel);
      const { csrf } = await browser.loginPage();
      const res = await browser.post('/admin/login', { _username: 'admin', _password: 'hunter2-secret', _csrf_token: csrf });
      const profile = JSON.stringify(await profileOf(res, k.kernel));
      expect(profile).toContain('_username');
      expect(profile).not.toContain('hunter2-secret');
      expect(profile).not.toContain(csrf);
    });
  });

  describe('failure', () => {
    test('a wrong password redirects to the login page, which shows the error once and keeps the username', async () => {
      const browser = new Browser(k.kernel);
      const res = await browser.login('admin', 'nope');
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
      const page = await browser.loginPage();
      expect(page).toMatchObject({ error: 'Invalid credentials.', lastUsername: 'admin', user: null });
      expect((await browser.loginPage()).error).toBeNull();
      expect((await browser.session())?._security_admin).toBeUndefined();
      expect((await browser.get('/admin')).headers.location).toBe('/admin/login');
    });

    test('an unknown user gets the same generic error', async () => {
      const browser = new Browser(k.kernel);
      await browser.login('mallory', 'x');
      expect(await browser.loginPage()).toMatchObject({ error: 'Invalid credentials.', lastUsername: 'mallory' });
    });

    test('a missing or wrong CSRF token logs nobody in and counts no throttled attempt', async () => {
      const browser = new Browser(k.kernel);
      await browser.loginPage();
      // more bad-token attempts than maxAttempts (3), with the right and the wrong password
      for (const [password, token] of [['admin', 'forged'], ['nope', ''], ['nope', 'x'], ['admin', undefined]] as const) {
        const form: Record<string, string> = { _username: 'admin', _password: password };
        if (token !== undefined) form._csrf_token = token;
        const res = await browser.post('/admin/login', form);
        expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
        expect(await browser.loginPage()).toMatchObject({ error: 'Invalid CSRF token.', user: null });
        expect((await browser.session())?._security_admin).toBeUndefined();
      }
      // not throttled: the next wrong password is a plain bad credentials, the right one logs in
      await browser.login('admin', 'nope');
      expect((await browser.loginPage()).error).toBe('Invalid credentials.');
      expect((await browser.login('admin', 'admin')).headers.location).toBe('/admin');
    });

    test('a form without _username or _password is a 400 naming the field; a repeated field too', async () => {
      const browser = new Browser(k.kernel);
      const { csrf } = await browser.loginPage();
      const missing = await browser.post('/admin/login', { _password: 'admin', _csrf_token: csrf });
      expect(missing.status).toBe(400);
      expect(missing.text).toContain('The key &quot;_username&quot; must be a string.');
      const twice = await browser.post('/admin/login', { _username: 'admin', _password: ['a', 'b'], _csrf_token: csrf });
      expect(twice.status).toBe(400);
      const json = await request(k.kernel).post('/admin/login').set('Accept', 'application/json').send({ _username: 'admin' });
      expect([json.status, json.body.detail]).toEqual([400, 'The key "_username" must be a string.']);
    });
  });

  describe('access', () => {
    test('a logged-in ROLE_USER gets a 403 HTML page, not a redirect', async () => {
      const browser = new Browser(k.kernel);
      expect((await browser.login('alice', 'alice')).headers.location).toBe('/admin');
      const res = await browser.get('/admin');
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers.location).toBeUndefined();
    });

    test('the admin session does not authenticate the main firewall (separate contexts), nor Basic the admin one', async () => {
      const browser = new Browser(k.kernel);
      await browser.login('admin', 'admin');
      expect((await browser.get('/api/me', 'application/json')).body).toEqual({ user: null });
      const res = await request(k.kernel).get('/admin').set('Authorization', basic('admin', 'admin')).set('Accept', 'text/html');
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
    });
  });

  describe('login throttling shared with the main firewall (same store, same limits, same counters)', () => {
    test('failed form logins and failed Basic logins of one username and IP count together', async () => {
      const browser = new Browser(k.kernel);
      await browser.login('admin', 'nope');
      await browser.login('admin', 'nope');
      expect((await request(k.kernel).get('/api/me').set('Authorization', basic('admin', 'nope'))).status).toBe(401);
      // 3 failures (maxAttempts): Basic is refused with a 429 before the password is checked
      const basicRes = await request(k.kernel).get('/api/me').set('Authorization', basic('admin', 'admin'));
      expect(basicRes.status).toBe(429);
      expect(basicRes.headers['retry-after']).toMatch(/^\d+$/);
      // the form comes back to the login page with the throttling message, right password or not
      const res = await browser.login('admin', 'admin');
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
      expect((await browser.loginPage()).error).toBe('Too many failed login attempts, please try again in 1 minute.');
      expect((await browser.session())?._security_admin).toBeUndefined();
      // another username from the same IP is not affected
      expect((await browser.login('alice', 'alice')).headers.location).toBe('/admin');
    });
  });
});

describe('new FormLoginAuthenticator(options)', () => {
  test('refuses a login path that is not a local path, naming the option', () => {
    expect(() => new FormLoginAuthenticator({ loginPath: 'admin/login' })).toThrow(KernelConfigError);
    expect(() => new FormLoginAuthenticator({ loginPath: 'admin/login' })).toThrow(/Invalid option "loginPath"/);
    expect(() => new FormLoginAuthenticator({ defaultTargetPath: '//evil.example' })).toThrow(/"defaultTargetPath"/);
  });

  test('on a stateless firewall it is refused at start-up, naming the option', () => {
    const fw = { name: 'admin', stateless: true, provider: testUsers(), authenticators: [new FormLoginAuthenticator()] };
    expect(() => firewall({ firewalls: [fw] })).toThrow(/Invalid option "firewalls\[0\]\.stateless": an interactive login/);
  });

  test('in a kernel without a session layer it is refused at start-up, naming the firewall and the fix', () => {
    const security = (stateless?: boolean) => ({
      firewalls: [
        { name: 'api', pattern: '^/api', stateless: true, provider: testUsers(), authenticators: [new HttpBasicAuthenticator()] },
        { name: 'admin', stateless, provider: testUsers(), authenticators: [new FormLoginAuthenticator()] },
      ],
    });
    const start = (o: Partial<KernelOptions>): unknown => createKernel({ routes: new RouteCollection(), secret: 'a-test-secret-of-at-least-32-characters!', ...o });
    expect(() => start({ security: security() })).toThrow(KernelConfigError);
    expect(() => start({ security: security() })).toThrow(
      'Invalid option "security.firewalls[1].authenticators": firewall "admin" has an interactive login (form_login), '
      + 'which keeps the user in the session, and the kernel has no session layer',
    );
    expect(() => start({ security: security() })).toThrow(/set `session`/);
    // a session of the kernel's, or one plugged in, and it starts
    expect(start({ security: security(), session: { store: 'sqlite', sqlitePath: ':memory:' } })).toBeDefined();
    expect(start({ security: security(), layers: { session: (_req, _res, next) => next() } })).toBeDefined();
    expect(() => start({ security: security(), layers: { session: [] } })).toThrow(/has no session layer/);
    // HTTP Basic alone needs no session
    expect(start({ security: { firewalls: [security().firewalls[0]] } })).toBeDefined();
  });

  test('refuses unknown options', () => {
    expect(() => new FormLoginAuthenticator({ login_path: '/login' } as never)).toThrow(/login_path/);
  });

  test('defaults to Symfony\'s: /login for both pages, _username, _password, _csrf_token, target /', () => {
    const a = new FormLoginAuthenticator();
    expect([a.loginPath, a.checkPath, a.defaultTargetPath]).toEqual(['/login', '/login', '/']);
  });
});
