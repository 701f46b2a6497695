/**
 * express-kernel/testing: helpers for an application's own tests.
 *
 * @example
 * ```ts
 * import request from 'supertest';
 * import { profileOf } from 'express-kernel/testing';
 *
 * const res = await request(kernel).get('/api/books/abc');
 * const profile = await profileOf(res);
 * expect(profile.collectors.router.route).toBeUndefined();
 * expect(profile.collectors.exception.exceptions[0].class).toBe('MethodNotAllowedHttpError');
 * ```
 */
import type { Profile } from '../profiler/Profile';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import type {
  ConfigData, CorsData, ExceptionCollectorData, LocaleData, LoggerData, MemoryData, RequestData,
  RouterData, SecurityData, SessionData, TimeData, TimeZoneData,
} from '../profiler/collectors';

export type {
  ConfigData, CorsData, ExceptionCollectorData, ExceptionEntry, LocaleData, LoggerData, MemoryData,
  RequestData, RouterData, SecurityData, SecurityDecision, SessionData, TimeData, TimelineEvent, TimeZoneData,
} from '../profiler/collectors';
export type { LogRecord } from '../profiler/requestLogger';
export type { StackFrame, SourceExcerpt } from '../profiler/stackFrames';
export type { Profile } from '../profiler/Profile';

/**
 * The data of each collector by name. Add your own collectors' data by declaration merging:
 * ```ts
 * declare module 'express-kernel/testing' {
 *   interface CollectorDataMap { cache: { hits: number } }
 * }
 * ```
 */
export interface CollectorDataMap {
  request: RequestData;
  time: TimeData;
  memory: MemoryData;
  exception: ExceptionCollectorData;
  logger: LoggerData;
  router: RouterData;
  security: SecurityData;
  session: SessionData;
  cors: CorsData;
  locale: LocaleData;
  timezone: TimeZoneData;
  config: ConfigData;
}

/** A stored profile whose collectors' data is typed. */
export type TypedProfile = Omit<Profile, 'collectors'> & { collectors: CollectorDataMap & Record<string, unknown> };

/**
 * What {@link profileOf} reads a token from: a supertest/superagent response, a fetch `Response`, or anything with
 * headers.
 */
export type ResponseLike =
  | { headers: Record<string, string | string[] | undefined> | { get(name: string): string | null }; request?: unknown }
  | { header: Record<string, string | string[] | undefined>; request?: unknown };

/** A kernel (anything with `profiler.storage`) or a profiler store. */
export type ProfileSource = { profiler?: { storage: ProfilerStorage } } | ProfilerStorage;

function tokenOf(response: ResponseLike): string | undefined {
  const headers = 'headers' in response ? response.headers : response.header;
  const value = typeof (headers as { get?: unknown }).get === 'function'
    ? (headers as { get(name: string): string | null }).get('x-debug-token')
    : (headers as Record<string, string | string[] | undefined>)['x-debug-token'];
  const token = Array.isArray(value) ? value[0] : value;
  return token === null || token === undefined || token === '' ? undefined : token;
}

function isStorage(source: unknown): source is ProfilerStorage {
  return typeof source === 'object' && source !== null
    && typeof (source as ProfilerStorage).read === 'function' && typeof (source as ProfilerStorage).find === 'function';
}

function storageOf(source: unknown): ProfilerStorage | undefined {
  if (isStorage(source)) return source;
  const storage = (source as { profiler?: { storage?: unknown } } | undefined)?.profiler?.storage;
  return isStorage(storage) ? storage : undefined;
}

/**
 * The kernel supertest served: `request(kernel)` wraps it in an `http.Server` whose `request`
 * listener is the kernel.
 */
function kernelOfSupertest(response: ResponseLike): unknown {
  const server = (response.request as { app?: { listeners?: (event: string) => unknown[] } } | undefined)?.app;
  if (typeof server?.listeners !== 'function') return undefined;
  return server.listeners('request').find((l) => storageOf(l) !== undefined);
}

/**
 * The stored profile of a response, with typed collector data.
 * @param response - a supertest response (or any response with an `X-Debug-Token` header)
 * @param source - the kernel or the profiler store; may be left out when `response` comes from
 *   `request(kernel)` (supertest), but not when the kernel is mounted in another app
 * @returns the profile
 * @throws Error when the response has no `X-Debug-Token` (profiler off, or a profiler page), when
 *   no store can be found, or when the store has no profile for the token
 */
export async function profileOf(response: ResponseLike, source?: ProfileSource): Promise<TypedProfile> {
  const token = tokenOf(response);
  if (token === undefined) {
    throw new Error('profileOf: the response has no X-Debug-Token header. Is the kernel in debug mode '
      + 'with the profiler on, and is the path outside /_profiler and /_wdt?');
  }
  const storage = storageOf(source) ?? (source === undefined ? storageOf(kernelOfSupertest(response)) : undefined);
  if (storage === undefined) {
    throw new Error('profileOf: no profiler store found. Pass the kernel or its store: profileOf(res, kernel).');
  }
  const profile = await storage.read(token);
  if (profile === null) {
    throw new Error(`profileOf: no profile stored for token "${token}" (evicted, expired, or another store).`);
  }
  return profile as TypedProfile;
}
