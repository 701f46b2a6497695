import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { sessionLayer, SessionLayer, SessionOptions, SqliteSessionStore } from '../../src/session';
import { debugMessage } from '../helpers/http';
import { SECRET, sessionCookie, sessionKernel } from './sessionKernel';

let dir: string;
const layers: SessionLayer[] = [];
function layer(options: Partial<SessionOptions> = {}): SessionLayer {
  const l = sessionLayer({ secret: SECRET, sqlitePath: path.join(dir, 'sessions.sqlite'), ...options });
  layers.push(l);
  return l;
}

beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-session-')); });
afterEach(async () => {
  for (const l of layers.splice(0)) await l.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sessionLayer(options) cookie', () => {
  it('is HttpOnly, SameSite=Lax, not Secure over plain HTTP, and named EKSESSID', async () => {
    const res = await request(sessionKernel(layer())).post('/cart/apple').expect(200);
    const cookie = String((res.headers['set-cookie'] as unknown as string[])[0]);
    expect(cookie).toMatch(/^EKSESSID=s%3A[^;]+; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('is Secure when a trusted proxy says the request came over HTTPS', async () => {
    const res = await request(sessionKernel(layer(), ['loopback'])).post('/cart/apple').set('X-Forwarded-Proto', 'https').expect(200);
    expect(String((res.headers['set-cookie'] as unknown as string[])[0])).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('is not Secure when an untrusted client sends X-Forwarded-Proto: https', async () => {
    const res = await request(sessionKernel(layer())).post('/cart/apple').set('X-Forwarded-Proto', 'https').expect(200);
    expect(String((res.headers['set-cookie'] as unknown as string[])[0])).not.toMatch(/Secure/);
  });

  it('takes a name and a lifetime (sent as Expires)', async () => {
    const res = await request(sessionKernel(layer({ name: 'APPSESS', cookieLifetimeSeconds: 3600 }))).post('/cart/apple').expect(200);
    const cookie = String((res.headers['set-cookie'] as unknown as string[])[0]);
    expect(cookie).toMatch(/^APPSESS=/);
    const expires = Date.parse(/; Expires=([^;]+)/.exec(cookie)![1]);
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);
  });

  it('is not set for requests that never write to the session', async () => {
    const app = sessionKernel(layer());
    for (const url of ['/public', '/peek', '/nope']) {
      const res = await request(app).get(url);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is not set again for a request that only reads an existing session (rolling: false)', async () => {
    const app = sessionKernel(layer());
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    const res = await request(app).get('/cart').set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({ cart: ['apple'] });
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('sessionLayer(options) lazy start', () => {
  const rows = (l: SessionLayer): number => ((l.store as SqliteSessionStore).db.prepare('SELECT COUNT(*) AS n FROM sessions').get() as { n: number }).n;

  it('starts no session for a cookieless request until req.session is read; existingSession never starts one', async () => {
    const l = layer();
    const app = sessionKernel(l);
    const res = await request(app).get('/existing').expect(200);
    expect(res.body.before).toBeNull();
    expect(res.body.id).toMatch(/^[\w-]{20,}$/);
    expect(res.body.after).toBe(res.body.id);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(rows(l)).toBe(0);
  });

  it('sees the session a cookie names without starting a new one', async () => {
    const l = layer();
    const app = sessionKernel(l);
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    const res = await request(app).get('/existing').set('Cookie', `theme=dark; ${cookie}`).expect(200);
    expect(res.body.before).toBe(res.body.id);
    expect(decodeURIComponent(cookie)).toContain(`s:${res.body.id as string}.`);
    expect(rows(l)).toBe(1);
  });

  it('stores a session started lazily and sets its cookie in the same response', async () => {
    const l = layer();
    const app = sessionKernel(l);
    const res = await request(app).post('/cart/apple').set('Cookie', 'theme=dark').expect(200);
    expect(sessionCookie(res)).toBeDefined();
    expect(rows(l)).toBe(1);
    expect((await request(app).get('/cart').set('Cookie', sessionCookie(res)!)).body).toEqual({ cart: ['apple'] });
  });
});

describe('sessionLayer(options) SQLite store', () => {
  it('keeps sessions across a restart: written through kernel A, read by a new kernel B on the same file', async () => {
    const first = layer();
    const a = sessionKernel(first);
    const cookie = sessionCookie(await request(a).post('/cart/apple'))!;
    await request(a).post('/cart/pear').set('Cookie', cookie).expect(200);
    await first.close();

    const b = sessionKernel(layer());
    const res = await request(b).get('/cart').set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({ cart: ['apple', 'pear'] });
  });

  it('forgets a destroyed session', async () => {
    const app = sessionKernel(layer());
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    await request(app).post('/logout').set('Cookie', cookie).expect(200);
    expect((await request(app).get('/cart').set('Cookie', cookie)).body).toEqual({ cart: [] });
  });

  it('answers 503 for routes that need the session once the database is closed; other routes keep working', async () => {
    const l = layer();
    const app = sessionKernel(l);
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    await l.close();
    expect(l.isAvailable()).toBe(false);
    const res = await request(app).get('/cart').set('Cookie', cookie).set('Accept', 'application/json');
    expect(res.status).toBe(503);
    expect(debugMessage(res.headers)).toBe('Session storage is unavailable.');
    await request(app).get('/public').set('Cookie', cookie).expect(200, 'ok');
    const info = await request(app).get('/info').set('Cookie', cookie).expect(200);
    expect(info.body).toMatchObject({ unavailable: true, started: false, id: null });
  });

  it('goes on without a session when loading it fails (store error on read)', async () => {
    const l = layer();
    const app = sessionKernel(l);
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    (l.store as SqliteSessionStore).db.exec('DROP TABLE sessions');
    expect(l.isAvailable()).toBe(true);
    expect((await request(app).get('/cart').set('Cookie', cookie)).status).toBe(503);
    await request(app).get('/public').set('Cookie', cookie).expect(200, 'ok');
    expect((await request(app).get('/info').set('Cookie', cookie)).body.unavailable).toBe(true);
  });

  it('refuses to start when the database cannot be opened, naming the option', () => {
    fs.writeFileSync(path.join(dir, 'a-file'), '');
    const file = path.join(dir, 'a-file', 'sessions.sqlite');
    expect(() => sessionLayer({ secret: SECRET, sqlitePath: file })).toThrow(`Invalid option "session.sqlitePath": cannot open SQLite database "${file}": `);
  });

  it('defaults to var/sessions.sqlite under the working directory', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const l = layer({ sqlitePath: undefined });
      expect(l.storeName).toBe('sqlite');
      expect(fs.existsSync(path.join(dir, 'var', 'sessions.sqlite'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('sessionLayer(options) profiler record', () => {
  it('shows a hashed ID, the store, and attributes with secrets redacted', async () => {
    const app = sessionKernel(layer());
    const login = await request(app).post('/login').expect(200);
    const cookie = sessionCookie(login)!;
    const res = await request(app).get('/info').set('Cookie', cookie).expect(200);
    const rawId = decodeURIComponent(cookie.split('=')[1]).slice(2).split('.')[0];
    expect(res.body).toEqual({
      id: expect.stringMatching(/^sha256:[0-9a-f]{12}$/),
      store: 'sqlite',
      attributes: { user: 'ada', password: '******', apiToken: '******', jwt: '******', profile: { name: 'Ada', csrfToken: '******' } },
      started: true,
      unavailable: false,
    });
    expect(JSON.stringify(res.body)).not.toContain(rawId);
  });

  it('shows no session for a request without one', async () => {
    const res = await request(sessionKernel(layer())).get('/info').expect(200);
    expect(res.body).toEqual({ id: null, store: 'sqlite', attributes: {}, started: false, unavailable: false });
  });
});

describe('sessionLayer(options) validation', () => {
  it.each<[string, Partial<SessionOptions>, string]>([
    ['a missing secret', { secret: undefined }, 'Invalid option "session.secret": expected a string of at least 32 characters (got nothing); generate one with `openssl rand -hex 32`.'],
    ['a short secret, without showing it', { secret: 'hunter2' }, 'Invalid option "session.secret": expected at least 32 characters (got 7); generate one with `openssl rand -hex 32`.'],
    ['a short secret in a rotation list', { secret: [SECRET, 'short'] }, 'Invalid option "session.secret[1]": expected at least 32 characters (got 5)'],
    ['the memory store outside tests', { store: 'memory', sqlitePath: undefined, environment: 'prod' }, 'Invalid option "session.store": the in-memory store loses sessions on restart and is not shared between instances; it is for tests only (environment "prod"). Use "sqlite" (the default) or "redis".'],
    ['the memory store by default environment', { store: 'memory', sqlitePath: undefined }, 'Invalid option "session.store": the in-memory store loses sessions'],
    ['an unknown store', { store: 'file' as never }, 'Invalid option "session.store": expected "sqlite", "redis" or "memory" (got "file").'],
    ['redis without a client', { store: 'redis', sqlitePath: undefined }, 'Invalid option "session.redis": expected a connected node-redis client'],
    ['a bad cookie name', { name: 'my session' }, 'Invalid option "session.name": expected a cookie name (an RFC 6265 token) (got "my session").'],
    ['a tiny ttl', { ttlSeconds: 5 }, 'Invalid option "session.ttlSeconds": expected a whole number of seconds from 60 to 31536000 (got 5).'],
    ['a typo', { cookieLifetimeSecond: 5 } as never,
      'Invalid option "session.cookieLifetimeSecond": unknown option; did you mean "cookieLifetimeSeconds"?'],
    ['a key far from any option', { cookieLifetime: 5 } as never,
      'Invalid option "session.cookieLifetime": unknown option; expected one of secret, store, sqlitePath, redis, redisPrefix, '
      + 'name, ttlSeconds, cookieLifetimeSeconds, cookiePath, cookieDomain, pruneIntervalSeconds, environment, logger, timeoutMs.'],
  ])('refuses %s at construction', (_what, options, message) => {
    expect(() => sessionLayer({ secret: SECRET, sqlitePath: path.join(dir, 'x.sqlite'), ...options })).toThrow(message);
  });

  it('allows the memory store in the test environment', async () => {
    const l = layer({ store: 'memory', sqlitePath: undefined, environment: 'test' });
    expect(l.storeName).toBe('memory');
    const app = sessionKernel(l);
    const cookie = sessionCookie(await request(app).post('/cart/apple'))!;
    expect((await request(app).get('/cart').set('Cookie', cookie)).body).toEqual({ cart: ['apple'] });
  });

  it('accepts a cookie signed with an older secret of the rotation list', async () => {
    const older = 'an-older-secret-of-at-least-32-characters';
    const before = layer({ secret: older });
    const cookie = sessionCookie(await request(sessionKernel(before)).post('/cart/apple'))!;
    await before.close();
    const after = sessionKernel(layer({ secret: [SECRET, older] }));
    expect((await request(after).get('/cart').set('Cookie', cookie)).body).toEqual({ cart: ['apple'] });
  });
});
