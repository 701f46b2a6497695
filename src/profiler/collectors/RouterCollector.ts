import type { Request } from 'express';
import type { DataCollector } from './DataCollector';

/** Data of the routing panel: what the matcher needs to replay the request. */
export interface RouterData {
  route?: string;
  routeParams: Record<string, string | null>;
  method: string;
  host: string;
  scheme: string;
  pathInfo: string;
  redirect?: string;
}

/**
 * Matched route and parameters, and the request's method, host, scheme and path info so the
 * routing panel can show the traceable matcher's per-route log (Symfony `RouterDataCollector`).
 */
export class RouterCollector implements DataCollector<RouterData> {
  readonly name = 'router';
  collect(req: Request, res: import('express').Response): RouterData {
    const uri = req.kernel.uri;
    const location = res.getHeader('location');
    return {
      route: req.kernel.route,
      routeParams: req.kernel.routeParams ?? {},
      method: req.kernel.method,
      host: uri?.host ?? '',
      scheme: uri?.scheme ?? 'http',
      pathInfo: uri?.pathInfo ?? '/',
      redirect: res.statusCode >= 300 && res.statusCode < 400 && location !== undefined ? String(location) : undefined,
    };
  }
}
