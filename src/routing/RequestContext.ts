/**
 * What the matcher and the generator know of the current request (Symfony `RequestContext`).
 * Build one per request with {@link createRequestContext}; the matcher does not keep it.
 */
export interface RequestContext {
  /** The base URL (mount path or script name), raw, without trailing slash. @example '/app' */
  baseUrl: string;
  /** The request method, uppercase. */
  method: string;
  /** The host, lowercase, without port. */
  host: string;
  /** `http` or `https`. */
  scheme: string;
  /** Port used for http URLs. @default 80 */
  httpPort: number;
  /** Port used for https URLs. @default 443 */
  httpsPort: number;
  /** The raw path info (used by relative URL generation and conditions). */
  pathInfo: string;
  /** The raw query string, without `?`. */
  queryString: string;
}

/**
 * @param init - the fields to set; the rest take Symfony's defaults
 * @returns a complete context
 */
export function createRequestContext(init: Partial<RequestContext> = {}): RequestContext {
  return {
    baseUrl: init.baseUrl ?? '',
    method: (init.method ?? 'GET').toUpperCase(),
    host: (init.host ?? 'localhost').toLowerCase(),
    scheme: (init.scheme ?? 'http').toLowerCase(),
    httpPort: init.httpPort ?? 80,
    httpsPort: init.httpsPort ?? 443,
    pathInfo: init.pathInfo ?? '/',
    queryString: init.queryString ?? '',
  };
}
