import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';

/**
 * Where profiles live (Symfony `ProfilerStorageInterface`). Every implementation passes the
 * conformance suite in `tests/profiler/storage.conformance.ts`.
 */
export interface ProfilerStorage {
  /**
   * @returns the profile, or null when the token is unknown (or was purged)
   * @throws Error when the backend fails
   */
  read(token: string): Promise<Profile | null>;
  /**
   * Stores a profile, enforcing the store's caps.
   * @throws Error when the backend fails (the profiler logs it and drops the profile)
   */
  write(profile: Profile): Promise<void>;
  /** @returns summaries matching the criteria, newest first */
  find(criteria: ProfileCriteria): Promise<ProfileSummary[]>;
  /** @returns true when a profile has this token (used to keep tokens unique) */
  has(token: string): Promise<boolean>;
  /** Deletes every profile. */
  purge(): Promise<void>;
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

/** The summary of a profile. */
export function summaryOf(p: Profile): ProfileSummary {
  return { token: p.token, parent: p.parent, ip: p.ip, method: p.method, url: p.url, time: p.time, statusCode: p.statusCode, route: p.route };
}
