#!/usr/bin/env node
import http from 'node:http';
import pino from 'pino';
import { createDemoKernel } from './demo/app';

/**
 * The demo service (`npm start`). Environment:
 * - `HOST` (default 127.0.0.1), `PORT` (default 8000);
 * - `APP_ENV` (default dev) and `APP_DEBUG` (default 1 unless APP_ENV=prod);
 * - `TRUSTED_PROXIES`: comma-separated IPs/CIDRs whose X-Forwarded-* headers are honoured;
 * - `PROFILER_ALLOWED_IPS`: comma-separated IPs/CIDRs allowed to open the profiler (default loopback).
 * SIGTERM and SIGINT close the server gracefully (in-flight requests finish, exit code 0).
 */
function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function main(): void {
  const env = process.env;
  const host = env.HOST ?? '127.0.0.1';
  const portText = env.PORT ?? '8000';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`Invalid environment variable "PORT": expected an integer from 0 to 65535, got "${portText}".\n`);
    process.exit(2);
  }
  const appEnv = env.APP_ENV ?? 'dev';
  const debugText = env.APP_DEBUG ?? (appEnv === 'prod' ? '0' : '1');
  if (!['0', '1', 'true', 'false'].includes(debugText)) {
    process.stderr.write(`Invalid environment variable "APP_DEBUG": expected 0 or 1, got "${debugText}".\n`);
    process.exit(2);
  }
  const logger = pino({ level: env.LOG_LEVEL ?? 'info' });
  let kernel;
  try {
    kernel = createDemoKernel({
      debug: debugText === '1' || debugText === 'true',
      trustedProxies: list(env.TRUSTED_PROXIES),
      profilerAllowedIps: list(env.PROFILER_ALLOWED_IPS),
      logger,
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const server = http.createServer({ requireHostHeader: false }, kernel);
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(`express-kernel listening on http://${host}:${actual}\n`);
  });
  const stop = (signal: string): void => {
    logger.info({ signal }, 'shutting down');
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => { server.closeAllConnections(); process.exit(0); }, 5000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main();
