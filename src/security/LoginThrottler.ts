import { createHash } from 'node:crypto';
import { ServiceUnavailableHttpError } from '../http/errors';
import { AuthenticationError } from './AuthenticationError';
import type { ThrottleStore } from './ThrottleStore';
import { integerOption, invalid, knownKeys, objectOption } from '../config/optionValidation';

/** Options of login throttling (Symfony `login_throttling`). */
export interface LoginThrottlingOptions {
  /** Failed attempts allowed per username and IP within the interval; the next is refused. @default 5 */
  maxAttempts?: number;
  /** The interval, in seconds. @default 60 (Symfony's `'1 minute'`) */
  intervalSeconds?: number;
  /** Where the counters live; share one between instances. */
  store: ThrottleStore;
}

/** Symfony `DefaultLoginRateLimiter`: the IP alone may try five times as often as one username from it. */
const IP_FACTOR = 5;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The store keys of a username from an IP: `[username+IP, IP]`, hashed. */
function keysOf(username: string, ip: string): [string, string] {
  return [`user-ip:${sha256(`${username.toLowerCase()}-${ip}`)}`, `ip:${sha256(ip)}`];
}

/**
 * Login throttling (Symfony `LoginThrottlingListener` with `DefaultLoginRateLimiter`): every
 * password attempt counts against the lowercased username plus the client IP (`maxAttempts` per
 * interval) and against the IP alone (5 × `maxAttempts`); a successful login resets both. Counts
 * are fixed windows in a {@link ThrottleStore}, under SHA-256 keys (no usernames in the store).
 */
export class LoginThrottler {
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  private readonly store: ThrottleStore;

  /**
   * @param option - the option path to blame in errors @default 'throttling'
   * @throws KernelConfigError e.g. `Invalid option "throttling.maxAttempts": expected an integer ≥ 1 (got 0).`
   */
  constructor(options: LoginThrottlingOptions, option = 'throttling') {
    const o = objectOption(options, option);
    knownKeys(o, ['maxAttempts', 'intervalSeconds', 'store'], option);
    this.maxAttempts = integerOption(o.maxAttempts, `${option}.maxAttempts`, 5, 1);
    this.intervalSeconds = integerOption(o.intervalSeconds, `${option}.intervalSeconds`, 60, 1);
    const store = o.store as ThrottleStore | undefined;
    if (typeof store?.hit !== 'function' || typeof store.reset !== 'function') {
      throw invalid(`${option}.store`, 'expected a ThrottleStore, e.g. new SqliteThrottleStore(openSqlite(file))', store);
    }
    this.store = store;
  }

  /**
   * Counts one login attempt.
   * @throws AuthenticationError `too_many_attempts`, message `Too many failed login attempts,
   *   please try again in 1 minute.`, when over the limit
   * @throws ServiceUnavailableHttpError (503) when the store fails
   */
  async consume(username: string, ip: string): Promise<void> {
    const [local, global] = await this.guard(() => Promise.all(keysOf(username, ip).map((k) => this.store.hit(k, this.intervalSeconds))));
    const refused = [local.count > this.maxAttempts ? local : null, global.count > this.maxAttempts * IP_FACTOR ? global : null]
      .filter((h) => h !== null);
    if (refused.length === 0) return;
    const retryAfter = Math.max(1, Math.ceil(Math.max(...refused.map((h) => h.retryAfterSeconds))));
    const minutes = Math.ceil(retryAfter / 60);
    throw new AuthenticationError('too_many_attempts', `Too many failed login attempts, please try again in ${minutes} minute${minutes > 1 ? 's' : ''}.`, retryAfter);
  }

  /**
   * Forgets the attempts of a username from an IP, after it logged in.
   * @throws ServiceUnavailableHttpError (503) when the store fails
   */
  async reset(username: string, ip: string): Promise<void> {
    await this.guard(() => Promise.all(keysOf(username, ip).map((k) => this.store.reset(k))));
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      throw new ServiceUnavailableHttpError('Login throttling is unavailable, please try again later.', { cause: e });
    }
  }
}
