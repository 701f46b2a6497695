import type { Request, Response } from 'express';
import { redactUrl } from '../redaction';
import type { CollectorSummary, DataCollector } from './DataCollector';

/** Data of the routing panel: the match, and what the matcher needs to replay the request. */
export interface RouterData {
  /** The matched route's name; undefined on a 404/405. */
  route?: string;
  routeParams: Record<string, string | null>;
  method: string;
  host: string;
  scheme: string;
  /** The raw path info the matcher saw. */
  pathInfo: string;
  /** The redirect's target (`Location`, secret query values redacted) for a trailing-slash or scheme redirect. */
  redirect?: string;
}

/**
 * Matched route and parameters, and the request's method, host, scheme and path info, so the
 * routing panel can replay the request through the traceable matcher and show its per-route log
 * (Symfony `RouterDataCollector` + `RouterController`).
 */
export class RouterCollector implements DataCollector<RouterData> {
  readonly name = 'router';
  readonly label = 'Routing';

  collect(req: Request, res: Response): RouterData {
    const uri = req.kernel!.uri;
    const location = res.getHeader('location');
    return {
      route: req.kernel!.route,
      routeParams: { ...(req.kernel!.routeParams ?? {}) },
      method: req.kernel!.method,
      host: uri?.host ?? '',
      scheme: uri?.scheme ?? 'http',
      pathInfo: uri?.pathInfo ?? '/',
      redirect: res.statusCode >= 300 && res.statusCode < 400 && location !== undefined
        ? redactUrl(String(location))
        : undefined,
    };
  }

  /** The matched route, or `no route` in red. */
  summary(data: RouterData): CollectorSummary {
    return data.route === undefined ? { text: 'no route', status: 'error' } : { text: data.route, status: 'none' };
  }
}
