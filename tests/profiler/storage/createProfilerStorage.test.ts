import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createProfilerStorage } from '../../../src/profiler/storage/createProfilerStorage';
import { MemoryProfilerStorage } from '../../../src/profiler/storage/MemoryProfilerStorage';
import { RedisProfilerStorage } from '../../../src/profiler/storage/RedisProfilerStorage';
import { SqliteProfilerStorage } from '../../../src/profiler/storage/SqliteProfilerStorage';
import { startRedis } from '../../helpers/redis';
import { has } from '../../helpers/requirements';
import { makeProfile, T0 } from './profiles';

let dir: string;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-profiler-factory-')); });
afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

describe('createProfilerStorage(config)', () => {
  it("gives the in-memory ring for sqlitePath ':memory:', with the caps", async () => {
    const store = await createProfilerStorage({ sqlitePath: ':memory:', maxProfiles: 5, maxBytes: 1000, maxAgeSeconds: 60 });
    expect(store).toBeInstanceOf(MemoryProfilerStorage);
    expect((store as MemoryProfilerStorage).retention)
      .toMatchObject({ maxProfiles: 5, maxBytes: 1000, maxAgeSeconds: 60 });
  });

  it('gives an SQLite store on the file given', async () => {
    const file = path.join(dir, 'given.sqlite');
    const store = await createProfilerStorage({ sqlitePath: file, maxProfiles: 7 });
    expect(store).toBeInstanceOf(SqliteProfilerStorage);
    expect((store as SqliteProfilerStorage).retention.maxProfiles).toBe(7);
    await store.write(makeProfile('aaaaaa', 0, { time: Date.now() }));
    await store.close();
    expect(fs.existsSync(file)).toBe(true);
  });

  it('defaults to the SQLite file var/profiler.sqlite under the working directory', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const store = await createProfilerStorage();
      expect(store).toBeInstanceOf(SqliteProfilerStorage);
      expect((store as SqliteProfilerStorage).file).toBe('var/profiler.sqlite');
      await store.close();
      expect(fs.existsSync(path.join(dir, 'var', 'profiler.sqlite'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  (has('redis-server') ? it : it.skip)('gives a Redis store when redisUrl is set, whatever sqlitePath says', async () => {
    const redis = await startRedis();
    try {
      const store = await createProfilerStorage({ redisUrl: redis.url, sqlitePath: path.join(dir, 'unused.sqlite'), maxAgeSeconds: 60, now: () => T0 });
      expect(store).toBeInstanceOf(RedisProfilerStorage);
      expect((store as RedisProfilerStorage).retention.maxAgeSeconds).toBe(60);
      await store.write(makeProfile('aaaaaa', 0));
      const other = await createProfilerStorage({ redisUrl: redis.url, now: () => T0 });
      expect(await other.has('aaaaaa')).toBe(true);
      await Promise.all([store.close(), other.close()]);
      expect(fs.existsSync(path.join(dir, 'unused.sqlite'))).toBe(false);
    } finally {
      await redis.stop();
    }
  });

  it.each<[string, object, string]>([
    ['a Redis URL without its scheme', { redisUrl: '127.0.0.1:6379' },
      'Invalid option "profiler.storage.redisUrl": expected a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379" (got "127.0.0.1:6379").'],
    ['a mistyped option', { sqlitePth: 'x.sqlite' }, 'Invalid option "profiler.storage.sqlitePth": unknown option; did you mean "sqlitePath"?'],
    ['a cap in the wrong unit', { maxAgeSeconds: '2d' }, 'Invalid option "profiler.storage.maxAgeSeconds": expected a whole number of seconds (e.g. 172800 for 2 days) from 1 to 315360000 (got "2d").'],
    ['an empty SQLite path', { sqlitePath: '' }, 'Invalid option "profiler.storage.sqlitePath": expected a file path, e.g. "var/profiler.sqlite" (got "").'],
  ])('rejects %s, naming the option', async (_what, config, message) => {
    await expect(createProfilerStorage(config)).rejects.toThrow(message);
  });

  it('validates every option before opening anything', async () => {
    const file = path.join(dir, 'never', 'created.sqlite');
    await expect(createProfilerStorage({ sqlitePath: file, maxBytes: 0 })).rejects.toThrow('Invalid option "profiler.storage.maxBytes"');
    await expect(createProfilerStorage({ redisUrl: 'redis://127.0.0.1:1', maxProfiles: 0 })).rejects.toThrow('Invalid option "profiler.storage.maxProfiles"');
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});
