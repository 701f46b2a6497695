import { createHash } from 'node:crypto';
import { formatMessage } from '../errors/codes';
import { ServiceUnavailableHttpError } from '../http/errors';
import { storageUnavailable } from '../storage/StorageUnavailableError';
import { AuthenticationError } from './AuthenticationError';
import type { ThrottleStore } from './ThrottleStore';
import { z } from 'zod';
import { integerFrom, objectWith, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/** The options of login throttling (Symfony `login_throttling`): {@link LoginThrottlingOptions}. */
export const loginThrottlingSchema = optionsObject({
  /** Failed attempts allowed per username and IP within the interval; the next is refused. @default 5 */
  maxAttempts: integerFrom(1).default(5),
  /** The interval, in seconds. @default 60 (Symfony's `'1 minute'`) */
  intervalSeconds: integerFrom(1).default(60),
  /** Where the counters live; share one between instances. @example new SqliteThrottleStore(openSqlite(file)) */
  store: objectWith<ThrottleStore>(['peek', 'hit', 'reset'],
    'a ThrottleStore (peek, hit, reset), e.g. new SqliteThrottleStore(openSqlite(file))'),
});

/** Options of login throttling (Symfony `login_throttling`). */
export type LoginThrottlingOptions = z.input<typeof loginThrottlingSchema>;

/** Symfony `DefaultLoginRateLimiter`: the IP alone may try five times as often as one username from it. */
const IP_FACTOR = 5;

/**
 * The key hit (with a 1 s window) to learn whether the store takes writes again after one failed:
 * not a username's or an IP's, so the probe counts against nobody.
 */
const PROBE_KEY = 'probe:writable';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The store keys of a username from an IP: `[username+IP, IP]`, hashed. */
function keysOf(username: string, ip: string): [string, string] {
  return [`user-ip:${sha256(`${username.toLowerCase()}-${ip}`)}`, `ip:${sha256(ip)}`];
}

/**
 * Login throttling (Symfony `LoginThrottlingListener` with `DefaultLoginRateLimiter`, as since
 * Symfony 6.2: a peek before the password check, a hit on failure only): failed password attempts
 * count against the lowercased username plus the client IP (`maxAttempts` per interval) and
 * against the IP alone (5 × `maxAttempts`); once either is reached, further attempts are refused
 * before the password is checked; a successful login resets both. Correct logins never count, so
 * any number of clients logging in with the right password at once are never throttled. Counts
 * are fixed windows in a {@link ThrottleStore}, under SHA-256 keys (no usernames in the store).
 *
 * Fails closed: once a failure could not be counted (the store refused the write, e.g. an SQLite
 * file on a full disk or made immutable, while it still answers reads), every attempt is a 503
 * before its password is checked, until a write to the store succeeds again (one probe write per
 * attempt meanwhile, on a key of its own). Without it, wrong passwords were answered 503 and
 * counted nothing while the right one was let in (or failed differently): guesses without limit,
 * each telling whether it was right.
 */
export class LoginThrottler {
  readonly maxAttempts: number;
  readonly intervalSeconds: number;
  private readonly store: ThrottleStore;
  /** Whether the last write to the store failed (see the class comment). */
  private unwritable = false;

  /**
   * @param option - the option path to blame in errors @default 'throttling'
   * @throws KernelConfigError e.g. `Invalid option "throttling.maxAttempts": expected an integer ≥ 1 (got 0).`
   */
  constructor(options: LoginThrottlingOptions, option = 'throttling') {
    const o = parseOptions(loginThrottlingSchema, options, option);
    this.maxAttempts = o.maxAttempts;
    this.intervalSeconds = o.intervalSeconds;
    this.store = o.store;
  }

  /**
   * Refuses a login attempt once the failures of the window reached the limit; counts nothing.
   * @returns true when failures were recorded (a success should then {@link reset} them)
   * @throws AuthenticationError `too_many_attempts`, message `Too many failed login attempts,
   *   please try again in 1 minute.`, when over the limit
   * @throws ServiceUnavailableHttpError (503) when the store fails, or when its last write failed
   *   and it still refuses one (whatever the password: see the class comment)
   */
  async check(username: string, ip: string): Promise<boolean> {
    if (this.unwritable) {
      await this.guard(() => this.store.hit(PROBE_KEY, 1), true);
      this.unwritable = false;
    }
    const [local, global] = await this.guard(() => Promise.all(keysOf(username, ip).map((k) => this.store.peek(k))));
    const refused = [
      local.count >= this.maxAttempts ? local : null,
      global.count >= this.maxAttempts * IP_FACTOR ? global : null,
    ].filter((h) => h !== null);
    if (refused.length === 0) return local.count + global.count > 0;
    const retryAfter = Math.max(1, Math.ceil(Math.max(...refused.map((h) => h.retryAfterSeconds))));
    const minutes = Math.ceil(retryAfter / 60);
    const message = formatMessage('ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS', `${minutes} minute${minutes > 1 ? 's' : ''}`);
    throw new AuthenticationError('too_many_attempts', message, retryAfter);
  }

  /**
   * Counts one failed login attempt (a wrong password) of a username from an IP.
   * @throws ServiceUnavailableHttpError (503) when the store fails
   */
  async fail(username: string, ip: string): Promise<void> {
    await this.guard(() => Promise.all(keysOf(username, ip).map((k) => this.store.hit(k, this.intervalSeconds))), true);
  }

  /**
   * Forgets the failed attempts of a username from an IP, after it logged in.
   * @throws ServiceUnavailableHttpError (503) when the store fails
   */
  async reset(username: string, ip: string): Promise<void> {
    await this.guard(() => Promise.all(keysOf(username, ip).map((k) => this.store.reset(k))), true);
  }

  /** Runs a store call; a failure is a 503 (and, for a write, makes the throttler fail closed). */
  private async guard<T>(work: () => Promise<T>, write = false): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (write) this.unwritable = true;
      const message = 'Login throttling is unavailable, please try again later.';
      const error = new ServiceUnavailableHttpError(message, { cause: e });
      // the store's reason with its code (`SQLITE_IOERR_WRITE: disk I/O error`) on the error itself:
      // the log's serializer keeps the causes' messages, not their codes
      throw Object.assign(error, { reason: storageUnavailable('Login throttling', e).reason });
    }
  }
}
