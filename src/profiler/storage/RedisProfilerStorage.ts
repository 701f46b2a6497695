import { invalidOption } from '../../config/optionError';
import { closeRedis, openRedis, RedisClient } from '../../storage/redis';
import { DEFAULT_STORAGE_TIMEOUT_MS, withDeadline } from '../../storage/StorageUnavailableError';
import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';
import { ClosableProfilerStorage, matchesCriteria, resultLimit, summaryOf } from './ProfilerStorage';
import {
  ageCutoff, encodeProfile, OPTION_PREFIX, ProfilerStorageOptions, ResolvedRetention, resolveRetention,
} from './retention';

/** Options of {@link RedisProfilerStorage}: where its keys go, and the retention caps. */
export interface RedisProfilerStorageOptions extends ProfilerStorageOptions {
  /**
   * Prefix of every key the store uses; instances with the same prefix on the same Redis share
   * their profiles. Letters, digits and `:_-.{}` only.
   * @default 'express-kernel:profiler:'
   */
  keyPrefix?: string;
  /**
   * The deadline of each operation, in milliseconds (also the command timeout of the client
   * {@link RedisProfilerStorage.open} connects): past it the operation rejects with a
   * `StorageUnavailableError` (503 `Profiler storage is unavailable.`), so a stalled Redis never
   * holds a response longer. @default 1000
   */
  timeoutMs?: number;
}

/**
 * Stores one profile and evicts, atomically. KEYS: index (sorted set token → time), summaries
 * (hash token → summary JSON), sizes (hash token → bytes), bytes (total). ARGV: key prefix,
 * token, profile JSON, summary JSON, bytes, time, TTL in ms, age cutoff, maxProfiles, maxBytes.
 * Profile keys are built from the prefix, so the store wants a single Redis, not a cluster.
 */
const WRITE = `
local index, summaries, sizes, total = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local prefix, token = ARGV[1], ARGV[2]
local function remove(t)
  local size = redis.call('HGET', sizes, t)
  if size then redis.call('DECRBY', total, size) end
  redis.call('ZREM', index, t)
  redis.call('HDEL', summaries, t)
  redis.call('HDEL', sizes, t)
  redis.call('DEL', prefix .. 'profile:' .. t)
end
remove(token)
for _, t in ipairs(redis.call('ZRANGEBYSCORE', index, '-inf', '(' .. ARGV[8])) do remove(t) end
if tonumber(ARGV[6]) >= tonumber(ARGV[8]) then
  redis.call('SET', prefix .. 'profile:' .. token, ARGV[3], 'PX', ARGV[7])
  redis.call('ZADD', index, ARGV[6], token)
  redis.call('HSET', summaries, token, ARGV[4])
  redis.call('HSET', sizes, token, ARGV[5])
  redis.call('INCRBY', total, ARGV[5])
end
local excess = redis.call('ZCARD', index) - tonumber(ARGV[9])
if excess > 0 then
  for _, t in ipairs(redis.call('ZRANGE', index, 0, excess - 1)) do remove(t) end
end
while tonumber(redis.call('GET', total) or '0') > tonumber(ARGV[10]) do
  local oldest = redis.call('ZRANGE', index, 0, 0)[1]
  if not oldest then break end
  remove(oldest)
end
return redis.status_reply('OK')
`;

/** How many index entries `find` reads per round trip. */
const FIND_BATCH = 200;

/**
 * Profiles in Redis (the official `redis` client), shared by every instance that uses the same
 * Redis and key prefix: a profile written by one instance is read by the others.
 *
 * Each profile's JSON sits under its own key with a TTL of what is left of its maximum age; a
 * sorted set by time lists them newest first and decides who goes first when the count or
 * byte cap is exceeded; a hash keeps the summaries `find` filters. A write and its evictions run
 * as one Lua script, so concurrent writers from several instances keep the caps.
 *
 * When Redis is down or stalled past `timeoutMs`, every method rejects with a
 * `StorageUnavailableError` (the client does not queue commands while offline): the profiler then
 * drops the profile (the response goes on), and its pages answer 503.
 */
export class RedisProfilerStorage implements ClosableProfilerStorage {
  readonly retention: ResolvedRetention;
  readonly keyPrefix: string;
  private readonly keys: { index: string; summaries: string; sizes: string; bytes: string };
  private readonly timeoutMs: number;

  /**
   * @param client - a connected client (`openRedis(url)`); the caller closes it
   * @param options - key prefix and retention caps
   * @param ownsClient - close the client in {@link close} (set by {@link RedisProfilerStorage.open})
   * @throws KernelConfigError naming an invalid option
   */
  constructor(
    private readonly client: RedisClient,
    options: RedisProfilerStorageOptions = {},
    private readonly ownsClient = false,
  ) {
    this.retention = resolveRetention(options, ['keyPrefix', 'timeoutMs']);
    this.timeoutMs = storeTimeout(options.timeoutMs);
    if (typeof client !== 'object' || client === null || typeof client.eval !== 'function') {
      throw invalidOption(
        `${OPTION_PREFIX}redis`, 'expected a connected node-redis client, e.g. await openRedis(url)', client,
        { got: false },
      );
    }
    const prefix = options.keyPrefix ?? 'express-kernel:profiler:';
    if (typeof prefix !== 'string' || !/^[\w:.{}-]*$/.test(prefix)) {
      throw invalidOption(
        `${OPTION_PREFIX}keyPrefix`, 'expected letters, digits and ":_-.{}" only, e.g. "myapp:profiler:"', prefix,
      );
    }
    this.keyPrefix = prefix;
    this.keys = {
      index: `${prefix}index`, summaries: `${prefix}summaries`, sizes: `${prefix}sizes`, bytes: `${prefix}bytes`,
    };
  }

  /**
   * Connects to Redis and returns a store that closes its client in {@link close}.
   * @param url - e.g. `redis://127.0.0.1:6379`
   * @throws KernelConfigError naming an invalid option
   * @throws Error `Invalid option "profiler.storage.redisUrl": cannot connect to Redis at …`
   */
  static async open(url: string, options: RedisProfilerStorageOptions = {}): Promise<RedisProfilerStorage> {
    resolveRetention(options, ['keyPrefix', 'timeoutMs']); // fail on bad options before connecting
    const commandTimeoutMs = storeTimeout(options.timeoutMs);
    const client = await openRedis(url, `${OPTION_PREFIX}redisUrl`, { commandTimeoutMs });
    try {
      return new RedisProfilerStorage(client, options, true);
    } catch (e) {
      await client.close();
      throw e;
    }
  }

  private profileKey(token: string): string {
    return `${this.keyPrefix}profile:${token}`;
  }

  read(token: string): Promise<Profile | null> {
    return this.call(() => this.readNow(token));
  }

  async write(profile: Profile): Promise<void> {
    const args = this.writeArguments(profile);
    await this.call(() => this.client.eval(WRITE, args));
  }

  find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    return this.call(() => this.findNow(criteria));
  }

  has(token: string): Promise<boolean> {
    return this.call(() => this.hasNow(token));
  }

  /** Runs one operation within the deadline; any failure becomes a `StorageUnavailableError`. */
  private call<T>(operation: () => Promise<T>): Promise<T> {
    return withDeadline('Profiler', this.timeoutMs, operation);
  }

  private async readNow(token: string): Promise<Profile | null> {
    const json = await this.client.get(this.profileKey(token));
    if (json === null) return null;
    const profile = JSON.parse(json) as Profile;
    return profile.time < ageCutoff(this.retention) ? null : profile;
  }

  /** Encodes the profile (a profile JSON cannot carry, or too large, throws here, not as an outage). */
  private writeArguments(profile: Profile): { keys: string[]; arguments: string[] } {
    const { json, bytes } = encodeProfile(profile, this.retention);
    const cutoff = ageCutoff(this.retention);
    // The age limit is enforced logically by read/has/find; the key's TTL only cleans up, a minute
    // late, so a profile right at the limit is never expired by Redis's clock before ours says so.
    const ttlMs = Math.max(1, Math.ceil(profile.time - cutoff)) + 60_000;
    const { index, summaries, sizes, bytes: total } = this.keys;
    return {
      keys: [index, summaries, sizes, total],
      arguments: [
        this.keyPrefix, profile.token, json, JSON.stringify(summaryOf(profile)), String(bytes), String(profile.time),
        String(ttlMs), String(cutoff), String(this.retention.maxProfiles), String(this.retention.maxBytes),
      ],
    };
  }

  /** Walks the sorted set newest first, within the time bounds, filtering the summaries here. */
  private async findNow(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    const limit = resultLimit(criteria);
    const min = String(Math.max(ageCutoff(this.retention), criteria.start ?? -Infinity));
    const max = criteria.end === undefined ? '+inf' : String(criteria.end);
    const out: ProfileSummary[] = [];
    for (let offset = 0; out.length < limit; offset += FIND_BATCH) {
      const tokens = await this.client.zRange(this.keys.index, max, min, {
        BY: 'SCORE', REV: true, LIMIT: { offset, count: FIND_BATCH },
      });
      if (tokens.length === 0) break;
      const found = await this.client.hmGet(this.keys.summaries, tokens);
      for (const json of found) {
        if (json === null) continue;
        const summary = JSON.parse(json) as ProfileSummary;
        if (matchesCriteria(summary, criteria) && out.push(summary) >= limit) break;
      }
      if (tokens.length < FIND_BATCH) break;
    }
    return out;
  }

  private async hasNow(token: string): Promise<boolean> {
    const [exists, time] = await Promise.all([
      this.client.exists(this.profileKey(token)),
      this.client.zScore(this.keys.index, token),
    ]);
    return exists === 1 && time !== null && time >= ageCutoff(this.retention);
  }

  /** Deletes the index and every profile key under the prefix (SCAN, not KEYS). */
  async purge(): Promise<void> {
    // the prefix has no glob characters (see the constructor)
    for await (const keys of this.client.scanIterator({ MATCH: `${this.keyPrefix}profile:*`, COUNT: 500 })) {
      if (keys.length > 0) await this.client.del(keys);
    }
    await this.client.del(Object.values(this.keys));
  }

  /**
   * Closes the client when {@link RedisProfilerStorage.open} connected it: waits for pending
   * commands, or drops them when Redis is down.
   */
  async close(): Promise<void> {
    if (this.ownsClient) await closeRedis(this.client);
  }
}

/** Validates the `timeoutMs` option. */
function storeTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_STORAGE_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw invalidOption(`${OPTION_PREFIX}timeoutMs`, 'expected an integer of milliseconds ≥ 1, e.g. 1000', value);
  }
  return value;
}
