import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { renderError, statusOf } from '../http/ErrorRenderer';

/**
 * The error-rendering layer: records the error for the profiler, logs 5xx, and renders the
 * response with {@link renderError}. A client's mistake (4xx) never becomes a 500.
 */
export function errorHandler(options: { debug: boolean; logger?: Logger }): ErrorRequestHandler {
  return function kernelError(err: unknown, req: Request, res: Response, next: NextFunction) {
    if (res.headersSent) return next(err);
    const error = err;
    if (req.kernel !== undefined) req.kernel.error = error;
    const status = statusOf(error);
    // the request's own logger when it has one (the profiler's Logs panel reads it), else the kernel's
    if (status >= 500) ((req as { log?: Logger }).log ?? options.logger)?.error({ err: error }, 'request failed');
    const uri = req.kernel?.uri;
    const token = req.kernel?.token;
    renderError(error, req, res, {
      debug: options.debug,
      token,
      tokenLink: token !== undefined && uri !== undefined ? `${uri.schemeAndHttpHost}${uri.baseUrl}/_profiler/${token}` : undefined,
    });
  };
}
