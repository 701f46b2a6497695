import type { Logger } from 'pino';
import { invalidOption } from '../config/optionError';
import { createKernel, Kernel } from '../kernel/createKernel';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import { timingSafeEqual, createHash } from 'node:crypto';
import { AccessTokenAuthenticator } from '../security/AccessTokenAuthenticator';
import { FormLoginAuthenticator } from '../security/FormLoginAuthenticator';
import { HttpBasicAuthenticator } from '../security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../security/InMemoryUserProvider';
import { RedisThrottleStore } from '../security/RedisThrottleStore';
import { SqliteThrottleStore } from '../security/SqliteThrottleStore';
import { openSqlite, SqliteDatabase } from '../storage/sqlite';
import type { RedisClient } from '../storage/redis';
import type { RouteCollection } from '../routing/RouteCollection';
import { MemoryState } from '../api/state/MemoryState';
import type { Resource } from '../api/resource/defineResource';
import { DatabaseCollector } from '../profiler/collectors/DatabaseCollector';
import { ApiCollector } from '../api/profiler/ApiCollector';
import { createDemoResources, type DemoStore } from './resources';
import { createDemoRoutes } from './routes';
import { VarnishXKeyPurger } from '../api/httpCache/VarnishXKeyPurger';
import { seedDemoData } from './seed';

/** The demo's documented development defaults. Override them with the environment in production. */
export const DEMO_DEFAULTS = Object.freeze({
  /** `ADMIN_PASSWORD`: the `admin` user's password (ROLE_ADMIN). */
  adminPassword: 'admin',
  /** `USER_PASSWORD`: the `user` user's password (ROLE_USER). */
  userPassword: 'user',
  /**
   * `API_TOKEN`: the bearer token of the `admin` user on the API (`Authorization: Bearer …`).
   * The service uses it only outside APP_ENV=prod; there, bearer tokens are off unless API_TOKEN is set.
   */
  apiToken: 'demo-api-token-not-for-production',
  /** `APP_SECRET`: signs session cookies; refused with APP_ENV=prod. */
  secret: 'express-kernel-demo-secret-not-for-production',
  /** `CORS_ALLOW_ORIGIN`: origins allowed on `^/api`. */
  corsOrigins: [/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/],
});

/**
 * The request headers the API's CORS allows (issue 24): the body and credentials, conditional
 * requests (`If-Match`, `If-None-Match`), `Prefer`, `Accept`, and `Accept-Patch`-style headers.
 */
export const API_CORS_ALLOWED_HEADERS = [
  'Content-Type', 'Authorization', 'Accept', 'If-Match', 'If-None-Match', 'Prefer', 'Preference-Applied',
];

/** The response headers a browser client on another origin may read (ETags, Hydra discovery, Location). */
export const API_CORS_EXPOSED_HEADERS = [
  'ETag', 'Location', 'Link', 'Content-Location', 'Accept-Patch', 'X-Debug-Token', 'X-Debug-Token-Link',
];

/** Options of {@link createDemoKernel}. */
export interface DemoKernelOptions {
  /** @default true */
  debug?: boolean;
  /** @default 'dev' when debug, else 'prod' */
  environment?: string;
  trustedProxies?: string[];
  /** Host patterns (`TRUSTED_HOSTS`), see the kernel option `trustedHosts`. @default [] (any host) */
  trustedHosts?: string[];
  profilerAllowedIps?: string[];
  profilerStorage?: ProfilerStorage;
  /** Let the profiler run with environment `prod` (see the kernel option of the same name). */
  profilerDangerouslyAllowInProduction?: boolean;
  logger?: Logger;
  /** The SQLite file for books, sessions and login throttling. @default ':memory:' */
  sqlitePath?: string;
  /** A connected Redis client: sessions and throttling counters go there (several instances). */
  redis?: RedisClient;
  /** @default DEMO_DEFAULTS.secret */
  secret?: string;
  /** @default DEMO_DEFAULTS.adminPassword */
  adminPassword?: string;
  /** @default DEMO_DEFAULTS.userPassword */
  userPassword?: string;
  /**
   * The bearer token that authenticates as `admin` on the `main` firewall (RFC 6750 `b64token`
   * characters); null turns bearer tokens off (every one is a 401). @default DEMO_DEFAULTS.apiToken
   */
  apiToken?: string | null;
  /** Adds routes to the demo's table (a host's own pages; tests use it), after the demo's. */
  extendRoutes?: (routes: RouteCollection) => void;
  /**
   * Where books and authors are kept: the SQL store `openDemoDatabase()` returns (the service
   * uses it). @default a `MemoryState` with the demo's seed (nothing survives the process)
   */
  store?: DemoStore;
  /** Origins allowed by CORS on `^/api` (strings or anchored regexes). @default DEMO_DEFAULTS.corsOrigins */
  corsOrigins?: Array<string | RegExp>;
  /**
   * Varnish servers in front of the demo (`VARNISH_URLS`, with docs/varnish/xkey.vcl): the API's
   * GETs get {@link DEMO_SHARED_CACHE_HEADERS} and each write purges what it changed there
   * (`VarnishXKeyPurger`). @default none: API Platform's `no-cache, private`, no purge
   */
  varnishUrls?: string[];
}

/** The API's `cacheHeaders` behind Varnish: browsers revalidate, Varnish keeps a GET an hour (purged on writes). */
export const DEMO_SHARED_CACHE_HEADERS = Object.freeze({ max_age: 0, shared_max_age: 3600, public: true });

/** A MemoryState with the demo's seed (the SQL store's seed migration inserts the same rows). */
function memoryStore(): DemoStore {
  const state = new MemoryState();
  const store = { provider: state, processor: state };
  seedDemoData(state, createDemoResources(store));
  return store;
}

/** RFC 6750 §2.1 `b64token`: what a client can send after `Bearer `. */
export const BEARER_TOKEN = /^[a-zA-Z0-9\-._~+/]+=*$/;
/** What {@link BEARER_TOKEN} asks for, in words. */
export const BEARER_TOKEN_SYNTAX = 'expected RFC 6750 token characters (letters, digits, - . _ ~ + /, then = padding)';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The `main` firewall's bearer tokens: one token, the `admin` user's, compared in constant time
 * (SHA-256 digests, so the length does not leak either).
 */
function bearerTokens(token: string | null): AccessTokenAuthenticator {
  const expected = token === null ? null : sha256(token);
  return new AccessTokenAuthenticator({
    lookup: (presented) => (expected !== null && timingSafeEqual(sha256(presented), expected) ? 'admin' : null),
  });
}

/** The demo kernel, with its API resources and the store behind them. */
export interface DemoKernel extends Kernel {
  /** Book and Author. */
  readonly resources: readonly Resource[];
  /** Where books and authors are kept. */
  readonly store: DemoStore;
  readonly database: SqliteDatabase;
}

/**
 * The demo service's kernel: the reference's routing table behind every layer —
 * security headers, CORS on `^/api`, sessions (SQLite, or Redis when given), two firewalls on
 * the same in-memory users (`admin`/ROLE_ADMIN, `user`/ROLE_USER):
 * - `admin` on `^/admin` (the back office): a form login (`POST /admin/login`, fields
 *   `_username`, `_password`, `_csrf_token`, `_target_path`), the user kept in the session,
 *   logout by `POST /admin/logout` with `_token`; an anonymous request is redirected (302) to
 *   `/admin/login`;
 * - `main` on `^/`: HTTP Basic (its 401 challenge is the entry point) and bearer tokens (`apiToken`);
 * `access_control`: `^/admin/login$` PUBLIC_ACCESS, `^/admin` ROLE_USER (the screens ask ROLE_ADMIN);
 * one login throttling (same store, limits and counters for both firewalls: a failed form login and a failed Basic
 * login of one username and IP count together); locale (en, fr, de) and time zone.
 * @returns the kernel (an Express application)
 * @throws KernelConfigError for a bad option, Error when the SQLite file cannot be opened
 */
export function createDemoKernel(options: DemoKernelOptions = {}): DemoKernel {
  const sqlitePath = options.sqlitePath ?? ':memory:';
  const database = openSqlite(sqlitePath, 'SQLITE_PATH');
  const store = options.store ?? memoryStore();
  const resources = createDemoResources(store);
  const apiToken = options.apiToken === undefined ? DEMO_DEFAULTS.apiToken : options.apiToken;
  if (apiToken !== null && !BEARER_TOKEN.test(apiToken)) {
    throw invalidOption('apiToken', BEARER_TOKEN_SYNTAX, apiToken, { got: `${apiToken.length} characters` });
  }
  const provider = new InMemoryUserProvider({
    users: {
      admin: { password: options.adminPassword ?? DEMO_DEFAULTS.adminPassword, roles: ['ROLE_ADMIN'] },
      user: { password: options.userPassword ?? DEMO_DEFAULTS.userPassword, roles: ['ROLE_USER'] },
    },
  });
  const routes = createDemoRoutes(resources, options.varnishUrls === undefined ? {} : {
    cacheHeaders: DEMO_SHARED_CACHE_HEADERS, purger: new VarnishXKeyPurger({ urls: options.varnishUrls }),
  });
  options.extendRoutes?.(routes);
  const kernel = createKernel({
    routes,
    debug: options.debug ?? true,
    environment: options.environment,
    trustedProxies: options.trustedProxies ?? [],
    trustedHosts: options.trustedHosts ?? [],
    profiler: {
      collectors: [new ApiCollector(), new DatabaseCollector()],
      allowedIps: options.profilerAllowedIps,
      storage: options.profilerStorage,
      dangerouslyAllowInProduction: options.profilerDangerouslyAllowInProduction,
    },
    logger: options.logger,
    secret: options.secret ?? DEMO_DEFAULTS.secret,
    cors: {
      paths: {
        '^/api': {
          origins: options.corsOrigins ?? DEMO_DEFAULTS.corsOrigins, credentials: true, maxAge: 3600,
          // what API Platform's clients send and read: the ETag flow, Hydra discovery, Location
          allowedHeaders: API_CORS_ALLOWED_HEADERS,
          exposedHeaders: API_CORS_EXPOSED_HEADERS,
        },
      },
    },
    session: options.redis !== undefined ? { store: 'redis', redis: options.redis } : { store: 'sqlite', sqlitePath },
    security: {
      firewalls: [
        {
          name: 'admin',
          pattern: '^/admin',
          provider,
          authenticators: [new FormLoginAuthenticator({ loginPath: '/admin/login', defaultTargetPath: '/admin' })],
          logout: { path: '/admin/logout', target: '/admin/login', csrfParameter: '_token' },
        },
        {
          name: 'main',
          pattern: '^/',
          provider,
          authenticators: [new HttpBasicAuthenticator(), bearerTokens(apiToken)],
          entryPoint: 'http_basic',
        },
      ],
      accessControl: [
        { path: '^/admin/login$', roles: ['PUBLIC_ACCESS'] },
        // the language switcher, on the login page too
        { path: '^/admin/locale$', roles: ['PUBLIC_ACCESS'] },
        // signed-in users only; the screens check ROLE_ADMIN themselves, so a ROLE_USER's 403 is a
        // page inside the back office's layout (navigation, logout) rather than the kernel's
        { path: '^/admin', roles: ['ROLE_USER'] },
      ],
      roleHierarchy: { ROLE_ADMIN: ['ROLE_USER'] },
      throttling: {
        store: options.redis !== undefined ? new RedisThrottleStore(options.redis) : new SqliteThrottleStore(database),
      },
    },
    locale: { defaultLocale: 'en', enabledLocales: ['en', 'fr', 'de'] },
    timeZone: { default: 'UTC' },
  });
  const close = kernel.close.bind(kernel);
  Object.defineProperties(kernel, {
    resources: { value: resources },
    store: { value: store },
    database: { value: database },
    close: { value: async () => { await close(); if (database.open) database.close(); } },
  });
  return kernel as DemoKernel;
}
