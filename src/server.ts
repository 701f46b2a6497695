#!/usr/bin/env node
import http from 'node:http';
import pino from 'pino';
import { createDemoKernel, DEMO_DEFAULTS } from './demo/app';
import { openRedis, RedisClient } from './storage/redis';
import { createProfilerStorage } from './profiler/storage/createProfilerStorage';
import type { ClosableProfilerStorage } from './profiler/storage/ProfilerStorage';
import { GracefulShutdown, parseShutdownTimeout } from './http/gracefulShutdown';

/**
 * The demo service (`npm start`). Environment:
 * - `HOST` (default 127.0.0.1), `PORT` (default 8000);
 * - `APP_ENV` (default dev) and `APP_DEBUG` (default 1 unless APP_ENV=prod);
 * - `TRUSTED_PROXIES`: comma-separated IPs/CIDRs whose X-Forwarded-* headers are honoured;
 * - `PROFILER_ALLOWED_IPS`: comma-separated IPs/CIDRs allowed to open the profiler (default loopback);
 * - `SQLITE_PATH`: the SQLite file for books, sessions and throttling (default var/demo.sqlite);
 * - `REDIS_URL`: sessions and throttling counters in Redis, shared by several instances;
 * - `APP_SECRET` (required with APP_ENV=prod), `ADMIN_PASSWORD`, `USER_PASSWORD`, `CORS_ALLOW_ORIGIN`;
 * - `PROFILER_SQLITE`: the profile store's SQLite file (default var/profiler.sqlite; Redis when
 *   REDIS_URL is set); `PROFILER_DANGEROUSLY_ALLOW_IN_PROD=1` lets the profiler run with APP_ENV=prod.
 * - `SHUTDOWN_TIMEOUT_MS`: the grace period of a shutdown (default 10000).
 * SIGTERM and SIGINT drain the server (see GracefulShutdown): requests already received are
 * answered with `Connection: close`; exit code 0, or 1 when the grace period was over and
 * requests were cut. `/healthz` and `/readyz` (503 while draining) answer outside the kernel.
 */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const env = process.env;
  const host = env.HOST ?? '127.0.0.1';
  const portText = env.PORT ?? '8000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    fail(`Invalid environment variable "PORT": expected an integer from 0 to 65535, got "${portText}".`);
  }
  const appEnv = env.APP_ENV ?? 'dev';
  const debugText = env.APP_DEBUG ?? (appEnv === 'prod' ? '0' : '1');
  if (!['0', '1', 'true', 'false'].includes(debugText)) {
    fail(`Invalid environment variable "APP_DEBUG": expected 0 or 1, got "${debugText}".`);
  }
  const logger = pino({ level: env.LOG_LEVEL ?? 'info' });
  if (appEnv === 'prod' && (env.APP_SECRET === undefined || env.APP_SECRET === DEMO_DEFAULTS.secret)) {
    fail('Invalid environment variable "APP_SECRET": set a secret of at least 32 characters when APP_ENV=prod.');
  }
  let redis: RedisClient | undefined;
  let profilerStorage: ClosableProfilerStorage | undefined;
  let kernel;
  let shutdown: GracefulShutdown;
  const debug = debugText === '1' || debugText === 'true';
  try {
    shutdown = new GracefulShutdown({ timeoutMs: parseShutdownTimeout(env.SHUTDOWN_TIMEOUT_MS), logger });
    if (env.REDIS_URL !== undefined && env.REDIS_URL !== '') redis = await openRedis(env.REDIS_URL, 'REDIS_URL');
    if (debug) profilerStorage = await createProfilerStorage({ sqlitePath: env.PROFILER_SQLITE ?? 'var/profiler.sqlite', redisUrl: env.REDIS_URL || undefined });
    kernel = createDemoKernel({
      debug,
      environment: appEnv,
      profilerStorage,
      profilerDangerouslyAllowInProduction: env.PROFILER_DANGEROUSLY_ALLOW_IN_PROD === '1',
      trustedProxies: list(env.TRUSTED_PROXIES),
      profilerAllowedIps: list(env.PROFILER_ALLOWED_IPS),
      logger,
      sqlitePath: env.SQLITE_PATH ?? 'var/demo.sqlite',
      redis,
      secret: env.APP_SECRET,
      adminPassword: env.ADMIN_PASSWORD,
      userPassword: env.USER_PASSWORD,
      corsOrigins: list(env.CORS_ALLOW_ORIGIN),
    });
  } catch (e) {
    fail((e as Error).message);
  }
  const server = shutdown.attach(http.createServer({ requireHostHeader: false }, shutdown.handle(kernel)));
  server.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') {
      fail(`PORT ${port} is in use (EADDRINUSE): another process listens on ${host}:${port}; stop it or set PORT to a free port.`);
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
      await Promise.allSettled([kernel.close(), redis?.quit(), profilerStorage?.close()]);
      process.exit(cut > 0 ? 1 : 0);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

void main();
