/** The state of a throttling counter after one hit. */
export interface ThrottleHit {
  /** Hits in the current window, this one included (1 for the first). */
  readonly count: number;
  /** Seconds until the window ends and the count starts again from 0 (≥ 0, may be fractional). */
  readonly retryAfterSeconds: number;
}

/**
 * Fixed-window counters for login throttling (Symfony's rate limiter storage), shared by every
 * kernel that uses the same backend. Implementations: {@link MemoryThrottleStore} (one process,
 * tests), {@link SqliteThrottleStore} (instances on one host), {@link RedisThrottleStore}.
 * `tests/security/ThrottleStore.test.ts` runs one conformance suite against each.
 */
export interface ThrottleStore {
  /**
   * Counts one hit, atomically with respect to every other user of the same backend. The first
   * hit of a window opens it for `windowSeconds`.
   * @param key - an opaque key (the throttler passes hashes)
   * @param windowSeconds - the window length in seconds, ≥ 1
   * @throws Error when the backend fails (the throttler answers 503)
   */
  hit(key: string, windowSeconds: number): Promise<ThrottleHit>;
  /**
   * Reads a key's hits in its current window without counting one.
   * @returns the count (0, with `retryAfterSeconds` 0, when no window is open)
   * @throws Error when the backend fails
   */
  peek(key: string): Promise<ThrottleHit>;
  /**
   * Forgets a key's hits.
   * @throws Error when the backend fails
   */
  reset(key: string): Promise<void>;
}

/** The state of a key without an open window. */
export const NONE: ThrottleHit = Object.freeze({ count: 0, retryAfterSeconds: 0 });
