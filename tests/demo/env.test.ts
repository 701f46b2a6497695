import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_DEFAULTS } from '../../src/demo/app';
import { EnvError, readDemoEnv } from '../../src/demo/env';
import { cleanEnv } from '../service/serverProcess';
import { scaled } from '../helpers/timeScale';

const SECRET = 'x'.repeat(40);

describe('readDemoEnv(env)', () => {
  test.each(['production', 'PROD', 'Dev', 'staging', ''])('APP_ENV=%j is refused, naming the variable', (value) => {
    expect(() => readDemoEnv({ APP_ENV: value })).toThrow(EnvError);
    expect(() => readDemoEnv({ APP_ENV: value })).toThrow(`Invalid environment variable "APP_ENV": expected dev, test or prod (case-sensitive), got ${JSON.stringify(value)}.`);
  });

  test('dev, test and prod are accepted; prod turns debug off by default', () => {
    expect(readDemoEnv({}).appEnv).toBe('dev');
    expect(readDemoEnv({ APP_ENV: 'test' }).debug).toBe(true);
    expect(readDemoEnv({ APP_ENV: 'prod', APP_SECRET: SECRET })).toMatchObject({ appEnv: 'prod', debug: false });
  });

  test('an APP_SECRET of spaces is refused in every environment, a short one with prod', () => {
    expect(() => readDemoEnv({ APP_SECRET: '     ' })).toThrow(/^Invalid environment variable "APP_SECRET": the secret is empty or only white space/);
    expect(() => readDemoEnv({ APP_ENV: 'prod', APP_SECRET: ' '.repeat(40) })).toThrow(/"APP_SECRET"/);
    expect(() => readDemoEnv({ APP_ENV: 'prod', APP_SECRET: 'short' })).toThrow('Invalid environment variable "APP_SECRET": set a secret of at least 32 characters when APP_ENV=prod.');
  });

  test('TRUSTED_PROXIES and PROFILER_ALLOWED_IPS entries that are not addresses name the variable', () => {
    expect(() => readDemoEnv({ TRUSTED_PROXIES: '10.0.0.1, not-an-ip' })).toThrow('Invalid environment variable "TRUSTED_PROXIES": "not-an-ip" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal.');
    expect(() => readDemoEnv({ PROFILER_ALLOWED_IPS: '10.0.0.0/99' })).toThrow(/^Invalid environment variable "PROFILER_ALLOWED_IPS"/);
    expect(readDemoEnv({ TRUSTED_PROXIES: 'loopback, 10.0.0.0/8' }).trustedProxies).toEqual(['loopback', '10.0.0.0/8']);
  });

  test('TRUSTED_HOSTS patterns must compile', () => {
    expect(() => readDemoEnv({ TRUSTED_HOSTS: '^ok$,(bad' })).toThrow(/^Invalid environment variable "TRUSTED_HOSTS": "\(bad" is not a valid regular expression/);
    expect(readDemoEnv({ TRUSTED_HOSTS: '^example\\.com$' }).trustedHosts).toEqual(['^example\\.com$']);
  });

  test('API_TOKEN: RFC 6750 characters; with prod, 32 characters or more and not the demo\'s; unset means none', () => {
    expect(() => readDemoEnv({ API_TOKEN: '' })).toThrow(/^Invalid environment variable "API_TOKEN": expected RFC 6750/);
    expect(() => readDemoEnv({ API_TOKEN: 'two words' })).toThrow(/"API_TOKEN"/);
    expect(readDemoEnv({ API_TOKEN: 'short-but-fine-in-dev' }).apiToken).toBe('short-but-fine-in-dev');
    expect(readDemoEnv({}).apiToken).toBeUndefined();
    const prod = { APP_ENV: 'prod', APP_SECRET: SECRET };
    expect(() => readDemoEnv({ ...prod, API_TOKEN: DEMO_DEFAULTS.apiToken })).toThrow(/^Invalid environment variable "API_TOKEN": set a token of at least 32/);
    expect(() => readDemoEnv({ ...prod, API_TOKEN: 'x'.repeat(31) })).toThrow(/"API_TOKEN"/);
    expect(readDemoEnv({ ...prod, API_TOKEN: 'x'.repeat(32) }).apiToken).toBe('x'.repeat(32));
    expect(readDemoEnv(prod).apiToken).toBeUndefined();
  });

  test('a REDIS_URL that is not redis:// is refused without showing its password', () => {
    const run = () => readDemoEnv({ REDIS_URL: 'http://user:hunter2-pw@cache:6379' });
    expect(run).toThrow('Invalid environment variable "REDIS_URL": expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379, got "http://user:******@cache:6379".');
  });

  test('VARNISH_URLS is a comma-separated list of http(s) URLs (the Varnish servers the API purges)', () => {
    expect(readDemoEnv({ VARNISH_URLS: 'http://127.0.0.1:6081, http://varnish-b' }).varnishUrls)
      .toEqual(['http://127.0.0.1:6081', 'http://varnish-b']);
    expect(readDemoEnv({}).varnishUrls).toBeUndefined();
    expect(() => readDemoEnv({ VARNISH_URLS: 'varnish:6081' })).toThrow('Invalid environment variable "VARNISH_URLS": expected http(s) URLs of Varnish servers, e.g. http://127.0.0.1:6081, got "varnish:6081".');
  });
});

describe('node dist/demo/server.js refuses a bad environment', () => {
  const SERVER = path.resolve(__dirname, '..', '..', 'dist', 'demo', 'server.js');
  const start = (env: Record<string, string>) => {
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run the build first`);
    const started = Date.now();
    const r = spawnSync(process.execPath, [SERVER], { env: cleanEnv({ HOST: '127.0.0.1', PORT: '0', ...env }), timeout: scaled(10_000), encoding: 'utf8' });
    return { status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout, ms: Date.now() - started };
  };

  test('APP_ENV=production exits 2 naming APP_ENV, before listening', () => {
    const r = start({ APP_ENV: 'production' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Invalid environment variable "APP_ENV"');
    expect(r.stdout).not.toMatch(/listening/);
  });

  test('SQLITE_PATH=/proc/nonexistent/x.sqlite fails at once naming SQLITE_PATH instead of hanging', () => {
    const r = start({ SQLITE_PATH: '/proc/nonexistent/x.sqlite', APP_DEBUG: '0' });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('"SQLITE_PATH"');
    expect(r.ms).toBeLessThan(scaled(8000));
  });

  test('a Redis URL\'s password appears in no error output', () => {
    const r = start({ REDIS_URL: 'redis://app:s3cret-redis-pw@127.0.0.1:1', APP_DEBUG: '0' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('"REDIS_URL"');
    expect(r.stderr + r.stdout).not.toContain('s3cret-redis-pw');
  });

  test('TRUSTED_PROXIES=not-an-ip names the variable', () => {
    const r = start({ TRUSTED_PROXIES: 'not-an-ip' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Invalid environment variable "TRUSTED_PROXIES"');
  });
});
