import type { RedisClient } from '../storage/redis';
import type { ThrottleHit, ThrottleStore } from './ThrottleStore';
import { knownKeys, objectOption, stringOption } from './optionValidation';

/** Options of {@link RedisThrottleStore}. */
export interface RedisThrottleStoreOptions {
  /** Prefix of every key. @default 'express-kernel:login-throttling:' */
  prefix?: string;
}

/** INCR, start the window on the first hit, read the time left: one atomic script. */
const HIT = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/**
 * A {@link ThrottleStore} in Redis (`openRedis(url)`): every instance on the same Redis shares
 * counters; windows expire with Redis's own TTL, so clocks need not agree. When Redis is down,
 * hits fail and login throttling answers 503.
 */
export class RedisThrottleStore implements ThrottleStore {
  private readonly prefix: string;

  /**
   * @param client - a connected client (`openRedis(url)`)
   * @throws KernelConfigError `Invalid option "prefix": …`
   */
  constructor(private readonly client: Pick<RedisClient, 'eval' | 'del'>, options: RedisThrottleStoreOptions = {}) {
    knownKeys(objectOption(options, 'options'), ['prefix'], '');
    this.prefix = options.prefix === undefined ? 'express-kernel:login-throttling:' : stringOption(options.prefix, 'prefix');
  }

  async hit(key: string, windowSeconds: number): Promise<ThrottleHit> {
    const reply = await this.client.eval(HIT, { keys: [this.prefix + key], arguments: [String(Math.round(windowSeconds * 1000))] });
    const [count, ttl] = reply as [number, number];
    return { count: Number(count), retryAfterSeconds: Math.max(0, Number(ttl)) / 1000 };
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.prefix + key);
  }
}
