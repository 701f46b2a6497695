import { compileTrust } from '../http/RequestUri';
import { withoutPassword } from '../storage/redis';
import { BEARER_TOKEN, BEARER_TOKEN_SYNTAX, DEMO_DEFAULTS } from './app';

/**
 * The demo service's settings read from its environment, validated at start-up (`npm start`,
 * the Docker image). Every refusal names the variable, so the service never starts half
 * configured: with the wrong environment, a blank secret or a list it cannot read.
 */
export interface DemoEnv {
  /** `APP_ENV`: exactly `dev`, `test` or `prod`. @default 'dev' */
  readonly appEnv: 'dev' | 'test' | 'prod';
  /** `APP_DEBUG`: `0`/`1`/`true`/`false`. @default true, false with APP_ENV=prod */
  readonly debug: boolean;
  /** `APP_SECRET`, when set: not blank; with APP_ENV=prod required, 32 characters or more, not the demo's. */
  readonly secret: string | undefined;
  /** `TRUSTED_PROXIES`: IPs, CIDRs or proxy-addr names (`loopback`), comma-separated. */
  readonly trustedProxies: string[] | undefined;
  /** `TRUSTED_HOSTS`: regular expressions, comma-separated (Symfony's framework.trusted_hosts). */
  readonly trustedHosts: string[] | undefined;
  /** `PROFILER_ALLOWED_IPS`: as TRUSTED_PROXIES. */
  readonly profilerAllowedIps: string[] | undefined;
  /** `REDIS_URL`, when set: a `redis://` or `rediss://` URL. */
  readonly redisUrl: string | undefined;
  /**
   * `API_TOKEN`, the `admin` user's bearer token on the API, when set: RFC 6750 token characters;
   * with APP_ENV=prod, 32 characters or more and not the demo's.
   */
  readonly apiToken: string | undefined;
  /**
   * `VARNISH_URLS`: the Varnish servers in front of the demo (http(s) URLs, comma-separated),
   * which the API purges after each write (README: "HTTP cache").
   */
  readonly varnishUrls: string[] | undefined;
}

/** A start-up refusal: `Invalid environment variable "<NAME>": <why>`. */
export class EnvError extends Error {
  override name = 'EnvError';
  constructor(readonly variable: string, reason: string) {
    super(`Invalid environment variable "${variable}": ${reason}`);
  }
}

const APP_ENVS = ['dev', 'test', 'prod'] as const;

/** A comma-separated list, blanks dropped; undefined when unset or empty. */
export function list(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** A list of addresses proxy-addr accepts, or an EnvError naming the variable and the entry. */
function addresses(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const entries = list(env[name]);
  for (const entry of entries ?? []) {
    try {
      compileTrust([entry]);
    } catch {
      const why = 'is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal.';
      throw new EnvError(name, `"${entry}" ${why}`);
    }
  }
  return entries;
}

/**
 * Reads and validates the demo's environment.
 * @param env - usually `process.env`
 * @returns the settings
 * @throws EnvError naming the first bad variable, e.g. `Invalid environment variable "APP_ENV":
 *   expected dev, test or prod (case-sensitive), got "production".`
 */
export function readDemoEnv(env: NodeJS.ProcessEnv): DemoEnv {
  const appEnv = env.APP_ENV ?? 'dev';
  if (!(APP_ENVS as readonly string[]).includes(appEnv)) {
    throw new EnvError('APP_ENV', `expected dev, test or prod (case-sensitive), got ${JSON.stringify(appEnv)}.`);
  }
  const debugText = env.APP_DEBUG ?? (appEnv === 'prod' ? '0' : '1');
  if (!['0', '1', 'true', 'false'].includes(debugText)) {
    throw new EnvError('APP_DEBUG', `expected 0 or 1, got ${JSON.stringify(debugText)}.`);
  }
  const secret = env.APP_SECRET;
  if (secret !== undefined && secret.trim() === '') {
    const why = 'the secret is empty or only white space; set a random secret of at least 32 characters.';
    throw new EnvError('APP_SECRET', why);
  }
  if (appEnv === 'prod' && (secret === undefined || secret === DEMO_DEFAULTS.secret || secret.trim().length < 32)) {
    throw new EnvError('APP_SECRET', 'set a secret of at least 32 characters when APP_ENV=prod.');
  }
  const trustedHosts = list(env.TRUSTED_HOSTS);
  for (const pattern of trustedHosts ?? []) {
    try {
      new RegExp(pattern, 'i');
    } catch (e) {
      const why = `is not a valid regular expression: ${(e as Error).message}.`;
      throw new EnvError('TRUSTED_HOSTS', `${JSON.stringify(pattern)} ${why}`);
    }
  }
  const redisUrl = env.REDIS_URL === undefined || env.REDIS_URL === '' ? undefined : env.REDIS_URL;
  if (redisUrl !== undefined) {
    let scheme: string | undefined;
    try { scheme = new URL(redisUrl).protocol; } catch { /* not a URL */ }
    if (scheme !== 'redis:' && scheme !== 'rediss:') {
      const example = 'expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379';
      throw new EnvError('REDIS_URL', `${example}, got "${withoutPassword(redisUrl)}".`);
    }
  }
  const apiToken = env.API_TOKEN;
  if (apiToken !== undefined && !BEARER_TOKEN.test(apiToken)) {
    throw new EnvError('API_TOKEN', `${BEARER_TOKEN_SYNTAX}; e.g. the output of openssl rand -hex 32.`);
  }
  if (appEnv === 'prod' && apiToken !== undefined && (apiToken === DEMO_DEFAULTS.apiToken || apiToken.length < 32)) {
    throw new EnvError('API_TOKEN', 'set a token of at least 32 characters (not the demo\'s) when APP_ENV=prod, '
      + 'or leave it unset to turn bearer tokens off.');
  }
  const varnishUrls = list(env.VARNISH_URLS);
  for (const url of varnishUrls ?? []) {
    if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url)) {
      throw new EnvError('VARNISH_URLS', `expected http(s) URLs of Varnish servers, e.g. http://127.0.0.1:6081, got "${url}".`);
    }
  }
  return Object.freeze({
    appEnv: appEnv as DemoEnv['appEnv'],
    debug: debugText === '1' || debugText === 'true',
    secret,
    trustedProxies: addresses(env, 'TRUSTED_PROXIES'),
    trustedHosts,
    profilerAllowedIps: addresses(env, 'PROFILER_ALLOWED_IPS'),
    redisUrl,
    apiToken,
    varnishUrls,
  });
}
