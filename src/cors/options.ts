import { KernelConfigError } from '../config/KernelConfigError';
import { compileOrigins, OriginList, OriginPattern } from './origins';

/** CORS settings of one path prefix (NelmioCorsBundle's `paths` entry). All optional. */
export interface CorsPathOptions {
  /**
   * Origins allowed to read responses: exact origins, `*` (any origin; not with `credentials`)
   * or anchored RegExps. Any other origin gets no CORS headers.
   * @default [] (none)
   * @example ['https://app.example.com', /^https:\/\/[a-z0-9-]+\.example\.com$/]
   */
  origins?: readonly OriginPattern[];
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth). @default false */
  credentials?: boolean;
  /**
   * Response headers scripts may read (`Access-Control-Expose-Headers`).
   * @default ['X-Debug-Token', 'X-Debug-Token-Link'] (the profiler's)
   */
  exposedHeaders?: readonly string[];
  /**
   * How long a browser may cache a preflight answer, in seconds (`Access-Control-Max-Age`),
   * 0 to 86400. @default undefined (no header: the browser's default, 5 s)
   * @example 3600
   */
  maxAge?: number;
  /** Methods allowed in preflights. @default ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'] */
  methods?: readonly string[];
  /**
   * Request headers allowed in preflights; `'*'` echoes the ones the browser asks for.
   * @default ['Content-Type', 'Authorization']
   */
  allowedHeaders?: readonly string[] | '*';
}

/** Options of {@link corsLayer}. */
export interface CorsOptions {
  /**
   * Settings per path: each key is a regular expression (case-insensitive, unanchored, as in
   * NelmioCorsBundle) tested against the raw path info; the first matching key wins.
   * Paths that match no key get no CORS handling.
   * @example { '^/api/': { origins: ['https://app.example.com'], maxAge: 3600 } }
   */
  paths: Readonly<Record<string, CorsPathOptions>>;
  /** Settings every path starts from (NelmioCorsBundle's `defaults`). */
  defaults?: CorsPathOptions;
}

/** One validated `paths` entry. Frozen. */
export interface CorsRule {
  /** The key as configured, e.g. `^/api`; recorded on `req.cors.rule`. */
  readonly path: string;
  readonly pathPattern: RegExp;
  readonly origins: OriginList;
  readonly credentials: boolean;
  readonly exposedHeaders: readonly string[];
  readonly maxAge?: number;
  readonly methods: readonly string[];
  readonly allowedHeaders: readonly string[] | '*';
}

/** {@link CorsOptions} validated: the rules in configuration order. Frozen. */
export interface ResolvedCorsOptions {
  readonly rules: readonly CorsRule[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PATH_KEYS = ['origins', 'credentials', 'exposedHeaders', 'maxAge', 'methods', 'allowedHeaders'];
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

function tokens(value: unknown, option: string, what: string): readonly string[] {
  if (!Array.isArray(value)) throw new KernelConfigError(option, `expected a list of ${what} (got ${show(value)}).`);
  value.forEach((v: unknown, i) => {
    if (typeof v !== 'string' || !TOKEN.test(v)) throw new KernelConfigError(`${option}[${i}]`, `expected ${what.replace(/s$/, '')} (an HTTP token) (got ${show(v)}).`);
  });
  return Object.freeze([...(value as string[])]);
}

function checkKeys(settings: CorsPathOptions | undefined, at: string): void {
  for (const key of Object.keys(settings ?? {})) {
    if (!PATH_KEYS.includes(key)) throw new KernelConfigError(`${at}.${key}`, `unknown option; expected one of ${PATH_KEYS.join(', ')}.`);
  }
}

function resolveRule(path: string, own: CorsPathOptions, defaults: CorsPathOptions): CorsRule {
  const at = `cors.paths[${JSON.stringify(path)}]`;
  checkKeys(own, at);
  const o: CorsPathOptions = { ...defaults, ...own };
  let pathPattern: RegExp;
  try {
    pathPattern = new RegExp(path, 'i');
  } catch (e) {
    throw new KernelConfigError(at, `the key is not a valid regular expression: ${(e as Error).message}.`);
  }
  const credentials = o.credentials ?? false;
  if (typeof credentials !== 'boolean') throw new KernelConfigError(`${at}.credentials`, `expected true or false (got ${show(credentials)}).`);
  const origins = compileOrigins(o.origins ?? [], `${at}.origins`);
  if (origins.any && credentials) {
    throw new KernelConfigError(`${at}.origins`, 'the wildcard "*" cannot go with credentials: true (any site could read your users\' data); list the origins.');
  }
  const maxAge = o.maxAge;
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 0 && maxAge <= 86400)) {
    throw new KernelConfigError(`${at}.maxAge`, `expected a whole number of seconds from 0 to 86400 (got ${show(maxAge)}).`);
  }
  const allowedHeaders = o.allowedHeaders === '*' ? '*' : tokens(o.allowedHeaders ?? ['Content-Type', 'Authorization'], `${at}.allowedHeaders`, 'header names');
  return Object.freeze({
    path,
    pathPattern,
    origins,
    credentials,
    exposedHeaders: tokens(o.exposedHeaders ?? ['X-Debug-Token', 'X-Debug-Token-Link'], `${at}.exposedHeaders`, 'header names'),
    maxAge,
    methods: Object.freeze(tokens(o.methods ?? ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'], `${at}.methods`, 'methods').map((m) => m.toUpperCase())),
    allowedHeaders,
  });
}

/**
 * Validates {@link CorsOptions} (fail fast, at construction).
 * @throws KernelConfigError `Invalid option "cors.paths[\"^/api\"].maxAge": …` naming the option
 *   and value
 */
export function resolveCorsOptions(options: CorsOptions): ResolvedCorsOptions {
  const paths: unknown = options?.paths;
  if (typeof paths !== 'object' || paths === null || Array.isArray(paths) || Object.keys(paths).length === 0) {
    throw new KernelConfigError('cors.paths', `expected settings per path regex, e.g. { "^/api/": { origins: ["https://app.example.com"] } } (got ${show(paths)}).`);
  }
  const defaults = options.defaults ?? {};
  checkKeys(defaults, 'cors.defaults');
  const rules = Object.entries(paths as Record<string, CorsPathOptions>).map(([path, own]) => resolveRule(path, own, defaults));
  return Object.freeze({ rules: Object.freeze(rules) });
}
