import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Kernel } from '../../src/kernel/createKernel';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { JsonLoginAuthenticator } from '../../src/security/JsonLoginAuthenticator';
import { firewall } from '../../src/security/firewall';
import { InMemoryUserProvider as InMemoryUserProviderClass } from '../../src/security/InMemoryUserProvider';
import type { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { LoginThrottler } from '../../src/security/LoginThrottler';
import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import { RedisThrottleStore } from '../../src/security/RedisThrottleStore';
import { SqliteThrottleStore } from '../../src/security/SqliteThrottleStore';
import type { ThrottleStore } from '../../src/security/ThrottleStore';
import { openRedis } from '../../src/storage/redis';
import type { createClient } from 'redis';
import { openSqlite, SqliteDatabase } from '../../src/storage/sqlite';
import { startRedis, TestRedis, whenReady } from '../helpers/redis';
import { describeWith } from '../helpers/requirements';
import { basic, memorySession, securedKernel, testUsers } from './support';

/** node-redis's own client type, all commands included. */
type RedisClient = ReturnType<typeof createClient>;

const provider = testUsers();
const MESSAGE = 'Too many failed login attempts, please try again in 1 minute.';
const TRUSTED = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

function throttledKernel(store: ThrottleStore): Kernel {
  return securedKernel({
    firewalls: [{ name: 'main', provider, authenticators: [new JsonLoginAuthenticator(), new HttpBasicAuthenticator()] }],
    accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
    throttling: { store },
  // the clients come through a trusted proxy from 198.51.100.0/24: let them see the debug detail
  }, { session: memorySession(), trustedProxies: TRUSTED, profiler: { allowedIps: ['loopback', '198.51.100.0/24'] } });
}

const jsonLogin = (k: Kernel, password: string, ip = '198.51.100.7') =>
  request(k).post('/api/login').set('X-Forwarded-For', ip).set('Accept', 'application/json').send({ username: 'admin', password });

async function failTimes(k: Kernel, n: number, ip?: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await jsonLogin(k, 'wrong', ip)).status);
  return statuses;
}

describe('login throttling', () => {
  test('the 6th failed JSON login within a minute is a 429 with Retry-After and Symfony\'s message', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    expect(await failTimes(k, 5)).toEqual([401, 401, 401, 401, 401]);
    const res = await jsonLogin(k, 'wrong');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.body.detail).toBe(MESSAGE);
    // the right password does not get through either
    expect((await jsonLogin(k, 'admin')).status).toBe(429);
  });

  test('counts per username and IP: another IP may still try', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    await failTimes(k, 6);
    expect((await jsonLogin(k, 'admin', '198.51.100.8')).status).toBe(200);
  });

  test('the IP alone is limited to five times as many attempts (25), whatever the usernames', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) {
      statuses.push((await request(k).post('/api/login').set('X-Forwarded-For', '192.0.2.1').send({ username: `user${i}`, password: 'x' })).status);
    }
    expect(statuses.slice(0, 25).every((s) => s === 401)).toBe(true);
    expect(statuses[25]).toBe(429);
  });

  test('a successful login resets the counter', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    await failTimes(k, 4);
    expect((await jsonLogin(k, 'admin')).status).toBe(200);
    expect(await failTimes(k, 5)).toEqual([401, 401, 401, 401, 401]);
    expect((await jsonLogin(k, 'wrong')).status).toBe(429);
  });

  test('applies to HTTP Basic too', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(k).get('/admin').set('Authorization', basic('admin', 'nope'))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test('8 clients logging in with the right password at once are never throttled (only failures count)', async () => {
    // a real bcrypt cost, so that the 8 checks overlap as they do in production
    const slowUsers = new InMemoryUserProviderClass({ users: { admin: { password: 'admin', roles: ['ROLE_ADMIN'] } }, cost: 10 });
    const server = securedKernel({
      firewalls: [{ name: 'main', provider: slowUsers, authenticators: [new HttpBasicAuthenticator()] }],
      accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
      throttling: { store: new MemoryThrottleStore() },
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const auth = basic('admin', 'admin');
    const client = async (): Promise<number[]> => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await fetch(`http://127.0.0.1:${port}/admin`, { headers: { Authorization: auth } })).status);
      }
      return statuses;
    };
    try {
      const statuses = (await Promise.all(Array.from({ length: 8 }, client))).flat();
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      expect(statuses).toHaveLength(32);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('correct logins between failures do not use up attempts', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    for (let i = 0; i < 20; i++) expect((await jsonLogin(k, 'admin')).status).toBe(200);
    expect(await failTimes(k, 5)).toEqual([401, 401, 401, 401, 401]);
  });

  test('a password is checked and its failure counted once per request, however many firewall layers ask', async () => {
    const users = testUsers();
    let checks = 0;
    const counting = Object.assign(Object.create(users) as InMemoryUserProvider, {
      checkPassword: (id: string, pw: string) => { checks++; return users.checkPassword(id, pw); },
    });
    const store = new MemoryThrottleStore();
    const options = {
      firewalls: [{ name: 'main', provider: counting, authenticators: [new HttpBasicAuthenticator()] }],
      throttling: { store, maxAttempts: 2 },
    };
    const app = securedKernel(options, { layers: { firewall: [firewall(options), firewall(options)] } });
    expect((await request(app).get('/api/books').set('Authorization', basic('admin', 'admin'))).status).toBe(200);
    expect(checks).toBe(1);
    const wrong = await request(app).get('/api/books').set('Authorization', basic('alice', 'nope'));
    expect(wrong.status).toBe(401);
    expect(checks).toBe(2);
    // one failure counted, not two: a second wrong password is still checked (2 allowed)
    expect((await request(app).get('/api/books').set('Authorization', basic('alice', 'nope'))).status).toBe(401);
    expect((await request(app).get('/api/books').set('Authorization', basic('alice', 'alice'))).status).toBe(429);
  });

  test('the window ends after intervalSeconds', async () => {
    let now = 1_000_000;
    const k = throttledKernel(new MemoryThrottleStore({ now: () => now }));
    await failTimes(k, 6);
    now += 59_000;
    expect((await jsonLogin(k, 'admin')).status).toBe(429);
    now += 1_001;
    expect((await jsonLogin(k, 'admin')).status).toBe(200);
  });

  test('usernames are compared case-insensitively', async () => {
    const k = throttledKernel(new MemoryThrottleStore());
    for (const username of ['admin', 'ADMIN', 'Admin', 'aDmin', 'adMin']) await request(k).post('/api/login').set('X-Forwarded-For', '198.51.100.7').send({ username, password: 'x' });
    expect((await jsonLogin(k, 'admin')).status).toBe(429);
  });

  describe('shared counters', () => {
    let dir: string;
    beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-throttle-')); });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    test('two kernels on one SQLite file share them', async () => {
      const file = path.join(dir, 'security.sqlite');
      const dbs: SqliteDatabase[] = [openSqlite(file), openSqlite(file)];
      try {
        const [a, b] = dbs.map((db) => throttledKernel(new SqliteThrottleStore(db)));
        expect(await failTimes(a, 3)).toEqual([401, 401, 401]);
        expect(await failTimes(b, 2)).toEqual([401, 401]);
        expect((await jsonLogin(a, 'wrong')).status).toBe(429);
        expect((await jsonLogin(b, 'admin')).status).toBe(429);
      } finally {
        for (const db of dbs) db.close();
      }
    });

    describeWith('redis-server')('on Redis', () => {
      let redis: TestRedis;
      let clients: RedisClient[] = [];
      beforeAll(async () => {
        redis = await startRedis();
        clients = [await openRedis<RedisClient>(redis.url), await openRedis<RedisClient>(redis.url)];
      });
      afterAll(async () => {
        // destroy, not quit: quit waits for a reconnecting client to be connected again
        for (const c of clients) c.destroy();
        await redis.stop();
      });

      test('two kernels on one Redis share them', async () => {
        const [a, b] = clients.map((c) => throttledKernel(new RedisThrottleStore(c)));
        expect(await failTimes(a, 3)).toEqual([401, 401, 401]);
        expect(await failTimes(b, 2)).toEqual([401, 401]);
        const res = await jsonLogin(b, 'wrong');
        expect([res.status, res.body.detail]).toEqual([429, MESSAGE]);
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect((await jsonLogin(a, 'admin')).status).toBe(429);
      });

      test('while Redis is down a login is a 503, not an unthrottled attempt', async () => {
        const k = throttledKernel(new RedisThrottleStore(clients[0], { prefix: 'down-test:' }));
        await redis.stop();
        try {
          const res = await jsonLogin(k, 'admin', '127.0.0.1'); // a client the debug output is shown to
          expect(res.status).toBe(503);
          expect(res.body.detail).toBe('Login throttling is unavailable, please try again later.');
        } finally {
          await redis.restart();
          await whenReady(...clients);
        }
      });
    });
  });

  describe('new LoginThrottler(options)', () => {
    test('defaults to Symfony\'s 5 attempts per minute', () => {
      const t = new LoginThrottler({ store: new MemoryThrottleStore() });
      expect([t.maxAttempts, t.intervalSeconds]).toEqual([5, 60]);
    });

    test('says "minutes" for longer waits', async () => {
      const t = new LoginThrottler({ maxAttempts: 1, intervalSeconds: 300, store: new MemoryThrottleStore() });
      await t.check('bob', '192.0.2.1');
      await t.fail('bob', '192.0.2.1');
      await expect(t.check('bob', '192.0.2.1')).rejects.toMatchObject({ failure: 'too_many_attempts', message: 'Too many failed login attempts, please try again in 5 minutes.', retryAfterSeconds: 300 });
    });

    test('stores no username in the clear', async () => {
      const keys: string[] = [];
      const store = new MemoryThrottleStore();
      const spy: ThrottleStore = {
        hit: (k, w) => { keys.push(k); return store.hit(k, w); },
        peek: (k) => { keys.push(k); return store.peek(k); },
        reset: (k) => store.reset(k),
      };
      await new LoginThrottler({ store: spy }).check('secret-user', '192.0.2.1');
      await new LoginThrottler({ store: spy }).fail('secret-user', '192.0.2.1');
      expect(keys.join()).not.toContain('secret-user');
      expect(keys.join()).not.toContain('192.0.2.1');
    });
  });
});
