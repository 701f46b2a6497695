import type { Logger } from 'pino';
import { createKernel, Kernel } from '../kernel/createKernel';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import { HttpBasicAuthenticator } from '../security/HttpBasicAuthenticator';
import { InMemoryUserProvider } from '../security/InMemoryUserProvider';
import { RedisThrottleStore } from '../security/RedisThrottleStore';
import { SqliteThrottleStore } from '../security/SqliteThrottleStore';
import { openSqlite, SqliteDatabase } from '../storage/sqlite';
import type { RedisClient } from '../storage/redis';
import { MemoryState } from '../api/state/MemoryState';
import type { Resource } from '../api/resource/defineResource';
import { DatabaseCollector } from '../profiler/collectors/DatabaseCollector';
import { ApiCollector } from '../api/profiler/ApiCollector';
import { createDemoResources, type DemoStore } from './resources';
import { createDemoRoutes } from './routes';
import { seedDemoData } from './seed';

/** The demo's documented development defaults. Override them with the environment in production. */
export const DEMO_DEFAULTS = Object.freeze({
  /** `ADMIN_PASSWORD`: the `admin` user's password (ROLE_ADMIN). */
  adminPassword: 'admin',
  /** `USER_PASSWORD`: the `user` user's password (ROLE_USER). */
  userPassword: 'user',
  /** `APP_SECRET`: signs session cookies; refused with APP_ENV=prod. */
  secret: 'express-kernel-demo-secret-not-for-production',
  /** `CORS_ALLOW_ORIGIN`: origins allowed on `^/api`. */
  corsOrigins: [/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/],
});

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
   * Where books and authors are kept: the SQL store `openDemoDatabase()` returns (the service
   * uses it). @default a `MemoryState` with the demo's seed (nothing survives the process)
   */
  store?: DemoStore;
  /** Origins allowed by CORS on `^/api` (strings or anchored regexes). @default DEMO_DEFAULTS.corsOrigins */
  corsOrigins?: Array<string | RegExp>;
}

/** A MemoryState with the demo's seed (the SQL store's seed migration inserts the same rows). */
function memoryStore(): DemoStore {
  const state = new MemoryState();
  const store = { provider: state, processor: state };
  seedDemoData(state, createDemoResources(store));
  return store;
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
 * security headers, CORS on `^/api`, sessions (SQLite, or Redis when given), the `main`
 * firewall over `^/` with HTTP Basic and in-memory users (`admin`/ROLE_ADMIN, `user`/ROLE_USER),
 * `access_control` `^/admin` → ROLE_ADMIN, login throttling, locale (en, fr, de) and time zone.
 * @returns the kernel (an Express application)
 * @throws KernelConfigError for a bad option, Error when the SQLite file cannot be opened
 */
export function createDemoKernel(options: DemoKernelOptions = {}): DemoKernel {
  const sqlitePath = options.sqlitePath ?? ':memory:';
  const database = openSqlite(sqlitePath, 'SQLITE_PATH');
  const store = options.store ?? memoryStore();
  const resources = createDemoResources(store);
  const provider = new InMemoryUserProvider({
    users: {
      admin: { password: options.adminPassword ?? DEMO_DEFAULTS.adminPassword, roles: ['ROLE_ADMIN'] },
      user: { password: options.userPassword ?? DEMO_DEFAULTS.userPassword, roles: ['ROLE_USER'] },
    },
  });
  const kernel = createKernel({
    routes: createDemoRoutes(resources),
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
        '^/api': { origins: options.corsOrigins ?? DEMO_DEFAULTS.corsOrigins, credentials: true, maxAge: 3600 },
      },
    },
    session: options.redis !== undefined ? { store: 'redis', redis: options.redis } : { store: 'sqlite', sqlitePath },
    security: {
      firewalls: [{ name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()] }],
      accessControl: [{ path: '^/admin', roles: ['ROLE_ADMIN'] }],
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
