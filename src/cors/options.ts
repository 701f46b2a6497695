import { z } from 'zod';
import { invalidOption } from '../config/optionError';
import { httpToken, optionsObject, wholeNumber } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { compileOrigins, OriginList, OriginPattern } from './origins';

const PATHS = 'expected settings per path regex, e.g. { "^/api/": { origins: ["https://app.example.com"] } }';

const tokens = (what: string, plural: string): z.ZodReadonly<z.ZodArray<z.ZodString>> =>
  z.array(httpToken(`${what} (an HTTP token)`), { error: `expected a list of ${plural}` }).readonly();

/** The schema of one `paths` entry (and of `defaults`): {@link CorsPathOptions} is its input. */
export const corsPathOptionsSchema = optionsObject({
  /**
   * Origins allowed to read responses: exact origins, `*` (any origin; not with `credentials`)
   * or anchored RegExps. Any other origin gets no CORS headers. Each entry is checked by
   * {@link compileOrigins}.
   * @default [] (none)
   * @example ['https://app.example.com', /^https:\/\/[a-z0-9-]+\.example\.com$/]
   */
  origins: z.array(z.custom<OriginPattern>(), { error: 'expected a list of origins (strings or RegExps)' })
    .readonly().optional(),
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth). @default false */
  credentials: z.boolean({ error: 'expected true or false' }).optional(),
  /**
   * Response headers scripts may read (`Access-Control-Expose-Headers`).
   * @default ['X-Debug-Token', 'X-Debug-Token-Link'] (the profiler's)
   */
  exposedHeaders: tokens('a header name', 'header names').optional(),
  /**
   * How long a browser may cache a preflight answer, in seconds (`Access-Control-Max-Age`),
   * 0 to 86400. @default undefined (no header: the browser's default, 5 s)
   * @example 3600
   */
  maxAge: wholeNumber(0, 86400, 'seconds').optional(),
  /** Methods allowed in preflights. @default ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'] */
  methods: tokens('a method', 'methods').optional(),
  /**
   * Request headers allowed in preflights; `'*'` echoes the ones the browser asks for.
   * @default ['Content-Type', 'Authorization']
   */
  allowedHeaders: z.union([z.literal('*'), tokens('a header name', 'header names')], {
    error: 'expected "*" or a list of header names',
  }).optional(),
});

/**
 * The options of {@link corsLayer}, validated once at construction: {@link CorsOptions} is its
 * input; {@link resolveCorsOptions} compiles its output into {@link ResolvedCorsOptions}.
 */
export const corsOptionsSchema = optionsObject({
  /**
   * Settings per path: each key is a regular expression (case-insensitive, unanchored, as in
   * NelmioCorsBundle) tested against the raw path info; the first matching key wins.
   * Paths that match no key get no CORS handling.
   * @example { '^/api/': { origins: ['https://app.example.com'], maxAge: 3600 } }
   */
  paths: z.record(z.string(), corsPathOptionsSchema, { error: PATHS })
    .refine((paths) => Object.keys(paths).length > 0, { error: PATHS })
    .superRefine((paths, ctx) => {
      for (const key of Object.keys(paths)) {
        const error = compiledPattern(key);
        if (error === undefined) continue;
        const message = `the key is not a valid regular expression: ${error}`;
        ctx.addIssue({ code: 'custom', path: [key], message, input: key, params: { got: false } });
      }
    }).readonly(),
  /** Settings every path starts from (NelmioCorsBundle's `defaults`). */
  defaults: corsPathOptionsSchema.optional(),
});

/** CORS settings of one path prefix (NelmioCorsBundle's `paths` entry). All optional. */
export type CorsPathOptions = z.input<typeof corsPathOptionsSchema>;

/** Options of {@link corsLayer}. */
export type CorsOptions = z.input<typeof corsOptionsSchema>;

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

/** The message of a `paths` key that does not compile, or undefined. */
function compiledPattern(key: string): string | undefined {
  try {
    new RegExp(key, 'i');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function resolveRule(path: string, own: CorsPathOptions, defaults: CorsPathOptions): CorsRule {
  const at = `cors.paths[${JSON.stringify(path)}]`;
  const o: CorsPathOptions = { ...defaults, ...own };
  const credentials = o.credentials ?? false;
  const origins = compileOrigins(o.origins ?? [], `${at}.origins`);
  if (origins.any && credentials) {
    const what = 'the wildcard "*" cannot go with credentials: true (any site could read your users\' data)';
    throw invalidOption(`${at}.origins`, what, o.origins, { got: false, hint: 'list the origins' });
  }
  return Object.freeze({
    path,
    pathPattern: new RegExp(path, 'i'),
    origins,
    credentials,
    exposedHeaders: Object.freeze([...(o.exposedHeaders ?? ['X-Debug-Token', 'X-Debug-Token-Link'])]),
    maxAge: o.maxAge,
    methods: Object.freeze(
      (o.methods ?? ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE']).map((m) => m.toUpperCase()),
    ),
    allowedHeaders: o.allowedHeaders === '*'
      ? '*'
      : Object.freeze([...(o.allowedHeaders ?? ['Content-Type', 'Authorization'])]),
  });
}

/**
 * Validates {@link CorsOptions} (fail fast, at construction).
 * @throws KernelConfigError `Invalid option "cors.paths[\"^/api\"].maxAge": …` naming the option
 *   and value
 */
export function resolveCorsOptions(options: CorsOptions): ResolvedCorsOptions {
  const o = parseOptions(corsOptionsSchema, options, 'cors');
  const rules = Object.entries(o.paths).map(([path, own]) => resolveRule(path, own, o.defaults ?? {}));
  return Object.freeze({ rules: Object.freeze(rules) });
}
