import type { Logger } from 'pino';
import type { RequestUri } from '../http/RequestUri';
import { RequestSlots } from './requestSlots';

/**
 * What the kernel knows of a request, kept on `req.kernel` (Symfony's request attributes:
 * `_route`, `_route_params`, the profiler token).
 */
export class KernelRequestState extends RequestSlots {
  /** The URI parts; undefined when the Host header was invalid (then `uriError` is set). */
  uri?: RequestUri = undefined;
  uriError?: unknown = undefined;
  /** The effective method (POST with `X-HTTP-Method-Override` becomes the override). */
  method: string;
  /** When the kernel took the request, `performance.now()` in ms. */
  startedAt: number;
  /** The matched route name (`_route`). */
  route?: string = undefined;
  /** The matched route's definition (its options carry per-route access checks). */
  routeDefinition?: import('../routing/Route').Route = undefined;
  /** The matched route's parameters (`_route_params`). */
  routeParams?: Record<string, string | null> = undefined;
  /** The error being rendered, if any. */
  error?: unknown = undefined;
  /** The profiler token, when the request is profiled. */
  token?: string = undefined;
  /** `req.log` once made or assigned. */
  log?: Logger = undefined;
  /** The records of the profiler's `req.log`, once it was made: the Logs panel's. */
  logBuffer?: import('../profiler/requestLogger').LogBuffer = undefined;
  /** Makes `req.log` on first use (the profiler's, on profiled requests). */
  makeLog?: (req: import('express').Request) => Logger = undefined;
  /**
   * Timeline marks: the layers', the kernel's phases and `req.stopwatch` spans, start and end in
   * ms relative to `startedAt` (written only on profiled requests).
   */
  timeline: import('../profiler/Stopwatch').StopwatchEvent[] = [];

  /**
   * @param method - the effective method
   * @param startedAt - `performance.now()` when the kernel took the request (ms)
   */
  constructor(method: string, startedAt: number) {
    super();
    this.method = method;
    this.startedAt = startedAt;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the kernel on every request it handles; undefined outside a kernel. */
    kernel?: KernelRequestState;
  }
}
