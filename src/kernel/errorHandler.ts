import type { ErrorRequestHandler, NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { renderError, type ScopedErrorRenderer, statusOf } from '../http/ErrorRenderer';
import type { ErrorTemplates } from '../http/ErrorTemplates';
import type { TrustFunction } from '../http/RequestUri';
import type { ErrorHook } from './options';
import '../profiler/Stopwatch';

/** Options of {@link errorHandler}. */
export interface ErrorLayerOptions {
  /** Debug mode: the exception page and `X-Debug-*` headers, for the clients `debugClients` allows. */
  debug: boolean;
  /**
   * Which client IPs may see debug output (the profiler's `allowedIps`); the others get the
   * non-debug page even in debug mode. @default everyone
   */
  debugClients?: TrustFunction;
  logger?: Logger;
  /** Told of each error this layer renders; see {@link KernelOptions.onError}. */
  onError?: ErrorHook;
  /** `'next'` hands errors to the host app's error middleware instead of rendering them. @default 'render' */
  errors?: 'render' | 'next';
  /** The application's own error pages. */
  templates?: ErrorTemplates;
  /** Route error renderers for the unmatched paths under their prefix (`scopedErrorRenderers`). */
  scoped?: readonly ScopedErrorRenderer[];
}

/** The request's own logger when it has one (the profiler's Logs panel reads it), else the kernel's. */
function logOf(req: Request, logger: Logger | undefined): Logger | undefined {
  return (req as { log?: Logger }).log ?? logger;
}

/**
 * Whether the client may see debug output. Its IP is the first untrusted hop; for a request
 * whose Host was invalid (no URI), the direct peer's address.
 */
export function isDebugClient(req: Request, allowed: TrustFunction): boolean {
  const ip = req.kernel?.uri?.clientIp ?? (req.socket?.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.)/, '');
  return ip !== '' && allowed(ip, 0);
}

/** Calls the hook; what it throws or rejects with is logged, never passed on to the request. */
function report(hook: ErrorHook, error: unknown, req: Request, logger: Logger | undefined): void {
  const failed = (hookError: unknown): void => {
    const log = logOf(req, logger);
    if (log !== undefined) log.error({ err: hookError }, 'onError hook failed');
    else {
      const detail = String((hookError as Error)?.stack ?? hookError);
      process.emitWarning(`express-kernel: the onError hook failed: ${detail}`);
    }
  };
  try {
    const out = hook(error, req);
    if (out instanceof Promise) out.catch(failed);
  } catch (hookError) {
    failed(hookError);
  }
}

/**
 * The error-rendering layer: records the error for the profiler, logs 5xx, reports the error to
 * `onError`, and renders the response with {@link renderError} (or, with `errors: 'next'`, passes
 * it to the host app). A client's mistake (4xx) never becomes a 500. Debug output goes only to
 * the clients `debugClients` allows.
 */
export function errorHandler(options: ErrorLayerOptions): ErrorRequestHandler {
  const { debug, debugClients = () => true, logger, onError, errors = 'render', templates, scoped } = options;
  return function kernelError(err: unknown, req: Request, res: Response, next: NextFunction) {
    if (res.headersSent) return next(err);
    const error = err;
    if (req.kernel !== undefined) req.kernel.error = error;
    if (errors === 'next') return next(error);
    const status = statusOf(error);
    if (status >= 500) logOf(req, logger)?.error({ err: error }, 'request failed');
    if (onError !== undefined) report(onError, error, req, logger);
    const uri = req.kernel?.uri;
    const token = req.kernel?.token;
    const stopwatch = req.stopwatch;
    const shown = {
      timer: stopwatch !== undefined && stopwatch.enabled ? stopwatch : undefined,
      debug: debug && isDebugClient(req, debugClients),
      token,
      scoped,
      tokenLink: token !== undefined && uri !== undefined
        ? `${uri.schemeAndHttpHost}${uri.baseUrl}/_profiler/${token}`
        : undefined,
    };
    try {
      renderError(error, req, res, { ...shown, templates });
    } catch (pageError) {
      // the application's error template failed: say so, and answer with the kernel's own page
      logOf(req, logger)?.error({ err: pageError }, 'error template failed');
      renderError(error, req, res, shown);
    }
  };
}
