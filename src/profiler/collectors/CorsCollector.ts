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

/**
 * The CORS decision: origin, preflight, which rule applied, whether it was allowed, and the
 * headers sent. Reads `req.cors`; "not enabled" without the CORS layer.
 */
export class CorsCollector implements DataCollector<CorsData> {
  readonly name = 'cors';
  readonly label = 'CORS';

  collect(req: Request, res: Response): CorsData {
    return fromLayer<CorsDecision, Omit<Extract<CorsData, { enabled: true }>, 'enabled'>>(req, 'cors', (c) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.getHeaders())) {
        if (v !== undefined && (k.startsWith('access-control-') || k === 'vary')) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      }
      return { origin: c.origin, allowed: c.allowed, preflight: c.preflight, rule: c.rule, headers };
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
