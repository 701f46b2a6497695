import type { Request, Response } from 'express';
import type { DataCollector } from './DataCollector';

/** Header names whose values never reach a profile. */
export const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Field names that look like secrets. */
export const SECRET_FIELD = /pass(word|wd)?|secret|token|api[-_]?key|credential|session[-_]?id|^sid$/i;

/** Replaces secret values by `******` (headers by name, fields by {@link SECRET_FIELD}). */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_FIELD.test(k) ? '******' : redact(v, depth + 1);
  }
  return out;
}

function headersOf(h: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k] = REDACTED_HEADERS.has(k.toLowerCase()) ? '******' : Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** Data of the request/response panel. */
export interface RequestData {
  method: string;
  url: string;
  pathInfo: string;
  route?: string;
  routeParams: Record<string, string | null>;
  query: unknown;
  requestHeaders: Record<string, string>;
  body: unknown;
  statusCode: number;
  responseHeaders: Record<string, string>;
}

/** Request and response: method, URL, route, query, headers, body, status (Symfony `RequestDataCollector`). */
export class RequestCollector implements DataCollector<RequestData> {
  readonly name = 'request';
  collect(req: Request, res: Response): RequestData {
    const uri = req.kernel.uri;
    return {
      method: req.kernel.method,
      url: uri === undefined ? req.originalUrl : `${uri.schemeAndHttpHost}${uri.baseUrl}${uri.pathInfo}${uri.queryString ? '?' + uri.queryString : ''}`,
      pathInfo: uri?.pathInfo ?? req.originalUrl,
      route: req.kernel.route,
      routeParams: req.kernel.routeParams ?? {},
      query: redact(req.query),
      requestHeaders: headersOf(req.headers),
      body: redact((req as { body?: unknown }).body ?? null),
      statusCode: res.statusCode,
      responseHeaders: headersOf(res.getHeaders() as Record<string, string | string[] | number | undefined>),
    };
  }
}
