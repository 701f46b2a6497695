import { NONE, ThrottleHit, ThrottleStore } from './ThrottleStore';

/** Options of {@link MemoryThrottleStore}. */
export interface MemoryThrottleStoreOptions {
  /** The clock, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

/**
 * A {@link ThrottleStore} in this process's memory: for tests and single-process use. Expired
 * windows are swept when the map grows past 10 000 keys.
 */
export class MemoryThrottleStore implements ThrottleStore {
  private readonly windows = new Map<string, { count: number; expiresAt: number }>();
  private readonly now: () => number;

  constructor(options: MemoryThrottleStoreOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  async hit(key: string, windowSeconds: number): Promise<ThrottleHit> {
    const now = this.now();
    if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (w.expiresAt <= now) this.windows.delete(k);
    let w = this.windows.get(key);
    if (w === undefined || w.expiresAt <= now) {
      w = { count: 0, expiresAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, retryAfterSeconds: (w.expiresAt - now) / 1000 };
  }

  async peek(key: string): Promise<ThrottleHit> {
    const now = this.now();
    const w = this.windows.get(key);
    if (w === undefined || w.expiresAt <= now) return NONE;
    return { count: w.count, retryAfterSeconds: (w.expiresAt - now) / 1000 };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}
