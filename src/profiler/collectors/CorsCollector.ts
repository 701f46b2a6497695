import type { Request, Response } from 'express';
import { CollectorSummary, DataCollector, NOT_ENABLED } from './DataCollector';
import { fromLayer, NotEnabled } from './layerData';

/** The CORS layer's `req.cors`, as far as the profiler reads it. */
interface CorsDecision {
  origin: string | null;
  allowed: boolean;
  preflight: boolean;
  rule: string | null;
}

/** Data of the CORS panel. */
export type CorsData = NotEnabled | {
  enabled: true;
  /** The `Origin` header, or null for a same-origin request. */
  origin: string | null;
  allowed: boolean;
  preflight: boolean;
  /** The `paths` rule that applied, or null. */
  rule: string | null;
  /** The `Access-Control-*` and `Vary` headers of the response. */
  headers: Record<string, string>;
};

/** The CORS response headers (Fetch standard §3.2.3 and Private Network Access), and `Vary`. */
const CORS_RESPONSE_HEADERS = [
  'access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods',
  'access-control-allow-headers', 'access-control-max-age', 'access-control-expose-headers',
  'access-control-allow-private-network', 'vary',
] as const;

/**
 * The CORS decision: origin, preflight, which rule applied, whether it was allowed, and the
 * headers sent. Reads `req.cors`; "not enabled" without the CORS layer.
 */
export class CorsCollector implements DataCollector<CorsData> {
  readonly name = 'cors';
  readonly label = 'CORS';

  collect(req: Request, res: Response): CorsData {
    return fromLayer<CorsDecision, Extract<CorsData, { enabled: true }>>(req, 'cors', (c) => {
      const headers: Record<string, string> = {};
      for (const name of CORS_RESPONSE_HEADERS) {
        const v = res.getHeader(name);
        if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      return { enabled: true, origin: c.origin, allowed: c.allowed, preflight: c.preflight, rule: c.rule, headers };
    });
  }

  /** `same origin`, `allowed`, `preflight allowed`, or `denied` in red. */
  summary(data: CorsData): CollectorSummary {
    if (!data.enabled) return NOT_ENABLED;
    if (data.origin === null) return { text: 'same origin', status: 'none' };
    const what = data.preflight ? 'preflight ' : '';
    return data.allowed ? { text: `${what}allowed`, status: 'success' } : { text: `${what}denied`, status: 'error' };
  }
}
