import type { Logger } from 'pino';
import { KernelConfigError } from '../config/KernelConfigError';
import type { RedisClient } from '../storage/redis';
import type { SessionStoreName } from './sessionInfo';

/** Options of {@link sessionLayer}. Only `secret` is required. */
export interface SessionOptions {
  /**
   * Signs the session cookie (Symfony's `APP_SECRET`): at least 32 characters. A list rotates
   * secrets: the first signs, all are accepted.
   * @example process.env.APP_SECRET (generate one with `openssl rand -hex 32`)
   */
  secret: string | readonly string[];
  /**
   * Where sessions live: `sqlite` (embedded file, survives restarts), `redis` (shared by several
   * instances), `memory` (tests only: refused unless `environment` is `test`).
   * @default 'redis' when `redis` is given, else 'sqlite'
   */
  store?: SessionStoreName;
  /** The SQLite file (created with its folder). @default 'var/sessions.sqlite' */
  sqlitePath?: string;
  /** A connected node-redis client, e.g. `await openRedis(url, 'session.redis')`; the caller closes it. */
  redis?: RedisClient;
  /** Prefix of the Redis keys. @default 'eksess:' */
  redisPrefix?: string;
  /** The cookie's name (an RFC 6265 token). @default 'EKSESSID' */
  name?: string;
  /**
   * How long an idle session is kept by the store, in seconds (Symfony `gc_maxlifetime`); each
   * request that loads the session extends it. 60 to 31536000. @default 86400 (a day)
   */
  ttlSeconds?: number;
  /**
   * The cookie's `Max-Age`, in seconds (Symfony `cookie_lifetime`). @default undefined (a
   * browser-session cookie, gone when the browser closes)
   */
  cookieLifetimeSeconds?: number;
  /** The cookie's `Path`. @default '/' */
  cookiePath?: string;
  /** The cookie's `Domain`. @default undefined (host-only) */
  cookieDomain?: string;
  /** How often the SQLite store deletes expired sessions, in seconds; 0 never. @default 900 */
  pruneIntervalSeconds?: number;
  /** The kernel's environment (`dev`, `test`, `prod`…); `memory` is allowed only in `test`. @default 'prod' */
  environment?: string;
  /** A pino logger for store failures. @default none */
  logger?: Logger;
  /**
   * The deadline of each store operation (load, save, touch, destroy), in milliseconds, from 1 to
   * 60000: past it the store counts as unavailable (a stalled Redis answers 503, never hangs).
   * @default 1000
   */
  timeoutMs?: number;
}

/** {@link SessionOptions} validated, with defaults applied. Frozen. */
export interface ResolvedSessionOptions {
  readonly secrets: readonly string[];
  readonly store: SessionStoreName;
  readonly sqlitePath: string;
  readonly redis?: RedisClient;
  readonly redisPrefix: string;
  readonly name: string;
  readonly ttlSeconds: number;
  readonly cookieLifetimeSeconds?: number;
  readonly cookiePath: string;
  readonly cookieDomain?: string;
  readonly pruneIntervalSeconds: number;
  readonly environment: string;
  readonly logger?: Logger;
  readonly timeoutMs: number;
}

const KNOWN = ['secret', 'store', 'sqlitePath', 'redis', 'redisPrefix', 'name', 'ttlSeconds', 'cookieLifetimeSeconds', 'cookiePath', 'cookieDomain', 'pruneIntervalSeconds', 'environment', 'logger',
  'timeoutMs'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MIN_SECRET = 32;
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

function seconds(value: unknown, option: string, min: number, max: number): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= min && (value as number) <= max)) {
    throw new KernelConfigError(option, `expected a whole number of seconds from ${min} to ${max} (got ${show(value)}).`);
  }
}

function resolveSecrets(secret: unknown): readonly string[] {
  const list: unknown[] = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0) throw new KernelConfigError('session.secret', 'expected a secret, or a non-empty list of them (got []).');
  list.forEach((s, i) => {
    const at = Array.isArray(secret) ? `session.secret[${i}]` : 'session.secret';
    // the value itself is never shown: it is a secret
    if (typeof s !== 'string') throw new KernelConfigError(at, `expected a string of at least ${MIN_SECRET} characters (got ${s === undefined ? 'nothing' : typeof s}); generate one with \`openssl rand -hex 32\`.`);
    if (s.length < MIN_SECRET) throw new KernelConfigError(at, `expected at least ${MIN_SECRET} characters (got ${s.length}); generate one with \`openssl rand -hex 32\`.`);
  });
  return Object.freeze([...(list as string[])]);
}

/**
 * Validates {@link SessionOptions} (fail fast, at construction). Never shows a secret.
 * @throws KernelConfigError `Invalid option "session.<name>": …` naming the option and value
 */
export function resolveSessionOptions(options: SessionOptions): ResolvedSessionOptions {
  for (const key of Object.keys(options ?? {})) {
    if (!KNOWN.includes(key)) throw new KernelConfigError(`session.${key}`, `unknown option; expected one of ${KNOWN.join(', ')}.`);
  }
  const secrets = resolveSecrets(options?.secret);
  const environment = options.environment ?? 'prod';
  const store = options.store ?? (options.redis !== undefined ? 'redis' : 'sqlite');
  if (!['sqlite', 'redis', 'memory'].includes(store)) {
    throw new KernelConfigError('session.store', `expected "sqlite", "redis" or "memory" (got ${show(store)}).`);
  }
  if (store === 'memory' && environment !== 'test') {
    throw new KernelConfigError('session.store', `the in-memory store loses sessions on restart and is not shared between instances; it is for tests only (environment ${show(environment)}). Use "sqlite" (the default) or "redis".`);
  }
  const redis = options.redis;
  if (store === 'redis' && (typeof redis !== 'object' || redis === null || typeof (redis as { get?: unknown }).get !== 'function')) {
    throw new KernelConfigError('session.redis', `expected a connected node-redis client, e.g. await openRedis(url) (got ${redis === undefined ? 'nothing' : typeof redis}).`);
  }
  if (store === 'redis' && !(redis as RedisClient).isOpen) {
    throw new KernelConfigError('session.redis', 'the Redis client is not connected; await client.connect() (or use openRedis(url)) before building the layer.');
  }
  if (store !== 'redis' && redis !== undefined) throw new KernelConfigError('session.redis', `a Redis client was given but store is ${show(store)}; drop one of them.`);
  if (store !== 'sqlite' && options.sqlitePath !== undefined) throw new KernelConfigError('session.sqlitePath', `only used with store "sqlite" (store is ${show(store)}).`);
  const sqlitePath = options.sqlitePath ?? 'var/sessions.sqlite';
  if (typeof sqlitePath !== 'string' || sqlitePath === '') throw new KernelConfigError('session.sqlitePath', `expected a file path (got ${show(sqlitePath)}).`);
  const name = options.name ?? 'EKSESSID';
  if (typeof name !== 'string' || !TOKEN.test(name)) throw new KernelConfigError('session.name', `expected a cookie name (an RFC 6265 token) (got ${show(name)}).`);
  const redisPrefix = options.redisPrefix ?? 'eksess:';
  if (typeof redisPrefix !== 'string') throw new KernelConfigError('session.redisPrefix', `expected a string (got ${show(redisPrefix)}).`);
  seconds(options.ttlSeconds, 'session.ttlSeconds', 60, 31536000);
  seconds(options.cookieLifetimeSeconds, 'session.cookieLifetimeSeconds', 1, 31536000);
  seconds(options.pruneIntervalSeconds, 'session.pruneIntervalSeconds', 0, 86400);
  const cookiePath = options.cookiePath ?? '/';
  if (typeof cookiePath !== 'string' || !cookiePath.startsWith('/') || /[;\s]/.test(cookiePath)) {
    throw new KernelConfigError('session.cookiePath', `expected a path starting with "/" (got ${show(cookiePath)}).`);
  }
  const cookieDomain = options.cookieDomain;
  if (cookieDomain !== undefined && (typeof cookieDomain !== 'string' || !/^\.?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(cookieDomain))) {
    throw new KernelConfigError('session.cookieDomain', `expected a host name such as "example.com" (got ${show(cookieDomain)}).`);
  }
  if (options.logger !== undefined && typeof (options.logger as { warn?: unknown }).warn !== 'function') {
    throw new KernelConfigError('session.logger', 'expected a pino logger.');
  }
  const timeoutMs = options.timeoutMs ?? 1000;
  if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 60000) {
    const fix = `expected an integer of milliseconds from 1 to 60000 (got ${show(timeoutMs)}).`;
    throw new KernelConfigError('session.timeoutMs', fix);
  }
  return Object.freeze({
    timeoutMs,
    secrets, store, sqlitePath, redis, redisPrefix, name,
    ttlSeconds: options.ttlSeconds ?? 86400,
    cookieLifetimeSeconds: options.cookieLifetimeSeconds,
    cookiePath, cookieDomain,
    pruneIntervalSeconds: options.pruneIntervalSeconds ?? 900,
    environment,
    logger: options.logger,
  });
}
