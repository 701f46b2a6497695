import { MemoryThrottleStore } from '../../src/security/MemoryThrottleStore';
import { RedisThrottleStore } from '../../src/security/RedisThrottleStore';
import { SqliteThrottleStore } from '../../src/security/SqliteThrottleStore';
import type { ThrottleStore } from '../../src/security/ThrottleStore';
import { openRedis } from '../../src/storage/redis';
import type { createClient } from 'redis';
import { openSqlite, SqliteDatabase } from '../../src/storage/sqlite';
import { startRedis, TestRedis } from '../helpers/redis';
import { has } from '../helpers/requirements';

/** node-redis's own client type, all commands included. */
type RedisClient = ReturnType<typeof createClient>;

/** One implementation under test: a store, a way to let time pass, and cleanup. */
interface Subject {
  store: ThrottleStore;
  /** Lets `ms` pass for the store (a fake clock, or real waiting for Redis's own TTL). */
  advance: (ms: number) => Promise<void>;
}

let redis: TestRedis;
let client: RedisClient;
const dbs: SqliteDatabase[] = [];
const withRedis = has('redis-server');
beforeAll(async () => {
  if (!withRedis) return;
  redis = await startRedis();
  client = await openRedis<RedisClient>(redis.url);
});
afterAll(async () => {
  for (const db of dbs) db.close();
  await client?.quit();
  await redis?.stop();
});

const fakeClock = () => {
  const clock = { now: 1_700_000_000_000 };
  return { now: () => clock.now, advance: async (ms: number) => { clock.now += ms; } };
};

let n = 0;
const implementations: Array<[string, () => Subject]> = [
  ['MemoryThrottleStore', () => { const c = fakeClock(); return { store: new MemoryThrottleStore({ now: c.now }), advance: c.advance }; }],
  ['SqliteThrottleStore', () => {
    const c = fakeClock();
    const db = openSqlite(':memory:');
    dbs.push(db);
    return { store: new SqliteThrottleStore(db, { now: c.now }), advance: c.advance };
  }],
  ['RedisThrottleStore', () => ({
    store: new RedisThrottleStore(client, { prefix: `conformance-${++n}:` }),
    advance: (ms: number) => new Promise((r) => setTimeout(r, ms + 50)),
  })],
];

describe.each(implementations.filter(([name]) => withRedis || !name.startsWith('Redis')))('ThrottleStore conformance: %s', (_name, make) => {
  test('hit(key, window) counts from 1 and reports the time left in the window', async () => {
    const { store } = make();
    const first = await store.hit('k', 60);
    expect(first.count).toBe(1);
    expect(first.retryAfterSeconds).toBeGreaterThan(59);
    expect(first.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await store.hit('k', 60)).count).toBe(2);
    expect((await store.hit('other', 60)).count).toBe(1);
  });

  test('the window is fixed: later hits do not extend it', async () => {
    const { store, advance } = make();
    await store.hit('k', 2);
    await advance(500);
    const later = await store.hit('k', 2);
    expect(later.retryAfterSeconds).toBeLessThan(1.6);
  });

  test('a new window starts from 1 once the old one ended', async () => {
    const { store, advance } = make();
    await store.hit('k', 1);
    await store.hit('k', 1);
    await advance(1000);
    expect((await store.hit('k', 1)).count).toBe(1);
  });

  test('reset(key) forgets the key only', async () => {
    const { store } = make();
    await store.hit('a', 60);
    await store.hit('a', 60);
    await store.hit('b', 60);
    await store.reset('a');
    expect((await store.hit('a', 60)).count).toBe(1);
    expect((await store.hit('b', 60)).count).toBe(2);
  });

  test('peek(key) reads the count and time left without counting', async () => {
    const { store, advance } = make();
    expect(await store.peek('k')).toEqual({ count: 0, retryAfterSeconds: 0 });
    await store.hit('k', 1);
    await store.hit('k', 1);
    const seen = await store.peek('k');
    expect(seen.count).toBe(2);
    expect(seen.retryAfterSeconds).toBeGreaterThan(0);
    expect(seen.retryAfterSeconds).toBeLessThanOrEqual(1);
    expect((await store.peek('k')).count).toBe(2);
    await advance(1000);
    expect((await store.peek('k')).count).toBe(0);
  });

  test('concurrent hits are all counted (atomic increments)', async () => {
    const { store } = make();
    const counts = await Promise.all(Array.from({ length: 20 }, () => store.hit('k', 60)));
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('new SqliteThrottleStore(db, options)', () => {
  test('rejects a table name that is not an identifier', () => {
    const db = openSqlite(':memory:');
    dbs.push(db);
    expect(() => new SqliteThrottleStore(db, { table: 'x; DROP TABLE y' })).toThrow('Invalid option "table": expected an SQL identifier (letters, digits, _) (got "x; DROP TABLE y").');
  });
});
