import express, {
  type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response, type RequestHandler,
} from 'express';
import { performance } from 'node:perf_hooks';
import { compileTrust } from '../http/RequestUri';
import { RouteCollection } from '../routing/RouteCollection';
import { UrlMatcher } from '../routing/matcher/UrlMatcher';
import { Profiler } from '../profiler/Profiler';
import { createProfilerRoutes } from '../profiler/ProfilerController';
import { MemoryProfilerStorage } from '../profiler/storage/MemoryProfilerStorage';
import { composeLayers } from './composeLayers';
import { handleDirectly } from './directHandle';
import { END_HOOK, PROFILED_END } from '../profiler/endHook';
import { errorHandler } from './errorHandler';
import { Layer, orderLayers } from './layers';
import { isKernelError } from '../errors/KernelError';
import { ErrorTemplates } from '../http/ErrorTemplates';
import { scopedErrorRenderers } from '../http/ErrorRenderer';
import { KernelConfigError } from '../config/KernelConfigError';
import { KernelOptions, PLUGGABLE_LAYERS, ResolvedKernelOptions, resolveKernelOptions } from './options';
import { requestContext } from './requestContext';
import { routerMiddleware } from './routerMiddleware';
import './state';
import { installRequestSlots } from './requestSlots';
import { securityHeaders } from '../http/securityHeaders';
import { corsLayer } from '../cors/corsLayer';
import { sessionLayer, SessionLayer } from '../session/sessionLayer';
import { firewall } from '../security/firewall';
import { accessCheck } from '../security/accessCheck';
import { bodyParsing } from '../http/body/bodyParsing';
import { postDenormalizeCheck } from '../security/postDenormalizeCheck';
import { localeLayer } from '../locale/localeLayer';
import { routeLocale } from '../locale/routeLocale';
import { timeZoneLayer } from '../timezone/timeZoneLayer';

/** The Express application a kernel is, with its resolved options and parts. */
export interface Kernel extends Express {
  /** The validated options. */
  readonly kernelOptions: ResolvedKernelOptions;
  /** The profiler, when debug mode enabled it. */
  readonly profiler?: Profiler;
  /** The full routing table (application routes, plus the profiler's in debug mode). */
  readonly routeCollection: RouteCollection;
  /** The session layer, when `session` was configured. */
  readonly sessionLayer?: SessionLayer;
  /** Releases what the kernel opened (the session's SQLite database). Redis clients stay the caller's. */
  close(): Promise<void>;
}

/** Wraps a handler so the profiler's timeline records its start and end (ms). */
function timed(name: string, handler: RequestHandler): RequestHandler {
  return function layer(req: Request, res: Response, next: NextFunction) {
    const mark = {
      name, category: 'layer', start: performance.now() - req.kernel!.startedAt, end: undefined as number | undefined,
    };
    req.kernel!.timeline.push(mark);
    return handler(req, res, (err?: unknown) => {
      mark.end = performance.now() - req.kernel!.startedAt;
      next(err);
    });
  };
}

/** {@link timed} for the error layer (four parameters, so Express and composeLayers see an error handler). */
function timedError(name: string, handler: ErrorRequestHandler): ErrorRequestHandler {
  const inner = timed(name, (req, res, next) => handler(req.kernel!.error, req, res, next));
  return function errorLayer(err: unknown, req: Request, res: Response, next: NextFunction) {
    req.kernel!.error = err;
    return inner(req, res, next);
  };
}

/**
 * Creates the kernel: an Express 5 application that runs standalone (`kernel.listen(…)`) or
 * mounted (`app.use('/prefix', kernel)`; the mount path becomes the base URL in messages,
 * redirects and profiler links).
 * @param options - see {@link KernelOptions}; validated here, once
 * @returns the application
 * @throws KernelConfigError naming a bad option
 * @throws InvalidRouteError naming the first route that does not compile (route files are not compiled when loaded)
 */
export function createKernel(options: KernelOptions): Kernel {
  const resolved = resolveKernelOptions(options);
  const trust = compileTrust(resolved.trustedProxies);
  const routes = new RouteCollection();
  // one rule for debug output: who may open the profiler may see exception pages, and no one else
  const debugClients = resolved.debug ? compileTrust(resolved.profiler.allowedIps) : () => false;
  let templates: ErrorTemplates;
  try {
    templates = ErrorTemplates.compile(resolved.errorTemplates);
  } catch (e) {
    if (isKernelError(e, 'ERR_HTTP_ERROR_TEMPLATE')) {
      throw new KernelConfigError(`errorTemplates.${e.key}`, `${e.message}.`);
    }
    throw e;
  }
  let profiler: Profiler | undefined;
  if (resolved.profiler.enabled) {
    profiler = new Profiler({
      storage: resolved.profiler.storage ?? new MemoryProfilerStorage(1000),
      collectors: [...resolved.profiler.collectors],
      logger: resolved.logger,
      toolbar: resolved.profiler.toolbar,
      logLevel: resolved.profiler.logLevel,
      redactFields: [...resolved.profiler.redactFields],
      projectRoot: resolved.profiler.projectRoot,
    });
    routes.addCollection(createProfilerRoutes({ profiler, routes, allowed: debugClients }));
  }
  routes.addCollection(resolved.routes);
  const matcher = new UrlMatcher(routes);

  // Layers built from the typed options, in LAYER_ORDER (orderLayers sorts them).
  const built: Layer[] = [];
  if (resolved.securityHeaders !== false) {
    const headers = resolved.debug && resolved.securityHeaders.contentSecurityPolicy === undefined
      ? { ...resolved.securityHeaders, contentSecurityPolicy: false }
      : resolved.securityHeaders;
    built.push({ name: 'security-headers', handler: securityHeaders(headers) });
  }
  if (resolved.cors !== undefined) built.push({ name: 'cors', handler: corsLayer(resolved.cors) });
  let session: SessionLayer | undefined;
  if (resolved.session !== undefined) {
    session = sessionLayer({
      ...resolved.session,
      secret: resolved.secret as string | string[],
      environment: resolved.environment,
      logger: resolved.logger,
    });
    built.push({ name: 'session', handler: session });
  }
  if (resolved.security !== undefined) built.push({ name: 'firewall', handler: firewall(resolved.security) });
  if (resolved.locale !== undefined) built.push({ name: 'locale', handler: localeLayer(resolved.locale) });
  if (resolved.timeZone !== undefined) built.push({ name: 'time-zone', handler: timeZoneLayer(resolved.timeZone) });
  // After the match: the route's locale, then (unless the caller gives its own list) the
  // pre-deserialization check, body parsing and the post-deserialization check; then the controller.
  const routeHandlers = [
    ...(resolved.locale !== undefined ? [routeLocale()] : []),
    ...(resolved.routeHandlers.length > 0
      ? resolved.routeHandlers
      : [accessCheck({ routes }), bodyParsing(), postDenormalizeCheck()]),
  ];

  // Only the profiler reads the timeline: without it the layers run unwrapped.
  const time = profiler !== undefined ? timed : (_name: string, handler: RequestHandler): RequestHandler => handler;
  const layers: Layer[] = [
    { name: 'request', handler: requestContext(trust, resolved.trustedHosts) },
    ...built.map((l) => ({ name: l.name, handler: time(l.name, l.handler as RequestHandler) })),
    {
      name: 'router',
      handler: time('router', routerMiddleware(matcher, routes, routeHandlers, {
        notFound: resolved.notFound, stackTraces: resolved.debug,
      })),
    },
    {
      name: 'error',
      handler: (profiler !== undefined ? timedError : (_name: string, h: ErrorRequestHandler) => h)(
        'error',
        errorHandler({
          debug: resolved.debug,
          debugClients,
          logger: resolved.logger,
          onError: resolved.onError,
          errors: resolved.errors,
          templates: templates.empty ? undefined : templates,
          scoped: scopedErrorRenderers(routes),
        }),
      ),
    },
  ];
  if (profiler !== undefined) layers.push({ name: 'profiler', handler: profiler.middleware() });
  for (const name of PLUGGABLE_LAYERS) {
    for (const h of resolved.layers[name] ?? []) layers.push({ name, handler: time(name, h) });
  }

  const app = express() as unknown as Kernel;
  app.disable('x-powered-by');
  // As Symfony (and the oracle's responses): no ETag unless the application sets one. Express
  // would hash every response body for a weak one; `kernel.set('etag', 'weak')` brings it back.
  app.set('etag', false);
  installRequestSlots(app.request);
  // one router step for the whole stack (see composeLayers); the order is still LAYER_ORDER's
  const composed = composeLayers(orderLayers(layers).map((l) => l.handler));
  app.use(composed);
  if (profiler !== undefined) handleDirectly(app, composed, [END_HOOK], { end: PROFILED_END });
  else handleDirectly(app, composed);
  Object.defineProperties(app, {
    kernelOptions: { value: resolved },
    profiler: { value: profiler },
    routeCollection: { value: routes },
    sessionLayer: { value: session },
    close: { value: async () => { await session?.close(); }, configurable: true, writable: true },
  });
  return app;
}
