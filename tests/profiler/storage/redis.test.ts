import type { NextFunction, Request, Response } from 'express';
import pino from 'pino';
import request from 'supertest';
import { createDemoRoutes } from '../../../src/demo/routes';
import { createKernel } from '../../../src/kernel/createKernel';
import { RedisProfilerStorage } from '../../../src/profiler/storage/RedisProfilerStorage';
import { openRedis } from '../../../src/storage/redis';
import type { createClient } from 'redis';
import { startRedis, TestRedis } from '../../helpers/redis';
import { has } from '../../helpers/requirements';
import { describeProfilerStorage } from './conformance';
import { makeProfile, T0 } from './profiles';
import { scaled } from '../../helpers/timeScale';

/** node-redis's own client type, all commands included. */
type RedisClient = ReturnType<typeof createClient>;

// Every test runs against a real redis-server on a free loopback port; stores get their own key
// prefix, so no test sees another's keys.

const withRedis = has('redis-server');
const describeRedis = withRedis ? describe : describe.skip;
let redis: TestRedis;
let client: RedisClient;
let n = 0;
const freshPrefix = (): string => `test:${++n}:`;
const now = (): number => T0;

beforeAll(async () => {
  if (!withRedis) return;
  redis = await startRedis();
  client = await openRedis<RedisClient>(redis.url);
});
afterAll(async () => {
  await client?.close();
  await redis?.stop();
});

async function keysUnder(prefix: string): Promise<string[]> {
  return (await client.keys(`${prefix}*`)).sort();
}

if (withRedis) describeProfilerStorage('RedisProfilerStorage', (options) => new RedisProfilerStorage(client, { ...options, keyPrefix: freshPrefix() }));

describeRedis('RedisProfilerStorage shared by several instances', () => {
  let a: RedisProfilerStorage;
  let b: RedisProfilerStorage;
  beforeEach(async () => {
    const keyPrefix = freshPrefix();
    [a, b] = await Promise.all([
      RedisProfilerStorage.open(redis.url, { keyPrefix, now }),
      RedisProfilerStorage.open(redis.url, { keyPrefix, now }),
    ]);
  });
  afterEach(async () => { await Promise.all([a.close(), b.close()]); });

  it('reads on instance B a profile written by instance A', async () => {
    const profile = makeProfile('aaaaaa', 0, { route: 'home' });
    await a.write(profile);
    expect(await b.read('aaaaaa')).toStrictEqual(profile);
    expect(await b.has('aaaaaa')).toBe(true);
    expect((await b.find({})).map((s) => s.token)).toEqual(['aaaaaa']);
  });

  it('purges on B what A wrote', async () => {
    await a.write(makeProfile('aaaaaa', 0));
    await b.purge();
    expect(await a.read('aaaaaa')).toBeNull();
  });

  it('keeps the caps when both write at once', async () => {
    const keyPrefix = freshPrefix();
    const [c, d] = await Promise.all(
      [0, 1].map(() => RedisProfilerStorage.open(redis.url, { keyPrefix, now, maxProfiles: 10 })),
    );
    const profiles = Array.from({ length: 40 }, (_, i) => makeProfile(i.toString(16).padStart(6, '0'), i));
    await Promise.all(profiles.map((p, i) => (i % 2 === 0 ? c : d).write(p)));
    expect((await c.find({ limit: 100 })).map((s) => s.token))
      .toEqual(profiles.slice(30).reverse().map((p) => p.token));
    expect(Number(await client.get(`${keyPrefix}bytes`))).toBe(profiles.slice(30).reduce((sum, p) => sum + Buffer.byteLength(JSON.stringify(p)), 0));
    await Promise.all([c.close(), d.close()]);
  });
});

describeRedis('RedisProfilerStorage keys', () => {
  it('stores each profile under its own key, expiring a minute after the profile reaches its maximum age', async () => {
    const keyPrefix = freshPrefix();
    const store = new RedisProfilerStorage(client, { keyPrefix, maxAgeSeconds: 60, now: () => T0 + 10_000 });
    await store.write(makeProfile('aaaaaa', 0));
    expect(await keysUnder(keyPrefix)).toEqual([`${keyPrefix}bytes`, `${keyPrefix}index`, `${keyPrefix}profile:aaaaaa`, `${keyPrefix}sizes`, `${keyPrefix}summaries`]);
    const ttl = await client.pTTL(`${keyPrefix}profile:aaaaaa`);
    // 50 s of age left, plus the minute of slack (the age limit itself is checked on read)
    expect(ttl).toBeGreaterThan(109_000);
    expect(ttl).toBeLessThanOrEqual(110_000);
    expect(await client.zRangeWithScores(`${keyPrefix}index`, 0, -1)).toEqual([{ value: 'aaaaaa', score: T0 }]);
  });

  it('purge deletes every key under the prefix, and only those', async () => {
    const keyPrefix = freshPrefix();
    const other = freshPrefix();
    const store = new RedisProfilerStorage(client, { keyPrefix, now });
    await new RedisProfilerStorage(client, { keyPrefix: other, now }).write(makeProfile('bbbbbb', 0));
    for (let i = 0; i < 700; i++) await store.write(makeProfile(i.toString(16).padStart(6, '0'), 0));
    await store.purge();
    expect(await keysUnder(keyPrefix)).toEqual([]);
    expect(await keysUnder(other)).toHaveLength(5);
  });

  it.each([['a*b'], ['spaces here'], [3]])('rejects keyPrefix %p, naming the option', (keyPrefix) => {
    expect(() => new RedisProfilerStorage(client, { keyPrefix: keyPrefix as string }))
      .toThrow(/^Invalid option "profiler\.storage\.keyPrefix": expected letters, digits and ":_-\.\{\}" only/);
  });

  it('rejects a client that is not one', () => {
    expect(() => new RedisProfilerStorage({} as RedisClient)).toThrow('Invalid option "profiler.storage.redis": expected a connected node-redis client, e.g. await openRedis(url).');
  });
});

describe('RedisProfilerStorage.open(url)', () => {
  it('checks the options before connecting', async () => {
    await expect(RedisProfilerStorage.open('redis://127.0.0.1:1', { maxBytes: -1 })).rejects.toThrow('Invalid option "profiler.storage.maxBytes"');
  });
});

describeRedis('RedisProfilerStorage while Redis is down', () => {
  let server: TestRedis;
  let store: RedisProfilerStorage;
  beforeEach(async () => {
    server = await startRedis();
    store = await RedisProfilerStorage.open(server.url, { keyPrefix: 'down:' });
  });
  afterEach(async () => {
    await store.close();
    await server.stop();
  });

  /** Waits until the client has reconnected after a restart. */
  async function reconnected(): Promise<void> {
    const deadline = Date.now() + scaled(10_000);
    for (;;) {
      try {
        await store.has('000000');
        return;
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  it('rejects writes, reads and searches at once, and works again once Redis is back', async () => {
    await server.stop();
    const started = Date.now();
    await expect(store.write(makeProfile('aaaaaa', 0, { time: Date.now() }))).rejects.toThrow();
    await expect(store.read('aaaaaa')).rejects.toThrow();
    await expect(store.has('aaaaaa')).rejects.toThrow();
    await expect(store.find({})).rejects.toThrow();
    await expect(store.purge()).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(scaled(1000));
    await server.restart();
    await reconnected();
    await store.write(makeProfile('bbbbbb', 0, { time: Date.now() }));
    expect(await store.has('bbbbbb')).toBe(true);
  });

  it('lets the kernel answer as usual: the profiler drops the profile and logs why', async () => {
    const logs: Array<{ msg: string; token?: string }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => { logs.push(JSON.parse(line) as { msg: string }); } });
    let stopRedis = false;
    // runs after the profiler's layer has taken its token (Redis up), before the router answers
    const stopRedisMidRequest = async (_req: Request, _res: Response, next: NextFunction): Promise<void> => {
      if (stopRedis) {
        stopRedis = false;
        await server.stop();
      }
      next();
    };
    const kernel = createKernel({
      routes: createDemoRoutes(),
      debug: true,
      profiler: { storage: store },
      logger,
      layers: { session: stopRedisMidRequest },
    });

    const up = await request(kernel).get('/nope');
    expect(up.status).toBe(404);
    expect((await store.read(up.headers['x-debug-token']))?.statusCode).toBe(404);

    stopRedis = true;
    const dropped = await request(kernel).get('/nope');
    expect(dropped.status).toBe(404);
    expect(dropped.text).toMatch(/<h1 [^>]*>No route found for &quot;GET http:\/\/127\.0\.0\.1:\d+\/nope&quot;<\/h1>/);
    const token = dropped.headers['x-debug-token'];
    expect(token).toMatch(/^[0-9a-f]{6}$/);
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'profiler storage failed; profile dropped', token }));

    const whileDown = await request(kernel).get('/api');
    expect(whileDown.status).toBe(200);
    expect(whileDown.body).toMatchObject({ '@id': '/api', book: '/api/books' });
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'profiler storage failed; profile dropped', token: whileDown.headers['x-debug-token'] }));

    await server.restart();
    await reconnected();
    const back = await request(kernel).get('/nope');
    expect(await store.has(back.headers['x-debug-token'])).toBe(true);
    expect(await store.has(token)).toBe(false);
  });
});
