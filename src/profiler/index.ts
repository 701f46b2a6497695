/**
 * express-kernel/profiler: the debug web profiler (Symfony's WebProfilerBundle): the profiler,
 * its stores (memory, SQLite, Redis), the collector interface for your own panels, the
 * redaction helpers and the per-request logger.
 */
export { Profiler } from './Profiler';
export type { ProfilerOptions } from './Profiler';
export type { ProfilerRoutesOptions } from './ProfilerController';
export type { Profile, ProfileException, ProfileSummary, ProfileCriteria } from './Profile';
export type { ProfilerStorage, ClosableProfilerStorage } from './storage/ProfilerStorage';
export { MemoryProfilerStorage } from './storage/MemoryProfilerStorage';
export { SqliteProfilerStorage } from './storage/SqliteProfilerStorage';
export type { SqliteProfilerStorageOptions } from './storage/SqliteProfilerStorage';
export { RedisProfilerStorage } from './storage/RedisProfilerStorage';
export type { RedisProfilerStorageOptions } from './storage/RedisProfilerStorage';
export { createProfilerStorage } from './storage/createProfilerStorage';
export type { ProfilerStorageConfig } from './storage/createProfilerStorage';
export { profilerStorageOptionsSchema } from './storage/retention';
export type { ProfilerStorageOptions } from './storage/retention';
export type { DataCollector, CollectorSummary, CollectorStatus } from './collectors/DataCollector';
export { DatabaseCollector } from './collectors/DatabaseCollector';
export type { DatabaseData, DatabaseQuery } from './collectors/DatabaseCollector';
export { DEFAULT_SECRET_FIELDS, redact, redactUrl, REDACTED } from './redaction';
export { requestLog } from './requestLogger';
export type { LogRecord } from './requestLogger';
export { openSqlite } from '../storage/sqlite';
export type { SqliteDatabase } from '../storage/sqlite';
export { openRedis } from '../storage/redis';
export type { RedisClient } from '../storage/redis';
