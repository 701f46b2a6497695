import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { checkedBy, functionOption, objectWith, optionsObject } from '../config/optionSchemas';
import { unknownOptionMessage } from '../config/optionError';
import { parseOptions } from '../config/parseOptions';
import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { RouteCollection } from '../routing/RouteCollection';
import type { ProfilerStorage } from '../profiler/storage/ProfilerStorage';
import type { DataCollector } from '../profiler/collectors/DataCollector';
import { securityHeadersOptionsSchema } from '../http/securityHeadersOptions';
import { corsOptionsSchema } from '../cors/options';
import { sessionOptionsShape } from '../session/options';
import { firewallOptionsSchema, interactiveLogin } from '../security/FirewallOptions';
import { localeOptionsSchema } from '../locale/options';
import { timeZoneOptionsSchema } from '../timezone/options';
import { PLUGGABLE_LAYERS, type PluggableLayer } from './layers';
// for their Request augmentations (req.locale, req.timeZone): the layers' option types no longer
// import the layers, and the root entry's declarations must still declare them
import '../locale/localeLayer';
import '../timezone/timeZoneLayer';

export { PLUGGABLE_LAYERS, type PluggableLayer } from './layers';

const ipList = z.array(z.string().min(1, { error: 'expected an IP, a CIDR or a name such as loopback' }));
const handler = functionOption<RequestHandler>('an Express middleware function');
/** A regular expression source, compiled (flag `i`) once it is valid. */
const hostPattern = z.string().min(1).superRefine((pattern, ctx) => {
  try {
    new RegExp(pattern, 'i');
  } catch (e) {
    const message = `not a valid regular expression: ${(e as Error).message}`;
    ctx.addIssue({ code: 'custom', message, input: pattern });
  }
}).transform((pattern) => new RegExp(pattern, 'i'));
const { secret: _secret, environment: _environment, logger: _logger, ...kernelSessionShape } = sessionOptionsShape;
const kernelSessionSchema = optionsObject(kernelSessionShape);

/** Session settings on the kernel: the secret comes from {@link KernelOptions.secret}. */
export type KernelSessionOptions = z.input<typeof kernelSessionSchema>;

/** What {@link KernelOptions.onError} is called with: the error and the request it failed. */
export type ErrorHook = (error: unknown, req: Request) => void | Promise<void>;

/** Template paths by status code (400–599) or `default`. */
export type ErrorTemplatePaths = { [status: number]: string; default?: string };

const profilerSchema = optionsObject({
  /** @default true (when debug is on) */
  enabled: z.boolean().optional(),
  /** Where profiles go. @default a MemoryProfilerStorage of 1000 profiles */
  storage: objectWith<ProfilerStorage>(['write'], 'a ProfilerStorage').optional(),
  /**
   * Clients that may see debug output: the profiler pages and toolbar, and, with `debug` on,
   * the exception page, `X-Debug-Exception*` headers and exception details in problem details.
   * Others get the non-debug error page. IPs, CIDRs or `loopback`; the client IP is the first
   * untrusted hop (see `trustedProxies`). Applies even with `enabled: false`.
   * @default ['loopback']
   * @example ['loopback', '172.16.0.0/12'] (Docker's bridge networks)
   */
  allowedIps: ipList.optional(),
  /** Extra data collectors. */
  collectors: z.array(objectWith<DataCollector>(['collect'], 'a DataCollector')).optional(),
  /**
   * The profiler refuses to run when `environment` is `prod` (it shows request data and stack
   * traces). Set this to run it there anyway. @default false
   */
  dangerouslyAllowInProduction: z.boolean().optional(),
  /** Inject the debug toolbar into HTML pages. @default true */
  toolbar: z.boolean().optional(),
  /** The lowest pino level the Logs panel records, e.g. 'debug'. @default 'debug' */
  logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).optional(),
  /**
   * Field names redacted in profiles on top of the built-in list (passwords, tokens, keys, card
   * numbers, CVV, SSN, PIN…; see the README's "Redaction"), case-insensitive. @default []
   * @example ['iban', 'tax_id']
   */
  redactFields: z.array(z.string().min(1)).optional(),
  /**
   * The application's root folder, an absolute path: the exception panel shows source excerpts
   * only of files under it or in a `node_modules` folder. @default process.cwd()
   */
  projectRoot: z.string().refine((v) => path.isAbsolute(v), { error: 'expected an absolute path' }).optional(),
});

/**
 * Error page templates by key (`404`..., `default`): each key a status code from 400 to 599 or
 * `default`, each path an absolute path of a readable file, checked now so a typo is a start-up
 * error.
 */
const errorTemplatesSchema = z.record(z.string(), z.string().refine((p) => path.isAbsolute(p), {
  error: 'expected an absolute path of a nunjucks template',
})).superRefine((paths, ctx) => {
  for (const [key, file] of Object.entries(paths)) {
    const fail = (message: string): void => {
      ctx.addIssue({ code: 'custom', path: [key], message, input: file, params: { got: false } });
    };
    if (!/^(?:[45]\d\d|default)$/.test(key)) fail('expected a status code from 400 to 599 or "default" as the key');
    else if (!isReadableFile(file)) fail(`no readable template file at ${JSON.stringify(file)}`);
  }
});

/** Whether `file` is a file this process may read. */
function isReadableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The kernel's options (the input, {@link KernelOptions}) and what they resolve to (the output,
 * {@link ResolvedKernelOptions}): composed of the layers' schemas, so `cors`, `session`,
 * `security`, `securityHeaders`, `locale` and `timeZone` are checked here, with their full paths
 * (`security.firewalls[0].pattern`), before any layer is built; the layers' options are kept as
 * given ({@link checkedBy}), each layer's factory resolving its own. tests/types checks both types
 * against it.
 */
export const kernelOptionsSchema = optionsObject({
  /** The routing table. */
  routes: z.instanceof(RouteCollection, { error: 'expected a RouteCollection' }),
  /**
   * Debug mode: exception pages with stacks, `X-Debug-*` headers, the profiler, shown to the
   * clients `profiler.allowedIps` allows (loopback by default). @default false
   */
  debug: z.boolean().optional(),
  /** The environment name, e.g. `dev`, `test`, `prod`. @default 'dev' when debug, else 'prod' */
  environment: z.string().regex(/^[a-z0-9_-]+$/i, { error: 'expected a name like dev, test or prod' }).optional(),
  /**
   * Proxies whose `X-Forwarded-Proto/Host/Port/Prefix/For` are honoured: IPs, CIDRs or
   * proxy-addr names (`loopback`). @default [] (nobody)
   * @example ['127.0.0.1', '10.0.0.0/8']
   */
  trustedProxies: ipList.optional(),
  /**
   * Host names the application answers to (Symfony `framework.trusted_hosts`,
   * `Request::setTrustedHosts()`): regular expressions (strings, matched case-insensitively and
   * unanchored, as Symfony's `{pattern}i`, so anchor them yourself) tested against the request's
   * host without port, the trusted `X-Forwarded-Host` included. A request whose host matches none
   * is a 400 `Untrusted Host "<host>".` before any layer runs. @default [] (every host)
   * @example ['^example\\.com$', '^(.+\\.)?example\\.com$']
   */
  trustedHosts: z.array(hostPattern).optional(),
  /** Profiler settings; the profiler runs only when `debug` is true. */
  profiler: profilerSchema.optional(),
  /** A pino logger. @default a silent logger */
  logger: objectWith<Logger>(['warn'], 'a pino logger').optional(),
  /**
   * Handlers for the layers in front of the router, by layer name; the kernel puts them in
   * {@link LAYER_ORDER}. Each is usually built by its factory (`firewall(…)`, `session(…)`…).
   */
  layers: z.partialRecord(z.enum(PLUGGABLE_LAYERS), z.union([handler, z.array(handler)]), {
    // an unknown layer name is told by the record itself, whatever its issue type says
    error: (issue) => {
      const raw = issue as z.core.$ZodRawIssue;
      return raw.code === 'unrecognized_keys' ? unknownOptionMessage(raw.keys[0], PLUGGABLE_LAYERS) : undefined;
    },
  }).optional(),
  /**
   * Handlers run after a route matched and before its controller. They see `req.kernel.route`
   * and `req.kernel.routeDefinition`. Given, they replace the default list.
   * @default [accessCheck({ routes }), bodyParsing(), postDenormalizeCheck()] (each a no-op for a
   *   route without security options)
   */
  routeHandlers: z.array(handler).optional(),
  /**
   * The application secret (Symfony `kernel.secret`): signs session cookies. At least 32
   * characters; a list rotates secrets (the first signs). Required when `session` is set. Never
   * shown in a message.
   */
  secret: sessionOptionsShape.secret.optional(),
  /**
   * Security headers (helmet): helmet's options, its top-level keys checked here, each header's
   * settings by helmet. `false` turns them off. In debug mode the Content-Security-Policy is off
   * by default, so the profiler toolbar's inline script runs. @default {} (helmet's defaults)
   */
  securityHeaders: z.union([z.literal(false), securityHeadersOptionsSchema], {
    error: 'expected helmet options (an object) or false',
  }).optional(),
  /** CORS per path prefix (NelmioCorsBundle `paths`); see `src/cors`. */
  cors: checkedBy(corsOptionsSchema).optional(),
  /** Sessions on SQLite (default) or Redis; see `src/session`. */
  session: checkedBy(kernelSessionSchema).optional(),
  /** The security firewall and access control; see `src/security`. Runs on every request. */
  security: checkedBy(firewallOptionsSchema).optional(),
  /** Locale negotiation (Symfony `LocaleListener`); see `src/locale`. */
  locale: checkedBy(localeOptionsSchema).optional(),
  /** Time zone negotiation; see `src/timezone`. */
  timeZone: checkedBy(timeZoneOptionsSchema).optional(),
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
  onError: functionOption<ErrorHook>('a function (error, req) => void').optional(),
  /**
   * `'render'`: the kernel writes the error response (HTML page or problem details).
   * `'next'`: the kernel calls `next(err)`, so the error middleware of the app it is mounted in
   * renders it (the profiler still records the exception). @default 'render'
   */
  errors: z.enum(['render', 'next']).optional(),
  /**
   * `'render'`: a path no route matches is a 404 page. `'next'`: the kernel calls `next()`, so
   * the handlers of the host app after the mount (`app.use('/prefix', kernel)`) get the request;
   * standalone, Express's final handler answers 404. Only the router's 404: a 405 (the path
   * matches for another method) is still rendered, and a layer before the router (the firewall)
   * may still answer first. @default 'render'
   */
  notFound: z.enum(['render', 'next']).optional(),
  /**
   * Error page templates of your own, by status code or `default`: absolute paths of nunjucks
   * files, compiled at construction with the kernel's environment (auto-escaping on, the kernel's
   * templates reachable by `{% extends "error/error.html.njk" %}`). They replace the plain error
   * page (`status`, `reason` and `message` are given; `message` is empty for a 5xx), as Symfony's
   * `templates/bundles/TwigBundle/Exception/error404.html.twig` and `error.html.twig` do: the
   * status's template, else `default`, else the kernel's page. The debug exception page and
   * problem details stay as they are. Edits are read on restart.
   * @example
   * { 404: path.join(__dirname, 'templates/404.html.njk'), default: path.join(__dirname, 'templates/error.html.njk') }
   */
  errorTemplates: z.custom<ErrorTemplatePaths>().pipe(errorTemplatesSchema).optional(),
}).transform((o, ctx) => {
  const debug = o.debug ?? false;
  const environment = o.environment ?? (debug ? 'dev' : 'prod');
  const fail = (option: PropertyKey[], message: string, hint: string): void => {
    ctx.addIssue({ code: 'custom', path: option, message, input: undefined, params: { got: false, hint } });
  };
  const profiled = debug && (o.profiler?.enabled ?? true);
  if (environment === 'prod' && profiled && o.profiler?.dangerouslyAllowInProduction !== true) {
    fail(['profiler', 'enabled'],
      'the profiler does not run with environment "prod": it shows request data and stack traces',
      'turn debug off, set profiler.enabled: false, or set profiler.dangerouslyAllowInProduction: true '
      + '(PROFILER_DANGEROUSLY_ALLOW_IN_PROD=1 for the demo).');
  }
  if (o.session !== undefined && o.secret === undefined) {
    fail(['secret'], 'a session needs the application secret',
      'set `secret` (at least 32 characters), e.g. from APP_SECRET.');
  }
  const pluggedSession = [o.layers?.session ?? []].flat().length > 0;
  const login = o.session === undefined && !pluggedSession ? interactiveLogin(o.security) : undefined;
  if (login !== undefined) {
    fail(['security', 'firewalls', login.index, 'authenticators'],
      `firewall "${login.name}" has an interactive login (${login.authenticator}), `
      + 'which keeps the user in the session, and the kernel has no session layer: '
      + 'every login would be forgotten at once',
      'set `session` (e.g. `{ store: "sqlite" }`, with `secret`), '
      + 'plug a session middleware into `layers.session`, or use a stateless authenticator such as HTTP Basic.');
  }
  const layers = Object.entries(o.layers ?? {}).map(([k, v]) => [k, Object.freeze(Array.isArray(v) ? [...v] : [v])]);
  return Object.freeze({
    routes: o.routes,
    debug,
    environment,
    trustedProxies: Object.freeze([...(o.trustedProxies ?? [])]),
    /** {@link KernelOptions.trustedHosts}, compiled (flag `i`). */
    trustedHosts: Object.freeze(o.trustedHosts ?? []),
    profiler: Object.freeze({
      enabled: profiled,
      storage: o.profiler?.storage,
      allowedIps: Object.freeze([...(o.profiler?.allowedIps ?? ['loopback'])]),
      collectors: Object.freeze([...(o.profiler?.collectors ?? [])]),
      toolbar: o.profiler?.toolbar ?? true,
      logLevel: o.profiler?.logLevel ?? 'debug',
      redactFields: Object.freeze([...(o.profiler?.redactFields ?? [])]),
      projectRoot: o.profiler?.projectRoot ?? process.cwd(),
    }),
    logger: o.logger,
    layers: Object.freeze(Object.fromEntries(layers) as Partial<Record<PluggableLayer, readonly RequestHandler[]>>),
    routeHandlers: Object.freeze([...(o.routeHandlers ?? [])]),
    secret: o.secret,
    securityHeaders: o.securityHeaders ?? {},
    /** The layers' options as given, checked by their schemas: each layer's factory resolves its own. */
    cors: o.cors,
    session: o.session,
    security: o.security,
    locale: o.locale,
    timeZone: o.timeZone,
    onError: o.onError,
    errors: o.errors ?? 'render',
    notFound: o.notFound ?? 'render',
    /** Absolute template paths by `'404'`... or `'default'`, each checked to be a readable file. */
    errorTemplates: Object.freeze({ ...o.errorTemplates }),
  });
});

/** Options of {@link createKernel}. Only `routes` is required. */
export type KernelOptions = z.input<typeof kernelOptionsSchema>;

/** {@link KernelOptions} after validation, with every default applied. Frozen. */
export type ResolvedKernelOptions = z.output<typeof kernelOptionsSchema>;

/**
 * Validates options once, at construction (fail fast), and applies defaults. The layers' options
 * are checked here by their own schemas and kept as given: each layer's factory resolves its own.
 * @throws KernelConfigError naming the first bad option with its full path (e.g.
 *   `security.firewalls[0].pattern`), showing the value and how to fix it
 */
export function resolveKernelOptions(options: KernelOptions): ResolvedKernelOptions {
  return parseOptions(kernelOptionsSchema, options ?? {}, '');
}
