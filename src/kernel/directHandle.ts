import { tracingChannel } from 'node:diagnostics_channel';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import finalhandler from 'finalhandler';

/** Express's router's tracing channel: with a subscriber (an APM), requests take Express's own path. */
const ROUTER_TRACING = tracingChannel('express.router.request');

function routerTraced(): boolean {
  const ch = ROUTER_TRACING;
  return ch.start.hasSubscribers || ch.end.hasSubscribers || ch.asyncStart.hasSubscribers
    || ch.asyncEnd.hasSubscribers || ch.error.hasSubscribers;
}

type Handle = (req: Request, res: Response, callback?: NextFunction) => void;
interface RouterState { baseUrl: string; next?: NextFunction; params: Request['params'] }

/**
 * Makes `app.handle` call the kernel's one composed handler itself while it is the application's
 * only middleware, doing what Express 5 (`application.js` `handle`) and its router (`router`
 * 2.x `Router#handle` for a `use('/')` layer) do around it:
 * - Express: `X-Powered-By` when enabled, `req.res`/`res.req`, the application's request and
 *   response prototypes, `res.locals`;
 * - the router: `req.baseUrl` (the mount path, `''` standalone), `req.originalUrl`, `req.next`,
 *   `req.params` (`{}`), restored before the handler's `next(err)` is handed on, on the next
 *   turn (`setImmediate`, as the router does), to the caller's callback or, standalone, to
 *   Express's final handler (`finalhandler`, logging as Express does outside `env` `test`).
 *
 * Everything else takes Express's own path: a second middleware or route added to the
 * application (`kernel.use(…)`, `kernel.get(…)` after creation) and a subscriber to the
 * router's tracing channel (`express.router.request`).
 *
 * The router's step per request (its closures, `parseurl`, the layer match, `processParams`)
 * is what bare Express pays once for its own route; without it, a kernel request costs one
 * router step less.
 * @param app - the kernel's application, with `handler` mounted by `app.use(handler)` and nothing else
 * @param handler - the composed handler (see `composeLayers`)
 * @param ownResponseProperties - response properties a layer will set (the profiler's hook,
 *   `END_HOOK`): made own properties of the response first, with their current values
 * @param responseAccessors - accessors a layer will define (the profiler's `end`, `PROFILED_END`),
 *   by name: defined on each response as given, before its prototype changes
 */
export function handleDirectly(
  app: Express, handler: RequestHandler, ownResponseProperties: readonly (string | symbol)[] = [],
  responseAccessors: Readonly<Record<string, PropertyDescriptor>> = {},
): void {
  const accessors = Object.entries(responseAccessors);
  const expressHandle = (app as unknown as { handle: Handle }).handle;
  const router = (app as unknown as { router: { stack: Array<{ handle: unknown }> } }).router;
  function onError(this: Express, err: Error): void {
    if (this.get('env') !== 'test') console.error(err.stack ?? err.toString());
  }
  const logError = onError.bind(app);
  function handle(this: Express, req: Request, res: Response, callback?: NextFunction): void {
    const stack = router.stack;
    if (stack.length !== 1 || stack[0].handle !== handler || routerTraced()) {
      expressHandle.call(this, req, res, callback);
      return;
    }
    if (this.enabled('x-powered-by')) res.setHeader('X-Powered-By', 'Express');
    const saved: RouterState = { baseUrl: req.baseUrl, next: req.next, params: req.params };
    const done = (err?: unknown): void => {
      setImmediate(() => {
        req.baseUrl = saved.baseUrl;
        req.next = saved.next;
        req.params = saved.params;
        const final = callback ?? finalhandler(req, res, { env: this.get('env') as string, onerror: logError });
        final(err === 'router' ? undefined : err);
      });
    };
    // Every property is added before the prototypes change: V8 adds a property to an object whose
    // prototype was just changed through its runtime, ~0.5 µs a store (measured), where adding it
    // before costs what any store costs. Neither prototype has an accessor of these names.
    req.res = res;
    res.req = req;
    req.next = done;
    req.baseUrl = saved.baseUrl || '';
    req.originalUrl = req.originalUrl || req.url;
    req.params = {};
    req.kernel = undefined; // the first layer's, below: a property that exists is written in place
    // parseurl's cache (`req.query`, `req.path`), undefined until it parses
    (req as { _parsedUrl?: unknown })._parsedUrl = (req as { _parsedUrl?: unknown })._parsedUrl;
    if (!res.locals) res.locals = Object.create(null) as Record<string, unknown>;
    // defaults of ServerResponse's prototype until a status is set
    res.statusCode = res.statusCode; // eslint-disable-line no-self-assign
    res.statusMessage = res.statusMessage; // eslint-disable-line no-self-assign
    const own = res as unknown as Record<string | symbol, unknown>;
    for (const name of ownResponseProperties) own[name] = own[name]; // eslint-disable-line no-self-assign
    for (const [name, descriptor] of accessors) Object.defineProperty(res, name, descriptor);
    Object.setPrototypeOf(req, this.request);
    Object.setPrototypeOf(res, this.response);
    handler(req, res, done);
  }
  (app as unknown as { handle: Handle }).handle = handle;
}
