import type { createClient } from 'redis';
import { loadPeer } from './optionalPeer';
import { DEFAULT_STORAGE_TIMEOUT_MS } from './StorageUnavailableError';

/** Options of {@link openRedis}. */
export interface OpenRedisOptions {
  /**
   * The deadline of every command, in milliseconds: a stalled Redis (a paused process, a full
   * network buffer) fails the command after it instead of hanging the request. @default 1000
   */
  commandTimeoutMs?: number;
}

/**
 * A connected node-redis client (`redis` 5 or 6, `createClient()`), as far as the kernel uses it.
 *
 * Declared here rather than imported from `redis`, an optional peer dependency: the published
 * declarations must compile for an application that has not installed it. A real client fits.
 */
export interface RedisClient {
  /** Whether the socket is open (possibly still connecting or reconnecting). */
  readonly isOpen: boolean;
  /** Whether the client can run commands now. */
  readonly isReady: boolean;
  /** `GET key`: the value, or null. */
  get(key: string): Promise<string | null>;
  /** `EVAL script numkeys keys… args…`: the script's reply. */
  eval(script: string, options?: { keys?: string[]; arguments?: string[] }): Promise<unknown>;
  /** `ZRANGE key min max [BYSCORE] [REV] [LIMIT offset count]`: the members. */
  zRange(
    key: string, min: string | number, max: string | number,
    options?: { BY?: 'SCORE' | 'LEX'; REV?: boolean; LIMIT?: { offset: number; count: number } },
  ): Promise<string[]>;
  /** `HMGET key field…`: each field's value, or null. */
  hmGet(key: string, fields: string[]): Promise<Array<string | null>>;
  /** `EXISTS key…`: how many exist. */
  exists(keys: string | string[]): Promise<number>;
  /** `ZSCORE key member`: the score, or null. */
  zScore(key: string, member: string): Promise<number | null>;
  /** `SCAN` as an async iterator of key batches. */
  scanIterator(options?: { MATCH?: string; COUNT?: number }): AsyncIterable<string[]>;
  /** `DEL key…`: how many were deleted. */
  del(keys: string | string[]): Promise<number>;
  /** Waits for pending commands, then closes the connection. */
  close(): Promise<unknown>;
  /** Closes the connection at once, dropping pending commands. */
  destroy(): void;
  /** `QUIT`: waits for pending commands, then closes the connection (older name of `close`). */
  quit(): Promise<unknown>;
}

/**
 * Closes a client without waiting for a Redis that is down: waits for pending commands when the
 * client is ready, and drops the connection at once otherwise. node-redis's own `close()` and
 * `quit()` wait for a reconnecting client to be connected again, which a Redis that stays down
 * never lets happen: a process shutting down would hang.
 * @param client - the client; one already closed is left as it is
 * @returns when the connection is closed (never rejects for a Redis that is down)
 */
export async function closeRedis(client: Pick<RedisClient, 'isOpen' | 'isReady' | 'close' | 'destroy'>): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.close();
  else client.destroy();
}

/**
 * A URL with its password replaced by `******`, for messages: `redis://u:******@h:6379`.
 * Text that is not a URL has anything between `//…:` and `@` replaced.
 */
export function withoutPassword(url: string): string {
  return url.replace(/(\/\/[^/@:\s]*):[^/@\s]*@/g, '$1:******@');
}

/**
 * Connects to Redis (the official `redis` client, an optional peer dependency loaded here on first
 * use). The client reconnects by itself after a failure; commands fail fast while it is down (no
 * offline queue), and every command has a deadline (`commandTimeoutMs`), so a stalled Redis fails
 * fast too and callers can answer 503; when Redis answers again, so does the client.
 * @param url - e.g. `redis://127.0.0.1:6379`
 * @param option - the option name to blame in the error message @default 'REDIS_URL'
 * @param options - see {@link OpenRedisOptions}
 * @typeParam C - the type to see the client as; give `RedisClientType` (or
 *   `ReturnType<typeof createClient>`) from `redis` for its full command set
 * @returns the connected client
 * @throws MissingPeerDependencyError `redis is not installed: npm install redis (…)`
 * @throws Error `Invalid option "<option>": cannot connect to Redis at "<url>": <reason>`
 */
export async function openRedis<C extends RedisClient = RedisClient>(
  url: string, option = 'REDIS_URL', options: OpenRedisOptions = {},
): Promise<C> {
  const timeout = options.commandTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS;
  if (!Number.isSafeInteger(timeout) || timeout < 1) {
    throw new Error(`Invalid option "commandTimeoutMs": expected an integer of milliseconds ≥ 1, got ${timeout}.`);
  }
  const { createClient: create } = loadPeer<{ createClient: typeof createClient }>('redis');
  let connectedOnce = false;
  const client = create({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout },
    socket: {
      connectTimeout: 2000,
      // the first connection fails fast (a start-up error); after that, reconnect for ever
      reconnectStrategy: (retries, cause) => (connectedOnce ? Math.min(100 * 2 ** retries, 2000) : cause),
    },
  });
  client.once('ready', () => { connectedOnce = true; });
  client.on('error', () => { /* reported per command; reconnects by itself */ });
  try {
    await client.connect();
  } catch (e) {
    await client.disconnect().catch(() => undefined);
    // the URL may hold a password: never in an error message (which reaches logs)
    const shown = withoutPassword(url);
    throw new Error(`Invalid option "${option}": cannot connect to Redis at "${shown}": ${(e as Error).message}`);
  }
  return client as unknown as C;
}
