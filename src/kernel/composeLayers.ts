import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

type AnyHandler = RequestHandler | ErrorRequestHandler;

/**
 * Runs a list of middleware as one Express handler, with the semantics `app.use` gives each of
 * them (Express 5 `router/lib/layer.js` `handleRequest` / `handleError`):
 * - a handler of four parameters is an error handler: it runs only while an error is passed on,
 *   the others only while none is;
 * - a handler that throws, or returns a promise that rejects, passes that error on (a rejection
 *   with no value becomes `Error('Rejected promise')`, as Express's);
 * - `next('route')` continues as `next()` (there is no route to skip in a `use` stack), and
 *   `next('router')` leaves the list: the handlers after the kernel (its host app's) get `next()`;
 * - past the last handler, `next(err)` of the caller gets what is left.
 *
 * The kernel mounts its layers with one `app.use(composeLayers(…))`: Express's router then takes
 * one step per request instead of one per layer (a step matches the layer's path, restores
 * `req.url` and `req.baseUrl`, and may defer to `setImmediate` every 100 synchronous calls).
 * @param handlers - the middleware, in order
 * @returns one handler running them all
 */
export function composeLayers(handlers: readonly AnyHandler[]): RequestHandler {
  const list = [...handlers];
  const isErrorHandler = list.map((h) => h.length === 4);
  const count = list.length;
  return function kernelLayers(req: Request, res: Response, done: NextFunction): void {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err === 'router') { done(); return; }
      let error: unknown = err === 'route' || err === null ? undefined : err;
      while (index < count) {
        const i = index++;
        if ((error !== undefined) !== isErrorHandler[i]) continue;
        try {
          const out = error !== undefined
            ? (list[i] as ErrorRequestHandler)(error, req, res, next)
            : (list[i] as RequestHandler)(req, res, next);
          if (out !== undefined && out !== null && typeof (out as Promise<unknown>).then === 'function') {
            (out as Promise<unknown>).then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
          }
        } catch (e) {
          error = e;
          continue;
        }
        return;
      }
      done(error);
    };
    next();
  };
}
