import type { RedisClient } from '../storage/redis';
import { DEFAULT_STORAGE_TIMEOUT_MS, withDeadline } from '../storage/StorageUnavailableError';
import { NONE, ThrottleHit, ThrottleStore } from './ThrottleStore';
import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

const TIMEOUT = 'expected an integer of milliseconds ≥ 1';

/** The options of {@link RedisThrottleStore}: {@link RedisThrottleStoreOptions}. */
export const redisThrottleStoreOptionsSchema = optionsObject({
  /** Prefix of every key. @default 'express-kernel:login-throttling:' */
  prefix: nonEmptyString.default('express-kernel:login-throttling:'),
  /**
   * The deadline of each hit or reset, in milliseconds: past it (a stalled Redis) the call rejects
   * with a `StorageUnavailableError` and login throttling answers 503. @default 1000
   */
  timeoutMs: z.number({ error: TIMEOUT }).int({ error: TIMEOUT }).min(1, { error: TIMEOUT })
    .max(Number.MAX_SAFE_INTEGER, { error: TIMEOUT }).default(DEFAULT_STORAGE_TIMEOUT_MS),
});

/** Options of {@link RedisThrottleStore}. */
export type RedisThrottleStoreOptions = z.input<typeof redisThrottleStoreOptionsSchema>;

/** INCR, start the window on the first hit, read the time left: one atomic script. */
const HIT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** The count and the time left, in one round trip; nothing when the key is gone. */
const PEEK = `local count = redis.call('GET', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), redis.call('PTTL', KEYS[1])}`;

/**
 * A {@link ThrottleStore} in Redis (`openRedis(url)`): every instance on the same Redis shares
 * counters; windows expire with Redis's own TTL, so clocks need not agree. When Redis is down or
 * stalled past `timeoutMs`, hits reject with a `StorageUnavailableError` and login throttling
 * answers 503.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly prefix: string;
  private readonly timeoutMs: number;

  /**
   * @param client - a connected client (`openRedis(url)`)
   * @param options - key prefix and deadline
   * @throws KernelConfigError `Invalid option "prefix": …` or `Invalid option "timeoutMs": …`
   */
  constructor(private readonly client: Pick<RedisClient, 'eval' | 'del'>, options: RedisThrottleStoreOptions = {}) {
    const o = parseOptions(redisThrottleStoreOptionsSchema, options, '');
    this.timeoutMs = o.timeoutMs;
    this.prefix = o.prefix;
  }

  async hit(key: string, windowSeconds: number): Promise<ThrottleHit> {
    return this.counter(HIT, key, [String(Math.round(windowSeconds * 1000))]);
  }

  async peek(key: string): Promise<ThrottleHit> {
    const hit = await this.counter(PEEK, key, []);
    return hit.count === 0 ? NONE : hit;
  }

  /** Runs a counter script (its reply: count, then the window's time left in ms) within the deadline. */
  private async counter(script: string, key: string, args: string[]): Promise<ThrottleHit> {
    const run = () => this.client.eval(script, { keys: [this.prefix + key], arguments: args });
    const [count, ttl] = (await withDeadline('Login throttling', this.timeoutMs, run)) as [number, number];
    return { count: Number(count), retryAfterSeconds: Math.max(0, Number(ttl)) / 1000 };
  }

  async reset(key: string): Promise<void> {
    await withDeadline('Login throttling', this.timeoutMs, () => this.client.del(this.prefix + key));
  }
}
