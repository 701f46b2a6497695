#!/usr/bin/env node
import http from 'node:http';
import pino from 'pino';
import { createDemoKernel } from './app';
import { openDemoDatabase } from './database';
import type { SqlStore } from '../api/sql/createSqlState';
import { DemoEnv, list, readDemoEnv } from './env';
import { refuseConnect } from '../http/connect';
import { closeRedis, openRedis, RedisClient, withoutPassword } from '../storage/redis';
import { createProfilerStorage } from '../profiler/storage/createProfilerStorage';
import { DEFAULT_SQLITE_PATH as DEFAULT_PROFILER_SQLITE } from '../profiler/storage/SqliteProfilerStorage';
import type { ClosableProfilerStorage } from '../profiler/storage/ProfilerStorage';
import { GracefulShutdown, parseShutdownTimeout } from '../http/gracefulShutdown';

/**
 * The demo service (`npm start`). Environment:
 * - `HOST` (default 127.0.0.1), `PORT` (default 8000);
 * - `APP_ENV` (dev, test or prod; default dev) and `APP_DEBUG` (default 1 unless APP_ENV=prod),
 *   validated with the lists below by `readDemoEnv` (src/demo/env.ts): a bad value stops the start;
 * - `TRUSTED_PROXIES`: comma-separated IPs/CIDRs whose X-Forwarded-* headers are honoured;
 * - `TRUSTED_HOSTS`: comma-separated host regexes (Symfony's framework.trusted_hosts); others get a 400;
 * - `PROFILER_ALLOWED_IPS`: comma-separated IPs/CIDRs allowed to open the profiler (default loopback);
 * - `SQLITE_PATH`: the SQLite file for books and authors (migrated and seeded at start), sessions
 *   and throttling (default var/demo.sqlite); `DATABASE_URL=postgres://…` keeps books and authors
 *   in PostgreSQL instead;
 *   both SQLite files default to var/ under the working directory, the one folder the service
 *   writes (the Docker image's /app/var volume);
 * - `REDIS_URL`: sessions and throttling counters in Redis, shared by several instances;
 * - `APP_SECRET` (required with APP_ENV=prod), `ADMIN_PASSWORD`, `USER_PASSWORD`, `CORS_ALLOW_ORIGIN`;
 * - `API_TOKEN`: the `admin` user's bearer token on the API (default: the demo's documented token,
 *   except with APP_ENV=prod, where bearer tokens are off unless it is set);
 * - `PROFILER_SQLITE`: the profile store's SQLite file (default var/profiler.sqlite; Redis when
 *   REDIS_URL is set); `PROFILER_DANGEROUSLY_ALLOW_IN_PROD=1` lets the profiler run with APP_ENV=prod.
 * - `SHUTDOWN_TIMEOUT_MS`: the grace period of a shutdown (default 10000).
 * - `VARNISH_URLS`: Varnish servers in front of the demo (comma-separated): the API's GETs become
 *   cacheable by them (`DEMO_SHARED_CACHE_HEADERS`) and each write purges what it changed.
 * SIGTERM and SIGINT drain the server (see GracefulShutdown): requests already received are
 * answered with `Connection: close`; exit code 0, or 1 when the grace period was over and
 * requests were cut. `/healthz` and `/readyz` (503 while draining) answer outside the kernel.
 */
/** The demo's SQLite file (books, sessions, throttling) when SQLITE_PATH is unset. */
const DEFAULT_DEMO_SQLITE = 'var/demo.sqlite';

/** Prints a start-up error (a Redis URL's password never shown) and exits with code 2. */
function fail(message: string): never {
  const password = redisPassword(process.env.REDIS_URL);
  const shown = withoutPassword(password === undefined ? message : message.split(password).join('******'));
  process.stderr.write(`${shown}\n`);
  process.exit(2);
}

function redisPassword(url: string | undefined): string | undefined {
  if (url === undefined || url === '') return undefined;
  try { return decodeURIComponent(new URL(url).password) || undefined; } catch { return undefined; }
}

async function main(): Promise<void> {
  const env = process.env;
  const host = env.HOST ?? '127.0.0.1';
  const portText = env.PORT ?? '8000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`Invalid environment variable "PORT": expected an integer from 0 to 65535, got "${portText}".`);
  }
  let demoEnv: DemoEnv;
  try {
    demoEnv = readDemoEnv(env);
  } catch (e) {
    fail((e as Error).message);
  }
  const appEnv = demoEnv.appEnv;
  const logger = pino({ level: env.LOG_LEVEL ?? 'info' });
  let redis: RedisClient | undefined;
  let profilerStorage: ClosableProfilerStorage | undefined;
  let kernel;
  let database: SqlStore | undefined;
  let shutdown: GracefulShutdown;
  const debug = demoEnv.debug;
  try {
    shutdown = new GracefulShutdown({ timeoutMs: parseShutdownTimeout(env.SHUTDOWN_TIMEOUT_MS), logger });
    if (demoEnv.redisUrl !== undefined) redis = await openRedis(demoEnv.redisUrl, 'REDIS_URL');
    const profilerSqlite = env.PROFILER_SQLITE ?? DEFAULT_PROFILER_SQLITE;
    if (debug) {
      profilerStorage = await createProfilerStorage({ sqlitePath: profilerSqlite, redisUrl: demoEnv.redisUrl });
    }
    const sqlitePath = env.SQLITE_PATH ?? DEFAULT_DEMO_SQLITE;
    database = await openDemoDatabase({ ...env, SQLITE_PATH: sqlitePath });
    kernel = createDemoKernel({
      store: database,
      debug,
      environment: appEnv,
      profilerStorage,
      profilerDangerouslyAllowInProduction: env.PROFILER_DANGEROUSLY_ALLOW_IN_PROD === '1',
      trustedProxies: demoEnv.trustedProxies,
      trustedHosts: demoEnv.trustedHosts,
      profilerAllowedIps: demoEnv.profilerAllowedIps,
      logger,
      sqlitePath,
      redis,
      ...(demoEnv.varnishUrls !== undefined ? { varnishUrls: demoEnv.varnishUrls } : {}),
      secret: demoEnv.secret,
      adminPassword: env.ADMIN_PASSWORD,
      userPassword: env.USER_PASSWORD,
      // the demo's documented token never works in production
      apiToken: demoEnv.apiToken ?? (appEnv === 'prod' ? null : undefined),
      corsOrigins: list(env.CORS_ALLOW_ORIGIN),
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const server = refuseConnect(
    shutdown.attach(http.createServer({ requireHostHeader: false }, shutdown.handle(kernel))),
  );
  server.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') {
      fail(`PORT ${port} is in use (EADDRINUSE): another process listens on ${host}:${port}; `
        + 'stop it or set PORT to a free port.');
    }
    fail(`PORT ${port} on HOST ${host} cannot be listened on (${error.code ?? 'error'}): ${error.message}`);
  });
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(`express-kernel listening on http://${host}:${actual}\n`);
  });
  const stop = (signal: string): void => {
    logger.info({ signal }, 'shutting down');
    void shutdown.shutdown().then(async ({ cut }) => {
      const redisClosed = redis === undefined ? undefined : closeRedis(redis);
      await Promise.allSettled([kernel.close(), redisClosed, profilerStorage?.close(), database?.close()]);
      process.exit(cut > 0 ? 1 : 0);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

void main();
