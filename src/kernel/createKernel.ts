import express, { type Express, type NextFunction, type Request, type Response, type RequestHandler } from 'express';
import { performance } from 'node:perf_hooks';
import { compileTrust } from '../http/RequestUri';
import { RouteCollection } from '../routing/RouteCollection';
import { UrlMatcher } from '../routing/matcher/UrlMatcher';
import { Profiler } from '../profiler/Profiler';
import { createProfilerRoutes } from '../profiler/ProfilerController';
import { MemoryProfilerStorage } from '../profiler/storage/MemoryProfilerStorage';
import { errorHandler } from './errorHandler';
import { Layer, orderLayers } from './layers';
import { KernelOptions, PLUGGABLE_LAYERS, ResolvedKernelOptions, resolveKernelOptions } from './options';
import { requestContext } from './requestContext';
import { routerMiddleware } from './routerMiddleware';
import './state';

/** The Express application a kernel is, with its resolved options and parts. */
export interface Kernel extends Express {
  /** The validated options. */
  readonly kernelOptions: ResolvedKernelOptions;
  /** The profiler, when debug mode enabled it. */
  readonly profiler?: Profiler;
  /** The full routing table (application routes, plus the profiler's in debug mode). */
  readonly routeCollection: RouteCollection;
}

/** Wraps a handler so the profiler's timeline records its start and end (ms). */
function timed(name: string, handler: RequestHandler): RequestHandler {
  return function layer(req: Request, res: Response, next: NextFunction) {
    const mark = { name, start: performance.now() - req.kernel.startedAt, end: undefined as number | undefined };
    req.kernel.timeline.push(mark);
    return handler(req, res, (err?: unknown) => {
      mark.end = performance.now() - req.kernel.startedAt;
      next(err);
    });
  };
}

/**
 * Creates the kernel: an Express 5 application that runs standalone (`kernel.listen(…)`) or
 * mounted (`app.use('/prefix', kernel)`; the mount path becomes the base URL in messages,
 * redirects and profiler links).
 * @param options - see {@link KernelOptions}; validated here, once
 * @returns the application
 * @throws KernelConfigError naming a bad option
 * @throws InvalidRouteError when a route does not compile
 */
export function createKernel(options: KernelOptions): Kernel {
  const resolved = resolveKernelOptions(options);
  const trust = compileTrust(resolved.trustedProxies);
  const routes = new RouteCollection();
  let profiler: Profiler | undefined;
  if (resolved.profiler.enabled) {
    profiler = new Profiler({
      storage: resolved.profiler.storage ?? new MemoryProfilerStorage(1000),
      collectors: [...resolved.profiler.collectors],
      logger: resolved.logger,
    });
    routes.addCollection(createProfilerRoutes({ profiler, routes, allowed: compileTrust(resolved.profiler.allowedIps) }));
  }
  routes.addCollection(resolved.routes);
  const matcher = new UrlMatcher(routes);

  const layers: Layer[] = [
    { name: 'request', handler: requestContext(trust) },
    { name: 'router', handler: timed('router', routerMiddleware(matcher, routes, resolved.routeHandlers)) },
    { name: 'error', handler: errorHandler({ debug: resolved.debug, logger: resolved.logger }), handlesErrors: true },
  ];
  if (profiler !== undefined) layers.push({ name: 'profiler', handler: profiler.middleware() });
  for (const name of PLUGGABLE_LAYERS) {
    for (const h of resolved.layers[name] ?? []) layers.push({ name, handler: timed(name, h) });
  }

  const app = express() as unknown as Kernel;
  app.disable('x-powered-by');
  for (const layer of orderLayers(layers)) app.use(layer.handler as RequestHandler);
  Object.defineProperties(app, {
    kernelOptions: { value: resolved },
    profiler: { value: profiler },
    routeCollection: { value: routes },
  });
  return app;
}
