import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createDemoKernel, DemoKernel } from '../../src/demo/app';

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const ADMIN = basic('admin', 'admin');
const USER = basic('user', 'user');

describe('the demo service', () => {
  let kernel: DemoKernel;
  beforeEach(() => { kernel = createDemoKernel({ debug: true }); });
  afterEach(() => kernel.close());

  describe('firewall matrix (anonymous, user, admin × path × method)', () => {
    const cells: Array<[string, string, string | null, number]> = [
      ['GET', '/admin', null, 401],
      ['GET', '/admin', USER, 403],
      ['GET', '/admin', ADMIN, 200],
      ['POST', '/admin', null, 401],
      ['POST', '/admin', ADMIN, 405],
      ['GET', '/admin/nope', null, 401],
      ['GET', '/admin/nope', ADMIN, 404],
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
    });

    test('a wrong password is a 401 and the 6th attempt within a minute is a 429 with Retry-After', async () => {
      for (let i = 0; i < 5; i++) expect((await request(kernel).get('/admin').set('Authorization', basic('admin', 'nope'))).status).toBe(401);
      const res = await request(kernel).get('/admin').set('Authorization', basic('admin', 'nope'));
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
    const a = createDemoKernel({ sqlitePath: file });
    const login = await request(a).get('/admin').set('Authorization', ADMIN);
    expect(login.status).toBe(200);
    const cookie = login.headers['set-cookie'];
    expect(cookie).toBeDefined();
    await a.close();

    const b = createDemoKernel({ sqlitePath: file });
    const again = await request(b).get('/admin').set('Cookie', String(cookie).split(';')[0]);
    expect(again.status).toBe(200);
    await b.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
