import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';
import { matchesCriteria, ProfilerStorage, summaryOf } from './ProfilerStorage';

/**
 * A bounded in-memory ring of profiles, newest last: writing past `maxProfiles` drops the
 * oldest. For tests and single-process development.
 */
export class MemoryProfilerStorage implements ProfilerStorage {
  private readonly profiles = new Map<string, Profile>();

  /** @param maxProfiles - how many profiles to keep (1–1,000,000) @default 1000 */
  constructor(private readonly maxProfiles = 1000) {
    if (!Number.isInteger(maxProfiles) || maxProfiles < 1 || maxProfiles > 1_000_000) {
      throw new RangeError(`Invalid option "maxProfiles": expected an integer from 1 to 1000000, got ${String(maxProfiles)}`);
    }
  }

  async read(token: string): Promise<Profile | null> {
    return this.profiles.get(token) ?? null;
  }

  async write(profile: Profile): Promise<void> {
    this.profiles.delete(profile.token);
    this.profiles.set(profile.token, profile);
    while (this.profiles.size > this.maxProfiles) {
      const oldest = this.profiles.keys().next().value as string;
      this.profiles.delete(oldest);
    }
  }

  async find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    const limit = criteria.limit ?? 10;
    const out: ProfileSummary[] = [];
    const all = [...this.profiles.values()];
    for (let i = all.length - 1; i >= 0 && out.length < limit; i--) {
      if (matchesCriteria(all[i], criteria)) out.push(summaryOf(all[i]));
    }
    return out;
  }

  async has(token: string): Promise<boolean> {
    return this.profiles.has(token);
  }

  async purge(): Promise<void> {
    this.profiles.clear();
  }
}
