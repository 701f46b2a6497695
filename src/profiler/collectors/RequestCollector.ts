import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { redact, redactBody, redactCookieHeader, redactHeaders, redactSetCookie, redactUrl } from '../redaction';
import { CollectorSummary, DataCollector, statusOfCode } from './DataCollector';

/** Data of the request/response panel. Every secret is already redacted. */
export interface RequestData {
  method: string;
  /** Absolute URL; secret-looking query values redacted. */
  url: string;
  pathInfo: string;
  route?: string;
  routeParams: Record<string, string | null>;
  /** The parsed query (`req.query`), secret-looking fields redacted. */
  query: unknown;
  /** Request headers; `Authorization`, `Cookie` and secret-looking ones redacted. */
  requestHeaders: Record<string, string>;
  /** The request's cookie names, values redacted. */
  cookies: Record<string, string>;
  /** The parsed body (`req.body`, when a route handler parsed it), secret-looking fields redacted; null when none. */
  body: unknown;
  statusCode: number;
  statusText: string;
  /** Response headers; `Set-Cookie` values redacted (attributes kept). */
  responseHeaders: Record<string, string>;
  /** The cookies the response sets, values redacted: `name=******; Path=/; HttpOnly`. */
  responseCookies: string[];
}

/** The absolute URL of a request, query included, secret-looking query values redacted. */
export function requestUrl(req: Request): string {
  const uri = req.kernel!.uri;
  const url = uri === undefined
    ? req.originalUrl
    : `${uri.schemeAndHttpHost}${uri.baseUrl}${uri.pathInfo}${uri.queryString ? '?' + uri.queryString : ''}`;
  return redactUrl(url);
}

/** Request and response: method, URL, route, query, headers, cookies, body, status (Symfony `RequestDataCollector`). */
export class RequestCollector implements DataCollector<RequestData> {
  readonly name = 'request';
  readonly label = 'Request / Response';

  collect(req: Request, res: Response): RequestData {
    const setCookie = res.getHeader('set-cookie');
    const cookies = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [String(setCookie)];
    return {
      method: req.kernel!.method,
      url: requestUrl(req),
      pathInfo: req.kernel!.uri?.pathInfo ?? req.originalUrl,
      route: req.kernel!.route,
      routeParams: { ...(req.kernel!.routeParams ?? {}) },
      query: redact(req.query ?? {}),
      requestHeaders: redactHeaders(req.headers),
      cookies: redactCookieHeader(req.headers.cookie),
      body: redactBody((req as { body?: unknown }).body),
      statusCode: res.statusCode,
      statusText: res.statusMessage || STATUS_CODES[res.statusCode] || '',
      responseHeaders: redactHeaders(res.getHeaders()),
      responseCookies: cookies.map(redactSetCookie),
    };
  }

  /** `200 @ book_list`, or the status alone when no route matched. */
  summary(data: RequestData): CollectorSummary {
    return {
      text: data.route === undefined ? String(data.statusCode) : `${data.statusCode} @ ${data.route}`,
      status: statusOfCode(data.statusCode),
    };
  }
}
