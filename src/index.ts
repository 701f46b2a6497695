/**
 * express-kernel: a layered HTTP kernel for Express 5 with Symfony's routing semantics and a
 * debug web profiler.
 */
export const VERSION = '0.1.0';
export * from './routing';
export * from './http/errors';
export { resolveRequestUri, compileTrust } from './http/RequestUri';
export { refuseConnect } from './http/connect';
export type { RequestUri, TrustFunction } from './http/RequestUri';
export { renderError, exceptionChain, statusOf, reasonPhrase } from './http/ErrorRenderer';
export { securityHeaders } from './http/securityHeaders';
export type { ExceptionData, ErrorRenderOptions } from './http/ErrorRenderer';
export { ERROR_CODES, formatMessage } from './errors/codes';
export type { ErrorCode } from './errors/codes';
export { createKernel } from './kernel/createKernel';
export type { Kernel } from './kernel/createKernel';
export { KernelConfigError, resolveKernelOptions } from './kernel/options';
export type { KernelOptions, ResolvedKernelOptions } from './kernel/options';
export { LAYER_ORDER } from './kernel/layers';
export type { KernelRequestState } from './kernel/state';
export { Profiler } from './profiler/Profiler';
export type { ProfilerOptions } from './profiler/Profiler';
export type { Profile, ProfileException, ProfileSummary, ProfileCriteria } from './profiler/Profile';
export type { ProfilerStorage } from './profiler/storage/ProfilerStorage';
export { MemoryProfilerStorage } from './profiler/storage/MemoryProfilerStorage';
export { SqliteProfilerStorage } from './profiler/storage/SqliteProfilerStorage';
export { RedisProfilerStorage } from './profiler/storage/RedisProfilerStorage';
export { createProfilerStorage } from './profiler/storage/createProfilerStorage';
export type { DataCollector } from './profiler/collectors/DataCollector';
export { createDemoRoutes } from './demo/routes';
export { createDemoKernel } from './demo/app';
export * from './security';
export * from './session';
export * from './cors';
export * from './locale';
export * from './timezone';
export { openSqlite } from './storage/sqlite';
export type { SqliteDatabase } from './storage/sqlite';
export { openRedis } from './storage/redis';
export type { RedisClient } from './storage/redis';
export { redact, redactUrl, REDACTED } from './profiler/redaction';
export type { ProfilerRoutesOptions } from './profiler/ProfilerController';
