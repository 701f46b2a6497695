import { createClient } from 'redis';

/** A connected node-redis client. */
export type RedisClient = ReturnType<typeof createClient>;

/**
 * A URL with its password replaced by `******`, for messages: `redis://u:******@h:6379`.
 * Text that is not a URL has anything between `//…:` and `@` replaced.
 */
export function withoutPassword(url: string): string {
  return url.replace(/(\/\/[^/@:\s]*):[^/@\s]*@/g, '$1:******@');
}

/**
 * Connects to Redis (the official `redis` client). The client reconnects by itself after a
 * failure; commands fail fast while it is down (no offline queue), so callers can answer 503.
 * @param url - e.g. `redis://127.0.0.1:6379`
 * @param option - the option name to blame in the error message @default 'REDIS_URL'
 * @returns the connected client
 * @throws Error `Invalid option "<option>": cannot connect to Redis at "<url>": <reason>`
 */
export async function openRedis(url: string, option = 'REDIS_URL'): Promise<RedisClient> {
  let connectedOnce = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
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
  return client as unknown as RedisClient;
}
