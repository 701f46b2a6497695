/**
 * The back office behind the demo's `admin` firewall: the login page the screens render (fields,
 * the last username, the error in the page's language, the target path), ROLE_ADMIN only (a
 * ROLE_USER gets 403 pages and stores nothing), logout with the page's token, and no response to
 * an authenticated request (admin page, redirect, error, API answer) kept by any cache.
 */
import * as cheerio from 'cheerio';
import request from 'supertest';
import { DEMO_DEFAULTS } from '../../src/demo/app';
import { loggedIn, loginTokenOf, STORES, tokenFrom, type Demo } from './backOffice';

describe('the back office\'s login and access', () => {
  let demo: Demo;
  beforeEach(async () => { demo = await STORES[0][1](); });
  afterEach(() => demo.close());

  test('an anonymous request for a screen is redirected to the login page, then back after the login', async () => {
    const agent = request.agent(demo.kernel);
    const first = await agent.get('/admin/books?sort=title').set('Accept', 'text/html').expect(302);
    expect(first.headers.location).toMatch(/\/admin\/login$/);
    const page = await agent.get('/admin/login').expect(200);
    expect(page.text).toMatch(/<input type="text" id="username" name="_username" value=""/);
    expect(page.text).toMatch(/<input type="password" id="password" name="_password"/);
    const res = await agent.post('/admin/login').type('form')
      .send({ _username: 'admin', _password: 'admin', _csrf_token: loginTokenOf(page.text) });
    expect([302, 303]).toContain(res.status);
    expect(res.headers.location).toBe('/admin/books?sort=title');
    await agent.get('/admin/books?sort=title').expect(200);
  });

  test('a wrong password shows the generic error next to the kept username; in French for a French client', async () => {
    const agent = request.agent(demo.kernel);
    const page = await agent.get('/admin/login?_target_path=/admin/authors').expect(200);
    expect(page.text).toContain('<input type="hidden" name="_target_path" value="/admin/authors">');
    const failed = await agent.post('/admin/login').type('form')
      .send({ _username: 'admin', _password: 'nope', _csrf_token: loginTokenOf(page.text) });
    expect(failed.status).toBe(302);
    const again = await agent.get('/admin/login').set('Accept-Language', 'fr').expect(200);
    expect(again.text).toContain('<p class="error-summary" role="alert" id="login-error">Identifiants invalides.</p>');
    expect(again.text).toMatch(/name="_username" value="admin" autocomplete="username"\s+aria-invalid="true"/);
    const forgotten = await agent.get('/admin/login').expect(200);
    expect(forgotten.text).not.toContain('role="alert"'); // shown once
    // the login form does not carry a foreign target; the language switcher's own target is the
    // page itself (a local path), not the foreign host
    const $ = cheerio.load((await agent.get('/admin/login?_target_path=//evil.example').expect(200)).text);
    expect($('form:has(input[name=_username]) input[name=_target_path]')).toHaveLength(0);
    const targets = $('input[name=_target_path]').map((_, el) => $(el).attr('value')).get();
    expect(targets.every((t) => t.startsWith('/admin/login'))).toBe(true);
  });

  test('a logged-in ROLE_USER gets a 403 on every screen and stores nothing', async () => {
    const user = await loggedIn(demo.kernel, 'user');
    for (const url of ['/admin', '/admin/books', '/admin/books/1', '/admin/books/new', '/admin/books/1/edit']) {
      await user.get(url).expect(403);
    }
    const token = loginTokenOf((await user.get('/admin/login').expect(200)).text);
    await user.post('/admin/books/new').type('form').send({ _token: token, title: 'By a user' }).expect(403);
    await user.post('/admin/books/1/delete').type('form').send({ _token: token, _version: '1' }).expect(403);
    const admin = await loggedIn(demo.kernel);
    const index = await admin.get('/admin/books').expect(200);
    expect(index.text).not.toContain('By a user');
    expect(index.text).toContain('<caption>3 items</caption>');
  });

  test('a 400, 404 or 409 and a ROLE_USER\'s 403 are pages inside the admin layout: navigation and logout form, status kept', async () => {
    const inLayout = (html: string): void => {
      expect(html).toMatch(/<nav aria-label="[^"]+">\s*<ul>\s*<li><a href="\/admin">/);
      expect(html).toContain('<li><a href="/admin/books">Books</a></li>');
      expect(html).toMatch(/<form class="logout" method="post" action="\/admin\/logout">\s*<input type="hidden" name="_token" value="[^"]+">/);
    };
    const admin = await loggedIn(demo.kernel);
    const page = await admin.get('/admin/books?page=99').set('Accept', 'text/html').expect(400);
    inLayout(page.text);
    expect(page.text).toContain('The page 99 is out of range: the last page is 1.');
    inLayout((await admin.get('/admin/books?price%5Bgte%5D=abc').set('Accept', 'text/html').expect(400)).text);
    inLayout((await admin.get('/admin/books/999').set('Accept', 'text/html').expect(404)).text);
    const token = await tokenFrom(admin, '/admin/authors/1/delete');
    const referenced = await admin.post('/admin/authors/1/delete').set('Accept', 'text/html').type('form')
      .send({ _token: token, _version: '1' });
    expect(referenced.status).toBe(409);
    inLayout(referenced.text);
    const user = await loggedIn(demo.kernel, 'user');
    inLayout((await user.get('/admin/books').set('Accept', 'text/html').expect(403)).text);
  });

  test('logout needs the page\'s token: without it a 403 and the session stays; with it back to the login page', async () => {
    const admin = await loggedIn(demo.kernel);
    await admin.post('/admin/logout').type('form').send({ _token: 'nope' }).expect(403);
    const token = await tokenFrom(admin);
    const out = await admin.post('/admin/logout').type('form').send({ _token: token });
    expect([302, 303]).toContain(out.status);
    expect(out.headers.location).toMatch(/\/admin\/login$/);
    expect((await admin.get('/admin').set('Accept', 'text/html')).status).toBe(302);
  });

  test('every admin route answers a signed-in admin and a ROLE_USER with Cache-Control: no-store, whatever its status', async () => {
    const admin = await loggedIn(demo.kernel);
    const user = await loggedIn(demo.kernel, 'user');
    const routes = demo.kernel.routeCollection.all()
      .filter(([name]) => name.startsWith('admin_') && name !== 'admin_stylesheet');
    expect(routes.length).toBeGreaterThan(20); // the dashboard, the log, 2 resources' screens and actions
    const seen: string[] = [];
    for (const [name, route] of routes) {
      // a route's parameters from its requirements: the first choice (`feature|...`) or 1
      const path = route.path.replace(/\{(\w+)\}/g, (_m, p: string) => {
        const requirement = route.requirements[p] ?? '';
        return /^[\w|]+$/.test(requirement) ? requirement.split('|')[0] : '1';
      });
      for (const method of route.methods.length > 0 ? route.methods : ['GET']) {
        for (const [who, agent] of [['admin', admin], ['user', user]] as const) {
          const req = method === 'POST' ? agent.post(path).type('form').send({}) : agent.get(path);
          const res = await req.set('Accept', 'text/html');
          seen.push(`${name} ${method} ${who} ${res.status} ${String(res.headers['cache-control'])}`);
        }
      }
    }
    expect(seen.filter((line) => !line.endsWith(' no-store, private'))).toEqual([]);
    // the statuses were varied: pages, redirects, refusals (no CSRF token, no role)
    const statuses = new Set(seen.map((line) => line.split(' ')[3]));
    expect([...statuses].sort()).toEqual(expect.arrayContaining(['200', '403']));
  });

  test('every answer to an authenticated request is Cache-Control: no-store, whatever set it before', async () => {
    const admin = await loggedIn(demo.kernel);
    const token = await tokenFrom(admin);
    const answers = [
      await admin.get('/admin').expect(200), // a page
      await admin.get('/admin/books/1').expect(200),
      await admin.get('/admin/books/999').expect(404), // an error page (the renderer sets no-cache)
      await admin.post('/admin/books/1/edit').type('form').send({ _token: token, _version: '1', title: 'Hyperion' })
        .expect(303), // a redirect after a change
      await request(demo.kernel).get('/api/books').set('Authorization', `Bearer ${DEMO_DEFAULTS.apiToken}`).expect(200),
      await request(demo.kernel).get('/api/books/1').auth('admin', 'admin').expect(200),
    ];
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store, private');
    // anonymous answers keep their own: the API's public reads, the stylesheet
    const anonymous = await request(demo.kernel).get('/api/books').expect(200);
    expect(anonymous.headers['cache-control'] ?? '').not.toContain('no-store');
    const css = await admin.get('/bundles/admin/admin.css').expect(200);
    expect(css.headers['cache-control']).toBe('public, max-age=3600');
  });
});
