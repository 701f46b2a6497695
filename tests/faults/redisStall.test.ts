/**
 * A stalled Redis (the real redis-server, paused with SIGSTOP: connections stay open, nothing is
 * answered) behind the demo kernel: sessions, login throttling and profiles all in Redis.
 * Every request must be answered within the stores' deadline, and everything recovers on SIGCONT.
 */
import pino from 'pino';
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { RedisProfilerStorage } from '../../src/profiler/storage/RedisProfilerStorage';
import { openRedis, type RedisClient } from '../../src/storage/redis';
import { startRedis, type TestRedis } from '../helpers/redis';
import { scaled } from '../helpers/timeScale';
import { formLogin } from './formLogin';

const BASIC = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

describe('a stalled Redis (SIGSTOP) under the demo kernel', () => {
  let redis: TestRedis;
  let client: RedisClient;
  let storage: RedisProfilerStorage;
  let kernel: DemoKernel;
  const logs: string[] = [];
  let cookie = '';

  beforeAll(async () => {
    redis = await startRedis();
    client = await openRedis(redis.url, 'REDIS_URL', { commandTimeoutMs: 500 });
    storage = await RedisProfilerStorage.open(redis.url, { timeoutMs: 500 });
    const logger = pino({ level: 'warn' }, { write: (line: string) => { logs.push(line); } });
    kernel = createDemoKernel({ debug: true, redis: client, profilerStorage: storage, logger });
    // the back office's form login keeps a session (Basic is stateless)
    const login = await formLogin(kernel);
    cookie = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0])
      .filter((c) => c.startsWith('EKSESSID=')).join('; ');
    expect(cookie).toMatch(/^EKSESSID=/);
    await request(kernel).get('/api/time').set('Cookie', cookie).expect(200);
  });

  afterAll(async () => {
    redis.signal('SIGCONT');
    await kernel.close();
    await storage.close();
    client.destroy();
    await redis.stop();
  });

  /** A request that must be answered within `ms`, with the time it took. */
  async function timed(req: request.Test, ms = scaled(3000)): Promise<{ res: request.Response; took: number }> {
    const t0 = Date.now();
    const res = await req.timeout(ms);
    return { res, took: Date.now() - t0 };
  }

  test('a session cookie or Basic credentials get 503 + Retry-After, anonymous requests 200, in time', async () => {
    redis.signal('SIGSTOP');
    try {
      const json = { Accept: 'application/json' };
      const withCookie = await timed(request(kernel).get('/api/time').set('Cookie', cookie).set(json));
      expect(withCookie.res.status).toBe(503);
      expect(withCookie.res.headers['retry-after']).toMatch(/^\d+$/);
      expect(withCookie.res.headers['www-authenticate']).toBeUndefined();
      expect(withCookie.res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(withCookie.took).toBeLessThan(scaled(2500));

      const withBasic = await timed(request(kernel).get('/api/time').set('Authorization', BASIC));
      expect(withBasic.res.status).toBe(503);
      expect(withBasic.res.headers['retry-after']).toMatch(/^\d+$/);
      expect(withBasic.took).toBeLessThan(scaled(2500));

      // debug on: the profile write to the stalled Redis is dropped, the response does not wait on it
      const anonymous = await timed(request(kernel).get('/api'));
      expect(anonymous.res.status).toBe(200);
      expect(anonymous.took).toBeLessThan(scaled(1500));
      expect(logs.join('')).toMatch(/profiler storage failed; profile dropped/);

      // the profiler's own pages say the store is unavailable: 503, not a 500
      const panel = await timed(request(kernel).get('/_profiler/empty/search/results?limit=5'));
      expect(panel.res.status).toBe(503);
    } finally {
      redis.signal('SIGCONT');
    }
  }, scaled(30_000));

  test('after SIGCONT everything works again without a restart', async () => {
    await request(kernel).get('/api/time').set('Cookie', cookie).timeout(3000).expect(200);
    await request(kernel).get('/api/time').set('Authorization', BASIC).timeout(3000).expect(200);
    const res = await request(kernel).get('/api').timeout(3000).expect(200);
    const token = res.headers['x-debug-token'];
    expect(await storage.has(token)).toBe(true);
  }, scaled(30_000));
});
