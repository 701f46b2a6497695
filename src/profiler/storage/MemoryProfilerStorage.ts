import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';
import { ClosableProfilerStorage, compareAge, matchesCriteria, resultLimit, summaryOf } from './ProfilerStorage';
import { ageCutoff, encodeProfile, ProfilerStorageOptions, ResolvedRetention, resolveRetention } from './retention';

interface Entry {
  readonly summary: ProfileSummary;
  readonly json: string;
  readonly bytes: number;
}

/**
 * Profiles in this process's memory, for tests and single-process development: a ring kept
 * oldest first, from which writes past the caps drop the oldest. Profiles are kept as JSON, so
 * a read returns a fresh copy and the byte cap counts what the other stores would store.
 */
export class MemoryProfilerStorage implements ClosableProfilerStorage {
  readonly retention: ResolvedRetention;
  private readonly entries = new Map<string, Entry>();
  /** Oldest first, by {@link compareAge}. */
  private readonly ring: Entry[] = [];
  private totalBytes = 0;

  /**
   * @param options - the retention caps; a number is `maxProfiles` alone
   * @throws KernelConfigError naming an invalid option
   */
  constructor(options: ProfilerStorageOptions | number = {}) {
    this.retention = resolveRetention(typeof options === 'number' ? { maxProfiles: options } : options);
  }

  async read(token: string): Promise<Profile | null> {
    const entry = this.entries.get(token);
    if (entry === undefined || entry.summary.time < ageCutoff(this.retention)) return null;
    return JSON.parse(entry.json) as Profile;
  }

  /** The profile is in the ring when `write` returns. */
  readonly writesVisibleAtOnce = true;

  async write(profile: Profile): Promise<void> {
    const { json, bytes } = encodeProfile(profile, this.retention);
    this.remove(profile.token);
    const entry: Entry = { summary: summaryOf(profile), json, bytes };
    this.ring.splice(this.position(entry.summary), 0, entry);
    this.entries.set(profile.token, entry);
    this.totalBytes += bytes;
    this.evict();
  }

  async find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    const limit = resultLimit(criteria);
    const cutoff = ageCutoff(this.retention);
    const out: ProfileSummary[] = [];
    for (let i = this.ring.length - 1; i >= 0 && out.length < limit; i--) {
      const summary = this.ring[i].summary;
      if (summary.time < cutoff) break;
      if (matchesCriteria(summary, criteria)) out.push({ ...summary });
    }
    return out;
  }

  async has(token: string): Promise<boolean> {
    const entry = this.entries.get(token);
    return entry !== undefined && entry.summary.time >= ageCutoff(this.retention);
  }

  async purge(): Promise<void> {
    this.entries.clear();
    this.ring.length = 0;
    this.totalBytes = 0;
  }

  /** Nothing to release. */
  async close(): Promise<void> {}

  /** Where a summary goes in the ring (binary search; writes mostly append). */
  private position(summary: ProfileSummary): number {
    let lo = 0;
    let hi = this.ring.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareAge(this.ring[mid].summary, summary) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private remove(token: string): void {
    const entry = this.entries.get(token);
    if (entry === undefined) return;
    this.ring.splice(this.position(entry.summary), 1);
    this.entries.delete(token);
    this.totalBytes -= entry.bytes;
  }

  /** Drops the oldest profiles while one is past the age cap, or the count or bytes are over. */
  private evict(): void {
    const { maxProfiles, maxBytes } = this.retention;
    const cutoff = ageCutoff(this.retention);
    while (this.ring.length > 0) {
      const oldest = this.ring[0];
      if (oldest.summary.time >= cutoff && this.ring.length <= maxProfiles && this.totalBytes <= maxBytes) return;
      this.remove(oldest.summary.token);
    }
  }
}
