import request from 'supertest';
import { firewall } from '../../src/security/firewall';
import { KernelConfigError } from '../../src/config/KernelConfigError';
import { Browser, formLoginKernel, FormLoginKernel } from './formLoginKernel';
import { testUsers } from './support';

describe('LogoutListener (POST /admin/logout on the admin firewall)', () => {
  let k: FormLoginKernel;
  let browser: Browser;
  beforeEach(async () => {
    k = formLoginKernel();
    browser = new Browser(k.kernel);
    expect((await browser.login('admin', 'admin')).headers.location).toBe('/admin');
    expect((await browser.get('/admin')).status).toBe(200);
  });
  afterEach(async () => { await k.close(); });

  test('with the session\'s token: ends the session and redirects (302) to the login page', async () => {
    const { csrf } = await browser.loginPage();
    const res = await browser.post('/admin/logout', { _token: csrf });
    expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
    expect(res.text).not.toContain('never');
    const after = await browser.get('/admin');
    expect([after.status, after.headers.location]).toEqual([302, '/admin/login']);
    // the whole session is gone, the old CSRF token with it
    expect((await browser.session())?._security_admin).toBeUndefined();
    const again = await browser.post('/admin/logout', { _token: csrf });
    expect(again.status).toBe(403);
  });

  test.each([
    ['no token', {}],
    ['a wrong token', { _token: 'x'.repeat(64) }],
    ['the token twice', 'twice'],
    ['an empty token', { _token: '' }],
  ])('with %s: 403 Invalid CSRF token., and the session stays logged in', async (_label, form) => {
    const { csrf } = await browser.loginPage();
    const body = form === 'twice' ? { _token: [csrf, csrf] } : form;
    const res = await browser.post('/admin/logout', body);
    expect(res.status).toBe(403);
    expect(res.text).toContain('Invalid CSRF token.');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect((await browser.get('/admin')).status).toBe(200);
  });

  test('another session\'s token is refused', async () => {
    const other = new Browser(k.kernel);
    const { csrf } = await other.loginPage();
    expect((await browser.post('/admin/logout', { _token: csrf })).status).toBe(403);
    expect((await browser.get('/admin')).status).toBe(200);
  });

  test('GET /admin/logout is not a logout: the router answers 405 (Allow: POST)', async () => {
    const res = await browser.get('/admin/logout');
    expect([res.status, res.headers.allow]).toEqual([405, 'POST']);
    expect((await browser.get('/admin')).status).toBe(200);
  });

  test('an anonymous client without a session gets the 403 too', async () => {
    const res = await request(k.kernel).post('/admin/logout').type('form').send({ _token: 'x' });
    expect(res.status).toBe(403);
  });
});

describe('firewalls[].logout options', () => {
  test('refuse a path that is not local and unknown keys, naming the option', () => {
    const base = { name: 'admin', provider: testUsers(), authenticators: [] };
    expect(() => firewall({ firewalls: [{ ...base, logout: { path: 'logout' } }] }))
      .toThrow(/Invalid option "firewalls\[0\]\.logout\.path"/);
    expect(() => firewall({ firewalls: [{ ...base, logout: { paht: '/logout' } as never }] })).toThrow(KernelConfigError);
  });
});
