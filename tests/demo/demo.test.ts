import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createDemoKernel, DEMO_DEFAULTS, DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';
import { Browser, withTokenPage } from './demoBrowser';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const ADMIN = basic('admin', 'admin');
const USER = basic('user', 'user');

describe('the demo service', () => {
  let kernel: DemoKernel;
  beforeEach(() => { kernel = createDemoKernel({ debug: true }); });
  afterEach(() => kernel.close());

  describe('firewall matrix (anonymous, user, admin × path × method)', () => {
    // ^/admin is the admin firewall (form login): Basic credentials mean nothing there
    const cells: Array<[string, string, string | null, number]> = [
      ['GET', '/admin', null, 302],
      ['GET', '/admin', USER, 302],
      ['GET', '/admin', ADMIN, 302],
      ['POST', '/admin', null, 302],
      ['GET', '/admin/nope', null, 302],
      ['GET', '/admin/nope', ADMIN, 302],
      ['GET', '/api/books', null, 200],
      ['GET', '/api/books', USER, 200],
      ['DELETE', '/api/books', ADMIN, 405],
      ['GET', '/nope', null, 404],
      ['GET', '/nope', USER, 404],
      ['GET', '/api/books/1', ADMIN, 200],
    ];
    test.each(cells)('%s %s as %s → %i', async (method, target, auth, status) => {
      let req = request(kernel)[method.toLowerCase() as 'get'](target);
      if (auth !== null) req = req.set('Authorization', auth);
      const res = await req;
      expect(res.status).toBe(status);
      if (status === 401) expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
      if (status === 302) expect(res.headers.location).toBe('/admin/login');
    });

    test('a wrong password is a 401 and the 6th attempt within a minute is a 429 with Retry-After', async () => {
      for (let i = 0; i < 5; i++) expect((await request(kernel).get('/api/books').set('Authorization', basic('admin', 'nope'))).status).toBe(401);
      const res = await request(kernel).get('/api/books').set('Authorization', basic('admin', 'nope'));
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    test('the 404 profile knows the user (the firewall ran before routing)', async () => {
      const res = await request(kernel).get('/nope').set('Authorization', ADMIN);
      const profile = await kernel.profiler?.storage.read(String(res.headers['x-debug-token']));
      expect(profile?.statusCode).toBe(404);
      expect(JSON.stringify(profile?.collectors)).toContain('admin');
      expect(JSON.stringify(profile)).not.toContain(ADMIN.slice(6));
    });
  });

  describe('books and authors as API resources', () => {
    const MERGE = 'application/merge-patch+json';
    test('an anonymous client reads; writing needs ROLE_USER (the firewall\'s Basic challenge)', async () => {
      expect((await request(kernel).get('/api/books/1')).body).toMatchObject({ '@id': '/api/books/1', title: 'Dune', author: '/api/authors/1' });
      const anon = await request(kernel).post('/api/books').send({ title: 'Neuromancer' });
      expect(anon.status).toBe(401);
      expect(anon.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
      const user = await request(kernel).post('/api/books').set('Authorization', USER).send({ title: 'Neuromancer' });
      expect(user.status).toBe(201);
      expect((await request(kernel).get(user.headers.location)).body).toMatchObject({ title: 'Neuromancer', featured: false });
    });

    test('only an admin may set featured: true; a refused request persists nothing', async () => {
      const before = (await request(kernel).get('/api/books/2').set('Accept', 'application/json')).body;
      const user = await request(kernel).patch('/api/books/2').set('Authorization', USER).set('Content-Type', MERGE)
        .send(JSON.stringify({ featured: true }));
      expect(user.status).toBe(403);
      expect(user.body['hydra:description']).toBe('Only an admin may feature a book.');
      expect((await request(kernel).get('/api/books/2').set('Accept', 'application/json')).body).toEqual(before);
      const admin = await request(kernel).patch('/api/books/2').set('Authorization', ADMIN).set('Content-Type', MERGE)
        .send(JSON.stringify({ featured: true }));
      expect(admin.status).toBe(200);
      expect(admin.body).toMatchObject({ id: 2, title: 'Hyperion', featured: true });
    });

    test('DELETE needs ROLE_ADMIN: a user gets 403, an admin 204', async () => {
      const created = await request(kernel).post('/api/books').set('Authorization', USER).send({ title: 'Gone' });
      expect((await request(kernel).delete(created.headers.location).set('Authorization', USER)).status).toBe(403);
      expect((await request(kernel).delete(created.headers.location).set('Authorization', ADMIN)).status).toBe(204);
      expect((await request(kernel).get(created.headers.location)).status).toBe(404);
    });

    test('a malformed JSON body is a 400 with a message that does not echo the body, never a 500', async () => {
      const res = await request(kernel).post('/api/books').set('Authorization', USER).set('Content-Type', 'application/json')
        .set('Accept', 'application/json').send('{"title":"secret-title');
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^Malformed JSON body/);
      expect(res.text).not.toContain('secret-title');
    });

    test('an unknown book is a 404 with its id', async () => {
      const res = await request(kernel).get('/api/books/999').set('Accept', 'application/json');
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe('Not Found: no Book has the id "999".');
    });
  });

  describe('/api/time', () => {
    test('shows the locale and time zone, with the source that chose each', async () => {
      const res = await request(kernel).get('/api/time').set('Accept-Language', 'de-DE,de;q=0.9').set('Time-Zone', 'Europe/Paris');
      expect(res.status).toBe(200);
      expect(res.headers['content-language']).toBe('de');
      expect(res.body).toMatchObject({ locale: 'de', localeSource: 'header', timeZone: 'Europe/Paris', timeZoneSource: 'header' });
      expect(res.body.local).toMatch(/MEZ|MESZ|GMT\+1|GMT\+2|Mitteleuropäische/);
    });

    test('an invalid Time-Zone header is a 400 with the value in the message', async () => {
      const res = await request(kernel).get('/api/time').set('Time-Zone', 'Mars/Olympus').set('Accept', 'application/json');
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain('Mars/Olympus');
    });
  });

  test('CORS on ^/api answers an allowed preflight and exposes the debug token headers', async () => {
    const res = await request(kernel).options('/api/books').set('Origin', 'http://localhost:3000').set('Access-Control-Request-Method', 'POST');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    const get = await request(kernel).get('/api/books').set('Origin', 'http://localhost:3000');
    expect(get.headers['access-control-expose-headers']).toMatch(/X-Debug-Token/);
  });
});

describe('the demo on a SQLite file', () => {
  test('sessions survive a new kernel on the same file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-demo-'));
    const file = path.join(dir, 'demo.sqlite');
    const a = createDemoKernel({ sqlitePath: file, extendRoutes: withTokenPage });
    const browser = new Browser(a);
    expect((await browser.login('admin', 'admin')).headers.location).toBe('/admin');
    expect(browser.cookie).toBeDefined();
    await a.close();

    const b = createDemoKernel({ sqlitePath: file });
    const again = await request(b).get('/admin').set('Cookie', browser.cookie!);
    expect(again.status).toBe(200);
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the demo on its SQL store', () => {
  test('books written through the API survive a new kernel and store on the same SQLite file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-demo-sql-'));
    const file = path.join(dir, 'demo.sqlite');
    const first = await openDemoDatabase({ SQLITE_PATH: file });
    const a = createDemoKernel({ sqlitePath: file, store: first });
    const created = await request(a).post('/api/books').set('Authorization', USER).send({ title: 'Kept', author: '/api/authors/3' });
    expect(created.status).toBe(201);
    await a.close();
    await first.close();

    const second = await openDemoDatabase({ SQLITE_PATH: file });
    const b = createDemoKernel({ sqlitePath: file, store: second });
    const res = await request(b).get(created.headers.location).set('Accept', 'application/json');
    expect(res.body).toMatchObject({ title: 'Kept', author: '/api/authors/3' });
    expect((await request(b).get('/api/books/1')).body.title).toBe('Dune');
    await b.close();
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the back office\'s firewall (admin, form login) and the API\'s (main, Basic and bearer)', () => {
  let kernel: DemoKernel;
  beforeEach(() => { kernel = createDemoKernel({ debug: true, extendRoutes: withTokenPage }); });
  afterEach(() => kernel.close());

  test('an admin logs in through the form, reaches /admin, and logs out with the CSRF token', async () => {
    const browser = new Browser(kernel);
    const first = await browser.get('/admin/nope?x=1');
    expect([first.status, first.headers.location]).toEqual([302, '/admin/login']);
    const login = await browser.login('admin', 'admin');
    expect([login.status, login.headers.location]).toEqual([302, '/admin/nope?x=1']);
    expect((await browser.get('/admin')).status).toBe(200);
    const { csrf } = await browser.loginPage();
    expect((await browser.post('/admin/logout', { _token: 'forged' })).status).toBe(403);
    expect((await browser.get('/admin')).status).toBe(200);
    const out = await browser.post('/admin/logout', { _token: csrf });
    expect([out.status, out.headers.location]).toEqual([302, '/admin/login']);
    expect((await browser.get('/admin')).headers.location).toBe('/admin/login');
  });

  test('the login page is public: never redirected to itself', async () => {
    const res = await request(kernel).get('/admin/login').set('Accept', 'text/html');
    expect(res.status).not.toBe(302);
    expect(res.status).toBeLessThan(500);
  });

  test('a logged-in ROLE_USER gets a 403 HTML page', async () => {
    const browser = new Browser(kernel);
    expect((await browser.login('user', 'user')).headers.location).toBe('/admin');
    const res = await browser.get('/admin');
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  test('failed form logins and failed Basic logins share the throttling counters (5 per minute)', async () => {
    const browser = new Browser(kernel);
    for (let i = 0; i < 3; i++) expect((await browser.login('admin', 'nope')).headers.location).toBe('/admin/login');
    for (let i = 0; i < 2; i++) expect((await request(kernel).get('/api/books').set('Authorization', basic('admin', 'nope'))).status).toBe(401);
    expect((await request(kernel).get('/api/books').set('Authorization', ADMIN)).status).toBe(429);
    expect((await browser.login('admin', 'admin')).headers.location).toBe('/admin/login');
    expect((await browser.get('/admin')).headers.location).toBe('/admin/login');
  });

  test('a bearer token writes to the API as admin; a wrong one is a 401 invalid_token', async () => {
    const bearer = `Bearer ${DEMO_DEFAULTS.apiToken}`;
    const created = await request(kernel).post('/api/books').set('Authorization', bearer).send({ title: 'Solaris' });
    expect(created.status).toBe(201);
    expect((await request(kernel).delete(created.headers.location).set('Authorization', bearer)).status).toBe(204);
    const wrong = await request(kernel).post('/api/books').set('Authorization', 'Bearer nope').send({ title: 'X' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer error="invalid_token",error_description="Invalid credentials."');
    // anonymous: the entry point is still HTTP Basic's challenge
    const anon = await request(kernel).post('/api/books').send({ title: 'X' });
    expect(anon.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
  });

  test('apiToken: null turns bearer tokens off; a token the header cannot carry is refused at start-up', async () => {
    const off = createDemoKernel({ apiToken: null });
    const res = await request(off).post('/api/books').set('Authorization', `Bearer ${DEMO_DEFAULTS.apiToken}`).send({ title: 'X' });
    expect(res.status).toBe(401);
    await off.close();
    const own = createDemoKernel({ apiToken: 'a'.repeat(40) });
    expect((await request(own).post('/api/books').set('Authorization', `Bearer ${'a'.repeat(40)}`).send({ title: 'Y' })).status).toBe(201);
    expect((await request(own).post('/api/books').set('Authorization', `Bearer ${DEMO_DEFAULTS.apiToken}`).send({ title: 'Y' })).status).toBe(401);
    await own.close();
    expect(() => createDemoKernel({ apiToken: 'has space' })).toThrow(/Invalid option "apiToken": expected RFC 6750/);
  });
});

describe('sessions only where one is needed (stateless API credentials, a login page without a session)', () => {
  let kernel: DemoKernel;
  beforeEach(() => { kernel = createDemoKernel({ debug: false, environment: 'test' }); });
  afterEach(() => kernel.close());

  /** How many sessions the store holds. */
  const stored = (): Promise<number> => new Promise((resolve, reject) => {
    kernel.sessionLayer!.store.length!((err, n) => (err ? reject(err as Error) : resolve(n ?? 0)));
  });
  const cookieNames = (res: request.Response): string[] =>
    ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split('=')[0]);

  test('bearer GETs, Basic GETs, a Basic write and login-page views store no session and set no session cookie', async () => {
    const answers: request.Response[] = [];
    for (let i = 0; i < 20; i++) {
      answers.push(await request(kernel).get('/api/books').set('Authorization', `Bearer ${DEMO_DEFAULTS.apiToken}`).expect(200));
    }
    for (let i = 0; i < 10; i++) answers.push(await request(kernel).get('/api/books/1').set('Authorization', ADMIN).expect(200));
    answers.push(await request(kernel).post('/api/books').set('Authorization', USER).send({ title: 'Solaris' }).expect(201));
    for (const res of answers) expect(cookieNames(res)).toEqual([]);
    const pages: request.Response[] = [];
    for (let i = 0; i < 10; i++) pages.push(await request(kernel).get('/admin/login').expect(200));
    // the login page's CSRF token lives in its own cookie, never in a stored session
    for (const res of pages) expect(cookieNames(res)).toEqual(['ek_login_csrf']);
    expect(await stored()).toBe(0);
  });

  test('a login with the page\'s stateless CSRF token works and starts the one session; the cookie is forgotten', async () => {
    const agent = request.agent(kernel);
    const page = await agent.get('/admin/login').expect(200);
    expect(await stored()).toBe(0);
    const token = /name="_csrf_token" value="([0-9a-f]{64})"/.exec(page.text)![1];
    expect((await agent.get('/admin/login').expect(200)).text).toContain(token); // the same in a second tab
    const res = await agent.post('/admin/login').type('form')
      .set('Host', 'admin.example').set('Origin', 'http://admin.example') // the same origin, as a browser says it
      .send({ _username: 'admin', _password: 'admin', _csrf_token: token });
    expect([res.status, res.headers.location]).toEqual([302, '/admin']);
    expect(res.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^ek_login_csrf=; Max-Age=0/)]));
    expect(cookieNames(res)).toContain('EKSESSID');
    expect(await stored()).toBe(1);
    await agent.get('/admin').expect(200);
  });

  test('a forged login is refused: no cookie, another browser\'s token, or another origin', async () => {
    const victim = request.agent(kernel);
    const attacker = request.agent(kernel);
    const theirs = /name="_csrf_token" value="([0-9a-f]{64})"/.exec((await attacker.get('/admin/login')).text)![1];
    const mine = /name="_csrf_token" value="([0-9a-f]{64})"/.exec((await victim.get('/admin/login')).text)![1];
    const attempts = [
      () => request(kernel).post('/admin/login').type('form') // no cookie at all (a cross-site form, cookie not sent)
        .send({ _username: 'admin', _password: 'admin', _csrf_token: theirs }),
      () => victim.post('/admin/login').type('form') // the victim's cookie, the attacker's token
        .send({ _username: 'admin', _password: 'admin', _csrf_token: theirs }),
      () => victim.post('/admin/login').type('form').set('Origin', 'http://evil.example')
        .send({ _username: 'admin', _password: 'admin', _csrf_token: mine }),
      () => victim.post('/admin/login').type('form').set('Referer', 'http://evil.example/login.html')
        .send({ _username: 'admin', _password: 'admin', _csrf_token: mine }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login']);
      expect(cookieNames(res)).not.toContain('ek_login_csrf');
    }
    const page = await victim.get('/admin/login').expect(200);
    expect(page.text).toContain('Invalid CSRF token.');
    expect((await victim.get('/admin').set('Accept', 'text/html')).headers.location).toBe('/admin/login');
  });
});
