import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { invalidOption } from '../config/optionError';
import { functionOption, objectWith, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { RouteCollection } from '../routing/RouteCollection';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import type { DataCollector } from '../profiler/collectors/DataCollector';
import type { HelmetOptions } from 'helmet';
import { corsOptionsSchema, type CorsOptions } from '../cors/options';
import { sessionOptionsShape, type SessionOptions } from '../session/options';
import type { FirewallOptions } from '../security/FirewallOptions';
import { localeOptionsSchema, type LocaleOptions } from '../locale/options';
import { timeZoneOptionsSchema, type TimeZoneOptions } from '../timezone/options';
import { PLUGGABLE_LAYERS, type PluggableLayer } from './layers';

export { PLUGGABLE_LAYERS, type PluggableLayer } from './layers';

/** Session settings on the kernel: the secret comes from {@link KernelOptions.secret}. */
export type KernelSessionOptions = Omit<SessionOptions, 'secret' | 'environment' | 'logger'>;

/** Options of {@link createKernel}. Only `routes` is required. */
export interface KernelOptions {
  /** The routing table. */
  routes: RouteCollection;
  /**
   * Debug mode: exception pages with stacks, `X-Debug-*` headers, the profiler, shown to the
   * clients `profiler.allowedIps` allows (loopback by default). @default false
   */
  debug?: boolean;
  /** The environment name, e.g. `dev`, `test`, `prod`. @default 'dev' when debug, else 'prod' */
  environment?: string;
  /**
   * Proxies whose `X-Forwarded-Proto/Host/Port/Prefix/For` are honoured: IPs, CIDRs or
   * proxy-addr names (`loopback`). @default [] (nobody)
   * @example ['127.0.0.1', '10.0.0.0/8']
   */
  trustedProxies?: string[];
  /**
   * Host names the application answers to (Symfony `framework.trusted_hosts`,
   * `Request::setTrustedHosts()`): regular expressions (strings, matched case-insensitively and
   * unanchored, as Symfony's `{pattern}i`, so anchor them yourself) tested against the request's
   * host without port, the trusted `X-Forwarded-Host` included. A request whose host matches none
   * is a 400 `Untrusted Host "<host>".` before any layer runs. @default [] (every host)
   * @example ['^example\\.com$', '^(.+\\.)?example\\.com$']
   */
  trustedHosts?: string[];
  /** Profiler settings; the profiler runs only when `debug` is true. */
  profiler?: {
    /** @default true (when debug is on) */
    enabled?: boolean;
    /** Where profiles go. @default a MemoryProfilerStorage of 1000 profiles */
    storage?: ProfilerStorage;
    /**
     * Clients that may see debug output: the profiler pages and toolbar, and, with `debug` on,
     * the exception page, `X-Debug-Exception*` headers and exception details in problem details.
     * Others get the non-debug error page. IPs, CIDRs or `loopback`; the client IP is the first
     * untrusted hop (see `trustedProxies`). Applies even with `enabled: false`.
     * @default ['loopback']
     * @example ['loopback', '172.16.0.0/12'] (Docker's bridge networks)
     */
    allowedIps?: string[];
    /** Extra data collectors. */
    collectors?: DataCollector[];
    /**
     * The profiler refuses to run when `environment` is `prod` (it shows request data and stack
     * traces). Set this to run it there anyway. @default false
     */
    dangerouslyAllowInProduction?: boolean;
    /** Inject the debug toolbar into HTML pages. @default true */
    toolbar?: boolean;
    /** The lowest pino level the Logs panel records, e.g. 'debug'. @default 'debug' */
    logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
    /**
     * Field names redacted in profiles on top of the built-in list (passwords, tokens, keys, card
     * numbers, CVV, SSN, PIN…; see the README's "Redaction"), case-insensitive. @default []
     * @example ['iban', 'tax_id']
     */
    redactFields?: string[];
    /**
     * The application's root folder, an absolute path: the exception panel shows source excerpts
     * only of files under it or in a `node_modules` folder. @default process.cwd()
     */
    projectRoot?: string;
  };
  /** A pino logger. @default a silent logger */
  logger?: Logger;
  /**
   * The application secret (Symfony `kernel.secret`): signs session cookies. At least 32
   * characters; a list rotates secrets (the first signs). Required when `session` is set.
   */
  secret?: string | string[];
  /**
   * Security headers (helmet). `false` turns them off. In debug mode the Content-Security-Policy
   * is off by default, so the profiler toolbar's inline script runs. @default {} (helmet's defaults)
   */
  securityHeaders?: HelmetOptions | false;
  /** CORS per path prefix (NelmioCorsBundle `paths`); see `src/cors`. */
  cors?: CorsOptions;
  /** Sessions on SQLite (default) or Redis; see `src/session`. */
  session?: KernelSessionOptions;
  /** The security firewall and access control; see `src/security`. Runs on every request. */
  security?: FirewallOptions;
  /** Locale negotiation (Symfony `LocaleListener`); see `src/locale`. */
  locale?: LocaleOptions;
  /** Time zone negotiation; see `src/timezone`. */
  timeZone?: TimeZoneOptions;
  /**
   * Handlers for the layers in front of the router, by layer name; the kernel puts them in
   * {@link LAYER_ORDER}. Each is usually built by its factory (`firewall(…)`, `session(…)`…).
   */
  layers?: Partial<Record<PluggableLayer, RequestHandler | RequestHandler[]>>;
  /**
   * Handlers run after a route matched and before its controller. They see `req.kernel.route`
   * and `req.kernel.routeDefinition`. Given, they replace the default list.
   * @default [accessCheck({ routes }), bodyParsing(), postDenormalizeCheck()] (each a no-op for a
   *   route without security options)
   */
  routeHandlers?: RequestHandler[];
  /**
   * Called once for each error the kernel renders (a 404 `NotFoundHttpError` with its routing
   * error as `cause`, a 405, a 401 from a layer, a controller's 500...), before the response is
   * written: report it to Sentry, OpenTelemetry... An `onError` that throws (or returns a promise
   * that rejects) is logged through `req.log` or {@link KernelOptions.logger} (a process warning
   * when there is neither); the response goes out all the same. Not called for errors passed on
   * with `errors: 'next'`, nor after the response headers were sent (Express then closes the
   * connection).
   * @example onError: (err, req) => Sentry.captureException(err, { extra: { url: req.originalUrl } })
   */
  onError?: ErrorHook;
  /**
   * `'render'`: the kernel writes the error response (HTML page or problem details).
   * `'next'`: the kernel calls `next(err)`, so the error middleware of the app it is mounted in
   * renders it (the profiler still records the exception). @default 'render'
   */
  errors?: 'render' | 'next';
  /**
   * `'render'`: a path no route matches is a 404 page. `'next'`: the kernel calls `next()`, so
   * the handlers of the host app after the mount (`app.use('/prefix', kernel)`) get the request;
   * standalone, Express's final handler answers 404. Only the router's 404: a 405 (the path
   * matches for another method) is still rendered, and a layer before the router (the firewall)
   * may still answer first. @default 'render'
   */
  notFound?: 'render' | 'next';
  /**
   * Error page templates of your own, by status code or `default`: absolute paths of nunjucks
   * files, compiled at construction with the kernel's environment (auto-escaping on, the kernel's
   * templates reachable by `{% extends "error/error.html.njk" %}`). They replace the plain error
   * page (`status`, `reason` and `message` are given; `message` is empty for a 5xx), as Symfony's
   * `templates/bundles/TwigBundle/Exception/error404.html.twig` and `error.html.twig` do: the
   * status's template, else `default`, else the kernel's page. The debug exception page and
   * problem details stay as they are. Edits are read on restart.
   * @example { 404: path.join(__dirname, 'templates/404.html.njk'), default: path.join(__dirname, 'templates/error.html.njk') }
   */
  errorTemplates?: ErrorTemplatePaths;
}

/** What {@link KernelOptions.onError} is called with: the error and the request it failed. */
export type ErrorHook = (error: unknown, req: Request) => void | Promise<void>;

/** Template paths by status code (400–599) or `default`. */
export type ErrorTemplatePaths = { [status: number]: string; default?: string };

/** {@link KernelOptions} after validation, with every default applied. Frozen. */
export interface ResolvedKernelOptions {
  readonly routes: RouteCollection;
  readonly debug: boolean;
  readonly environment: string;
  readonly trustedProxies: readonly string[];
  /** {@link KernelOptions.trustedHosts}, compiled (flag `i`). */
  readonly trustedHosts: readonly RegExp[];
  readonly profiler: {
    readonly enabled: boolean;
    readonly storage?: ProfilerStorage;
    readonly allowedIps: readonly string[];
    readonly collectors: readonly DataCollector[];
    readonly toolbar: boolean;
    readonly logLevel: string;
    readonly redactFields: readonly string[];
    readonly projectRoot: string;
  };
  readonly logger?: Logger;
  readonly layers: Readonly<Partial<Record<PluggableLayer, readonly RequestHandler[]>>>;
  readonly routeHandlers: readonly RequestHandler[];
  readonly secret?: string | readonly string[];
  readonly securityHeaders: HelmetOptions | false;
  readonly cors?: CorsOptions;
  readonly session?: KernelSessionOptions;
  readonly security?: FirewallOptions;
  readonly locale?: LocaleOptions;
  readonly timeZone?: TimeZoneOptions;
  readonly onError?: ErrorHook;
  readonly errors: 'render' | 'next';
  readonly notFound: 'render' | 'next';
  /** Absolute template paths by `'404'`... or `'default'`, each checked to be a readable file. */
  readonly errorTemplates: Readonly<Record<string, string>>;
}

const ipList = z.array(z.string().min(1, { error: 'expected an IP, a CIDR or a name such as loopback' }));
const plainObject = z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
  error: 'expected an object',
});
const handler = functionOption<RequestHandler>('an Express middleware function');
/** A regular expression source, compiled (flag `i`) once it is valid. */
const hostPattern = z.string().min(1).superRefine((pattern, ctx) => {
  try {
    new RegExp(pattern, 'i');
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${(e as Error).message}`, input: pattern });
  }
}).transform((pattern) => new RegExp(pattern, 'i'));
const { secret: _secret, environment: _environment, logger: _logger, ...kernelSessionShape } = sessionOptionsShape;

/**
 * The kernel's options, composed of the layers' schemas (`cors`, `session`, `locale`, `timeZone`
 * are checked here, with their full paths, before any layer is built). {@link KernelOptions} is
 * checked against its input by tests/types.
 */
export const kernelOptionsSchema = optionsObject({
  routes: z.instanceof(RouteCollection, { error: 'expected a RouteCollection' }),
  debug: z.boolean().optional(),
  environment: z.string().regex(/^[a-z0-9_-]+$/i, { error: 'expected a name like dev, test or prod' }).optional(),
  trustedProxies: ipList.optional(),
  trustedHosts: z.array(hostPattern).optional(),
  profiler: optionsObject({
    enabled: z.boolean().optional(),
    storage: objectWith<ProfilerStorage>(['write'], 'a ProfilerStorage').optional(),
    allowedIps: ipList.optional(),
    collectors: z.array(objectWith<DataCollector>(['collect'], 'a DataCollector')).optional(),
    dangerouslyAllowInProduction: z.boolean().optional(),
    toolbar: z.boolean().optional(),
    logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
    redactFields: z.array(z.string().min(1)).optional(),
    projectRoot: z.string().refine((v) => path.isAbsolute(v), { error: 'expected an absolute path' }).optional(),
  }).optional(),
  logger: objectWith<Logger>(['warn'], 'a pino logger').optional(),
  layers: z.partialRecord(z.enum(PLUGGABLE_LAYERS), z.union([handler, z.array(handler)])).optional(),
  routeHandlers: z.array(handler).optional(),
  secret: sessionOptionsShape.secret.optional(), // never shown in a message
  securityHeaders: z.union([z.literal(false), plainObject], { error: 'expected helmet options or false' }).optional(),
  cors: corsOptionsSchema.optional(),
  session: optionsObject(kernelSessionShape).optional(),
  security: plainObject.optional(),
  locale: localeOptionsSchema.optional(),
  timeZone: timeZoneOptionsSchema.optional(),
  onError: functionOption<ErrorHook>('a function (error, req) => void').optional(),
  errors: z.enum(['render', 'next']).optional(),
  notFound: z.enum(['render', 'next']).optional(),
  errorTemplates: z.record(z.string(), z.string().refine((p) => path.isAbsolute(p), {
    error: 'expected an absolute path of a nunjucks template',
  })).optional(),
});

/**
 * Each template path must name a readable file, checked now so a typo is a start-up error.
 * @throws KernelConfigError naming `errorTemplates.<key>`
 */
function checkErrorTemplates(paths: Record<string, string>): Readonly<Record<string, string>> {
  for (const [key, file] of Object.entries(paths)) {
    if (!/^(?:[45]\d\d|default)$/.test(key)) {
      throw invalidOption(`errorTemplates.${key}`, 'expected a status code from 400 to 599 or "default" as the key', key, { got: false });
    }
    let isFile = false;
    try {
      isFile = fs.statSync(file).isFile();
      fs.accessSync(file, fs.constants.R_OK);
    } catch {
      isFile = false;
    }
    if (!isFile) throw invalidOption(`errorTemplates.${key}`, `no readable template file at ${JSON.stringify(file)}`, file, { got: false });
  }
  return Object.freeze({ ...paths });
}

/**
 * Validates options once, at construction (fail fast), and applies defaults. The layers' options
 * are checked here and kept as given: each layer's factory resolves its own.
 * @throws KernelConfigError naming the first bad option, showing the value and how to fix it
 */
export function resolveKernelOptions(options: KernelOptions): ResolvedKernelOptions {
  const o = parseOptions(kernelOptionsSchema, options ?? {}, '');
  const environment = o.environment ?? ((o.debug ?? false) ? 'dev' : 'prod');
  if (environment === 'prod' && (o.debug ?? false) && (o.profiler?.enabled ?? true) && o.profiler?.dangerouslyAllowInProduction !== true) {
    const what = 'the profiler does not run with environment "prod": it shows request data and stack traces';
    const hint = 'turn debug off, set profiler.enabled: false, or set profiler.dangerouslyAllowInProduction: true '
      + '(PROFILER_DANGEROUSLY_ALLOW_IN_PROD=1 for the demo).';
    throw invalidOption('profiler.enabled', what, o.profiler?.enabled, { got: false, hint });
  }
  if (o.session !== undefined && o.secret === undefined) {
    const hint = 'set `secret` (at least 32 characters), e.g. from APP_SECRET.';
    throw invalidOption('secret', 'a session needs the application secret', undefined, { got: false, hint });
  }
  const debug = o.debug ?? false;
  const trustedProxies = Object.freeze([...(o.trustedProxies ?? [])]);
  const trustedHosts = Object.freeze(o.trustedHosts ?? []);
  const allowedIps = Object.freeze([...(o.profiler?.allowedIps ?? ['loopback'])]);
  return Object.freeze({
    routes: o.routes,
    debug,
    environment,
    trustedProxies,
    trustedHosts,
    profiler: Object.freeze({
      enabled: debug && (o.profiler?.enabled ?? true),
      storage: o.profiler?.storage,
      allowedIps,
      collectors: Object.freeze([...(o.profiler?.collectors ?? [])]),
      toolbar: o.profiler?.toolbar ?? true,
      logLevel: o.profiler?.logLevel ?? 'debug',
      redactFields: Object.freeze([...(o.profiler?.redactFields ?? [])]),
      projectRoot: o.profiler?.projectRoot ?? process.cwd(),
    }),
    logger: o.logger,
    layers: Object.freeze(Object.fromEntries(Object.entries(o.layers ?? {}).map(([k, v]) => [k, Object.freeze(Array.isArray(v) ? [...v] : [v])]))),
    routeHandlers: Object.freeze([...(o.routeHandlers ?? [])]),
    secret: o.secret,
    securityHeaders: o.securityHeaders ?? {},
    cors: options.cors,
    session: options.session,
    security: options.security,
    locale: options.locale,
    timeZone: options.timeZone,
    onError: o.onError,
    errors: o.errors ?? 'render',
    notFound: o.notFound ?? 'render',
    errorTemplates: checkErrorTemplates(o.errorTemplates ?? {}),
  });
}
