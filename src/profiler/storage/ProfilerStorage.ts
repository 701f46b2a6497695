import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';

/**
 * Where profiles live (Symfony `ProfilerStorageInterface`). Every implementation passes the
 * conformance suite in `tests/profiler/storage/conformance.ts`.
 *
 * Stores enforce their retention caps (see `ProfilerStorageOptions`) when they write; a profile
 * past its maximum age is hidden from `read`, `has` and `find` at once, and deleted on a later
 * write.
 */
export interface ProfilerStorage {
  /**
   * @returns the profile, or null when the token is unknown (or was purged, evicted or expired)
   * @throws Error when the backend fails
   */
  read(token: string): Promise<Profile | null>;
  /**
   * Stores a profile, replacing one with the same token, then evicts the oldest profiles past
   * the store's caps (which may be this one, when it is older than the maximum age).
   * @throws RangeError when the profile alone is larger than the store's byte cap
   * @throws Error when the backend fails (the profiler logs it and drops the profile)
   */
  write(profile: Profile): Promise<void>;
  /**
   * True when a profile given to {@link write} is returned by this store object's `read`, `has`
   * and `find` as soon as `write` returns, before its promise settles (a store that queues writes
   * for a batch commit, or one that writes in memory). The profiler then lets the response finish
   * at once, the profile already there for its link and toolbar, and logs a failed write instead
   * of waiting for it. Absent or false: the profiler waits for `write` before the last byte.
   */
  readonly writesVisibleAtOnce?: boolean;
  /**
   * @returns summaries matching the criteria, newest first (by `time`, then by token, descending)
   * @throws Error when the backend fails
   */
  find(criteria: ProfileCriteria): Promise<ProfileSummary[]>;
  /**
   * Whether a profile with this token is stored (and not past its retention). The profiler itself
   * does not ask: as Symfony's, it takes random tokens without checking them against the store.
   * @returns true when a profile has this token
   * @throws Error when the backend fails
   */
  has(token: string): Promise<boolean>;
  /**
   * Deletes every profile.
   * @throws Error when the backend fails
   */
  purge(): Promise<void>;
}

/** A store that holds a connection or a file open, as the stores of this folder do. */
export interface ClosableProfilerStorage extends ProfilerStorage {
  /** Releases what the store opened itself (a database it opened, a client it connected). */
  close(): Promise<void>;
}

/** Applies criteria to one summary (shared by the stores that filter in memory). */
export function matchesCriteria(p: ProfileSummary, c: ProfileCriteria): boolean {
  if (c.ip !== undefined && c.ip !== '' && !p.ip.includes(c.ip)) return false;
  if (c.method !== undefined && c.method !== '' && p.method !== c.method.toUpperCase()) return false;
  if (c.url !== undefined && c.url !== '' && !p.url.includes(c.url)) return false;
  if (c.statusCode !== undefined && p.statusCode !== c.statusCode) return false;
  if (c.start !== undefined && p.time < c.start) return false;
  if (c.end !== undefined && p.time > c.end) return false;
  return true;
}

/**
 * How many results a search returns at most: `criteria.limit`, rounded down; 10 when unset,
 * 0 for anything not above 0 (NaN included), `Infinity` for no limit.
 */
export function resultLimit(criteria: ProfileCriteria): number {
  const limit = criteria.limit ?? 10;
  return limit > 0 ? Math.floor(limit) : 0;
}

/** The summary of a profile; `parent` and `route` are left out when the profile has none. */
export function summaryOf(p: ProfileSummary): ProfileSummary {
  const summary: ProfileSummary = {
    token: p.token, ip: p.ip, method: p.method, url: p.url, time: p.time, statusCode: p.statusCode,
  };
  if (p.parent !== undefined) summary.parent = p.parent;
  if (p.route !== undefined) summary.route = p.route;
  return summary;
}

/**
 * Orders profiles oldest first, as the stores evict them: by `time`, then by token.
 * @returns a negative number when `a` is older than `b`
 */
export function compareAge(a: ProfileSummary, b: ProfileSummary): number {
  if (a.time !== b.time) return a.time - b.time;
  return a.token < b.token ? -1 : a.token > b.token ? 1 : 0;
}
