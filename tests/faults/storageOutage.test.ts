/**
 * Storage outages are 503s with Retry-After, never "wrong credentials": a killed Redis under a
 * valid session cookie and under the profiler, and a read-only SQLite database under a login
 * (the session cannot be saved) and under the demo's book API.
 *
 * Read-only: `PRAGMA query_only = ON` on the store's own connection (portable: it needs neither a
 * non-root user for chmod nor mount for a tmpfs); SQLite then refuses every write with
 * SQLITE_READONLY, as it does for a read-only file.
 */
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import request from 'supertest';
import type { SqlStore } from '../../src/api/sql/createSqlState';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';
import { RedisProfilerStorage } from '../../src/profiler/storage/RedisProfilerStorage';
import type { SqliteSessionStore } from '../../src/session/SqliteSessionStore';
import type { createClient } from 'redis';
import { openRedis } from '../../src/storage/redis';
import { startRedis, whenReady, type TestRedis } from '../helpers/redis';
import { formLogin } from './formLogin';
import { scaled } from '../helpers/timeScale';
import { tempDir } from '../helpers/tempDir';

const BASIC = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

function cookieOf(res: request.Response): string {
  return ((res.headers['set-cookie'] ?? []) as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
}


/** A 503 problem details; `detail` names the store (debug) or is the reason phrase (5xx details hidden). */
function expectUnavailable(res: request.Response, store: string, debug = true): void {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(res.headers['www-authenticate']).toBeUndefined();
  expect(res.headers['set-cookie']).toBeUndefined();
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const detail = debug ? `${store} storage is unavailable.` : 'Service Unavailable';
  expect(res.body).toMatchObject({ status: 503, detail });
}

describe('Redis killed', () => {
  let redis: TestRedis;
  /** node-redis's own client type (its events included) */
  let client: ReturnType<typeof createClient>;
  let storage: RedisProfilerStorage;
  let kernel: DemoKernel;

  beforeAll(async () => {
    redis = await startRedis();
    client = await openRedis(redis.url);
    storage = await RedisProfilerStorage.open(redis.url);
    kernel = createDemoKernel({ debug: true, redis: client, profilerStorage: storage });
  });

  afterAll(async () => {
    await kernel.close();
    await storage.close();
    client.destroy();
    await redis.stop();
  });

  test('a valid session cookie gets 503 + Retry-After, not a 401 login prompt; recovers after a restart', async () => {
    const cookie = cookieOf(await formLogin(kernel));
    expect(cookie).toMatch(/EKSESSID=/);
    await request(kernel).get('/api/time').set('Cookie', cookie).expect(200);
    await redis.stop();
    try {
      const json = { Accept: 'application/json' };
      expectUnavailable(await request(kernel).get('/api/time').set('Cookie', cookie).set(json), 'Session');
      const page = await request(kernel).get('/_profiler/empty/search/results?limit=5').set(json);
      expectUnavailable(page, 'Profiler');
    } finally {
      await redis.restart();
    }
    // the session was in the Redis that died: a restart without persistence lost it, so the
    // cookie is now simply unknown (anonymous), and logging in works again once the client is back
    await whenReady(client);
    await request(kernel).get('/api/time').set('Authorization', BASIC).timeout(scaled(3000)).expect(200);
  }, scaled(30_000));
});

describe('a read-only SQLite database (PRAGMA query_only)', () => {
  let kernel: DemoKernel;
  let books: SqlStore;
  const logs: string[] = [];

  beforeEach(async () => {
    const dir = tempDir('ek-readonly-');
    const logger = pino({ level: 'warn' }, { write: (line: string) => { logs.push(line); } });
    // the books on the demo's SQL store (its own file, migrated and seeded), as `npm start` has them
    books = await openDemoDatabase({ SQLITE_PATH: path.join(dir, 'books.sqlite') });
    kernel = createDemoKernel({ debug: false, sqlitePath: path.join(dir, 'demo.sqlite'), logger, store: books });
  });

  afterEach(async () => { await kernel.close(); await books.close(); });

  test('a login whose session cannot be saved is a 503 without Set-Cookie, with the reason logged', async () => {
    (kernel.sessionLayer!.store as SqliteSessionStore).db.pragma('query_only = ON');
    const res = await formLogin(kernel, 'application/json');
    expectUnavailable(res, 'Session');
    expect(logs.join('')).toMatch(/SQLITE_READONLY/);
  });

  test('POST /api/books on a read-only database is a 503 with the reason logged, not a bare 500', async () => {
    // Basic credentials are stateless (no session is written), so the failing insert is the only write
    // the store's one SQLite connection becomes read-only: the insert fails with SQLITE_READONLY
    await sql`PRAGMA query_only = ON`.execute(books.db);
    const res = await request(kernel).post('/api/books').set('Authorization', BASIC)
      .send({ title: 'Ubik' }).set('Accept', 'application/json');
    expectUnavailable(res, 'Book', false);
    expect(logs.join('')).toMatch(/SQLITE_READONLY/);
  });
});
