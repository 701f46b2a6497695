import request from 'supertest';
import { openRedis } from '../../src/storage/redis';
import type { createClient } from 'redis';
import { sessionLayer } from '../../src/session';
import { debugMessage } from '../helpers/http';
import { startRedis, TestRedis } from '../helpers/redis';
import { describeWith } from '../helpers/requirements';
import { SECRET, sessionCookie, sessionKernel } from './sessionKernel';
import { scaled } from '../helpers/timeScale';

/** node-redis's own client type, all commands included. */
type RedisClient = ReturnType<typeof createClient>;

/** Retries `attempt` every 100 ms until it returns true or `ms` pass. */
async function eventually(attempt: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await attempt()) return;
    if (Date.now() > deadline) throw new Error(`not true within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeWith('redis-server')('sessionLayer(options) Redis store', () => {
  let redis: TestRedis;
  let clients: RedisClient[];
  let a: ReturnType<typeof sessionKernel>;
  let b: ReturnType<typeof sessionKernel>;

  beforeAll(async () => {
    redis = await startRedis();
    // two application instances, each with its own connection
    clients = [await openRedis<RedisClient>(redis.url, 'session.redis'), await openRedis<RedisClient>(redis.url, 'session.redis')];
    a = sessionKernel(sessionLayer({ secret: SECRET, redis: clients[0] }));
    b = sessionKernel(sessionLayer({ secret: SECRET, redis: clients[1] }));
  });

  afterAll(async () => {
    for (const c of clients) c.destroy();
    await redis.stop();
  });

  it('shares sessions between two instances', async () => {
    const cookie = sessionCookie(await request(a).post('/cart/apple').expect(200))!;
    await request(b).post('/cart/pear').set('Cookie', cookie).expect(200);
    expect((await request(a).get('/cart').set('Cookie', cookie).expect(200)).body).toEqual({ cart: ['apple', 'pear'] });
    const info = await request(b).get('/info').set('Cookie', cookie).expect(200);
    expect(info.body).toMatchObject({ store: 'redis', started: true, unavailable: false, attributes: { cart: ['apple', 'pear'] } });
  });

  it('stores each session under the prefix with a TTL', async () => {
    await request(a).post('/cart/fig').expect(200);
    const keys = await clients[0].keys('eksess:*');
    expect(keys.length).toBeGreaterThan(0);
    const ttl = await clients[0].ttl(keys[0]);
    expect(ttl).toBeGreaterThan(86000);
    expect(ttl).toBeLessThanOrEqual(86400);
  });

  it('answers 503 for routes that need the session while Redis is down, keeps the others, and recovers', async () => {
    const cookie = sessionCookie(await request(a).post('/cart/apple').expect(200))!;
    await redis.stop();

    for (const app of [a, b]) {
      const need = await request(app).get('/cart').set('Cookie', cookie).set('Accept', 'application/json');
      expect(need.status).toBe(503);
      expect(debugMessage(need.headers)).toBe('Session storage is unavailable.');
      expect((await request(app).post('/cart/kiwi').set('Accept', 'application/json')).status).toBe(503);
      await request(app).get('/public').set('Cookie', cookie).expect(200, 'ok');
      await request(app).get('/public').expect(200, 'ok');
      expect((await request(app).get('/info').set('Cookie', cookie).expect(200)).body).toMatchObject({ unavailable: true });
    }

    await redis.restart();
    // the clients reconnect by themselves; the server kept nothing (no persistence)
    let fresh = '';
    await eventually(async () => {
      const res = await request(a).post('/cart/pear');
      fresh = sessionCookie(res) ?? '';
      return res.status === 200;
    }, scaled(10_000));
    await eventually(async () => (await request(b).get('/cart').set('Cookie', fresh)).status === 200, scaled(10_000));
    expect((await request(b).get('/cart').set('Cookie', fresh)).body).toEqual({ cart: ['pear'] });
  });

  it('refuses a client that is not connected', async () => {
    const client = await openRedis<RedisClient>(redis.url);
    await client.close();
    expect(() => sessionLayer({ secret: SECRET, redis: client })).toThrow('Invalid option "session.redis": the Redis client is not connected');
  });
});
