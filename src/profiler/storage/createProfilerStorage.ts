import { invalidOption } from '../../config/optionError';
import { MemoryProfilerStorage } from './MemoryProfilerStorage';
import type { ClosableProfilerStorage } from './ProfilerStorage';
import { RedisProfilerStorage } from './RedisProfilerStorage';
import { ProfilerStorageOptions, OPTION_PREFIX, resolveRetention } from './retention';
import { DEFAULT_SQLITE_PATH, SqliteProfilerStorage } from './SqliteProfilerStorage';

/** Configuration of {@link createProfilerStorage}: which store, and its retention caps. */
export interface ProfilerStorageConfig extends ProfilerStorageOptions {
  /**
   * The SQLite file of the embedded store, used when `redisUrl` is not set; `':memory:'` picks
   * the in-memory ring instead (profiles are lost when the process ends).
   * @default 'var/profiler.sqlite'
   */
  sqlitePath?: string;
  /**
   * A Redis URL: profiles then go to Redis, shared by every instance using it.
   * @example 'redis://127.0.0.1:6379'
   */
  redisUrl?: string;
  /** The Redis store's deadline per operation, in milliseconds (see `RedisProfilerStorageOptions`). @default 1000 */
  timeoutMs?: number;
  /**
   * SQLite store: responses wait for their profile's commit; `false` lets them end at once (see
   * `SqliteProfilerStorageOptions.awaitCommit`). @default true
   */
  awaitCommit?: boolean;
}

/**
 * Builds the profiler's store from configuration: Redis when `redisUrl` is set, else the SQLite
 * file at `sqlitePath` (`var/profiler.sqlite` by default), else, for `sqlitePath: ':memory:'`,
 * the in-memory ring. Every option is validated before anything is opened.
 * @returns the store; close it when the application stops
 * @throws KernelConfigError naming an invalid option (`Invalid option "profiler.storage.…": …`),
 *   or the SQLite file or Redis server that cannot be opened
 */
export async function createProfilerStorage(config: ProfilerStorageConfig = {}): Promise<ClosableProfilerStorage> {
  const { sqlitePath, redisUrl, timeoutMs, awaitCommit, ...retention } = config;
  resolveRetention(config, ['sqlitePath', 'redisUrl', 'timeoutMs', 'awaitCommit']);
  if (redisUrl !== undefined) {
    if (typeof redisUrl !== 'string' || !/^rediss?:\/\//.test(redisUrl)) {
      throw invalidOption(
        `${OPTION_PREFIX}redisUrl`, 'expected a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379"', redisUrl,
      );
    }
    return RedisProfilerStorage.open(redisUrl, { ...retention, timeoutMs });
  }
  if (sqlitePath === ':memory:') return new MemoryProfilerStorage(retention);
  return new SqliteProfilerStorage({ ...retention, sqlitePath: sqlitePath ?? DEFAULT_SQLITE_PATH, awaitCommit });
}
