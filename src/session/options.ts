import type { Logger } from 'pino';
import { z } from 'zod';
import { parseOptions } from '../config/parseOptions';
import { httpToken, objectWith, optionsObject, wholeNumber } from '../config/optionSchemas';
import type { RedisClient } from '../storage/redis';
import type { SessionStoreName } from './sessionInfo';

const MIN_SECRET = 32;
const GENERATE = 'generate one with `openssl rand -hex 32`';
const STORES = ['sqlite', 'redis', 'memory'] as const satisfies readonly SessionStoreName[];

/** Checks one secret without ever showing it: the message gives its type or its length. */
function checkSecret(secret: unknown, ctx: z.core.$RefinementCtx, path: PropertyKey[]): void {
  if (typeof secret !== 'string') {
    const got = secret === undefined ? 'nothing' : typeof secret;
    const message = `expected a string of at least ${MIN_SECRET} characters`;
    ctx.addIssue({ code: 'custom', path, message, input: undefined, params: { got, hint: GENERATE } });
  } else if (secret.length < MIN_SECRET) {
    const params = { got: String(secret.length), hint: GENERATE };
    ctx.addIssue({
      code: 'custom', path, message: `expected at least ${MIN_SECRET} characters`, input: undefined, params,
    });
  }
}

/**
 * The fields of {@link SessionOptions}, each checked on its own; {@link sessionOptionsSchema} adds
 * the checks between fields. The kernel's `session` option is this without `secret`,
 * `environment` and `logger` (it gives them).
 */
export const sessionOptionsShape = {
  /**
   * Signs the session cookie (Symfony's `APP_SECRET`): at least 32 characters. A list rotates
   * secrets: the first signs, all are accepted.
   * @example process.env.APP_SECRET (generate one with `openssl rand -hex 32`)
   */
  secret: z.custom<string | readonly string[]>().superRefine((secret, ctx) => {
    if (!Array.isArray(secret)) return checkSecret(secret, ctx, []);
    if (secret.length === 0) {
      ctx.addIssue({ code: 'custom', message: 'expected a secret, or a non-empty list of them', input: secret });
    }
    secret.forEach((s: unknown, i) => checkSecret(s, ctx, [i]));
  }),
  /**
   * Where sessions live: `sqlite` (embedded file, survives restarts), `redis` (shared by several
   * instances), `memory` (tests only: refused unless `environment` is `test`).
   * @default 'redis' when `redis` is given, else 'sqlite'
   */
  store: z.enum(STORES, { error: 'expected "sqlite", "redis" or "memory"' }).optional(),
  /** The SQLite file (created with its folder). @default 'var/sessions.sqlite' */
  sqlitePath: z.string({ error: 'expected a file path' }).min(1, { error: 'expected a file path' }).optional(),
  /** A connected node-redis client, e.g. `await openRedis(url, 'session.redis')`; the caller closes it. */
  redis: z.custom<RedisClient>().optional(),
  /** Prefix of the Redis keys. @default 'eksess:' */
  redisPrefix: z.string({ error: 'expected a string' }).default('eksess:'),
  /** The cookie's name (an RFC 6265 token). @default 'EKSESSID' */
  name: httpToken('a cookie name (an RFC 6265 token)').default('EKSESSID'),
  /**
   * How long an idle session is kept by the store, in seconds (Symfony `gc_maxlifetime`); each
   * request that loads the session extends it. 60 to 31536000. @default 86400 (a day)
   */
  ttlSeconds: wholeNumber(60, 31536000, 'seconds').default(86400),
  /**
   * The cookie's `Max-Age`, in seconds (Symfony `cookie_lifetime`). @default undefined (a
   * browser-session cookie, gone when the browser closes)
   */
  cookieLifetimeSeconds: wholeNumber(1, 31536000, 'seconds').optional(),
  /** The cookie's `Path`. @default '/' */
  cookiePath: z.string({ error: 'expected a path starting with "/"' })
    .refine((p) => p.startsWith('/') && !/[;\s]/.test(p), { error: 'expected a path starting with "/"' }).default('/'),
  /** The cookie's `Domain`. @default undefined (host-only) */
  cookieDomain: z.string({ error: 'expected a host name such as "example.com"' })
    .regex(/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i, { error: 'expected a host name such as "example.com"' }).optional(),
  /** How often the SQLite store deletes expired sessions, in seconds; 0 never. @default 900 */
  pruneIntervalSeconds: wholeNumber(0, 86400, 'seconds').default(900),
  /** The kernel's environment (`dev`, `test`, `prod`…); `memory` is allowed only in `test`. @default 'prod' */
  environment: z.string({ error: 'expected an environment name such as "prod"' }).default('prod'),
  /** A pino logger for store failures. @default none */
  logger: objectWith<Logger>(['warn'], 'a pino logger').optional(),
  /**
   * The deadline of each store operation (load, save, touch, destroy), in milliseconds, from 1 to
   * 60000: past it the store counts as unavailable (a stalled Redis answers 503, never hangs).
   * @default 1000
   */
  timeoutMs: wholeNumber(1, 60000, 'milliseconds').default(1000),
};

/**
 * The options of {@link sessionLayer}, validated once at construction: the public
 * {@link SessionOptions} is this schema's input, {@link ResolvedSessionOptions} its output.
 */
export const sessionOptionsSchema = optionsObject(sessionOptionsShape).transform((o, ctx) => {
  const { secret, redis, environment } = o;
  const store = o.store ?? (redis !== undefined ? 'redis' : 'sqlite');
  const fail = (option: string, message: string, got: string | false = false): void => {
    ctx.addIssue({ code: 'custom', path: [option], message, input: undefined, params: { got } });
  };
  if (store === 'memory' && environment !== 'test') {
    fail('store', 'the in-memory store loses sessions on restart and is not shared between instances; it is for '
      + `tests only (environment ${JSON.stringify(environment)}). Use "sqlite" (the default) or "redis"`);
  } else if (store === 'redis' && (typeof redis !== 'object' || redis === null || typeof redis.get !== 'function')) {
    fail(
      'redis', 'expected a connected node-redis client, e.g. await openRedis(url)',
      redis === undefined ? 'nothing' : typeof redis,
    );
  } else if (store === 'redis' && !redis!.isOpen) {
    fail('redis', 'the Redis client is not connected; await client.connect() (or use openRedis(url)) '
      + 'before building the layer');
  } else if (store !== 'redis' && redis !== undefined) {
    fail('redis', `a Redis client was given but store is ${JSON.stringify(store)}; drop one of them`);
  } else if (store !== 'sqlite' && o.sqlitePath !== undefined) {
    fail('sqlitePath', `only used with store "sqlite" (store is ${JSON.stringify(store)})`);
  }
  const { secret: _secret, store: _store, sqlitePath, ...rest } = o;
  return {
    ...rest,
    secrets: Object.freeze(typeof secret === 'string' ? [secret] : [...secret]),
    store,
    sqlitePath: sqlitePath ?? 'var/sessions.sqlite',
  };
});

/** Options of {@link sessionLayer}. Only `secret` is required. */
export type SessionOptions = z.input<typeof sessionOptionsSchema>;

/** {@link SessionOptions} validated, with defaults applied (`secret` as the list `secrets`). Frozen. */
export type ResolvedSessionOptions = Readonly<z.output<typeof sessionOptionsSchema>>;

/**
 * Validates {@link SessionOptions} (fail fast, at construction). Never shows a secret.
 * @throws KernelConfigError `Invalid option "session.<name>": …` naming the option and value
 */
export function resolveSessionOptions(options: SessionOptions): ResolvedSessionOptions {
  return Object.freeze(parseOptions(sessionOptionsSchema, options, 'session'));
}
