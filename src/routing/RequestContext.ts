import type { Request } from 'express';

/** The fields of a {@link RequestContext}. */
export interface RequestContextInit {
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
  /** Parameters the generator uses as defaults for every URL (`_locale`, …). @default {} */
  parameters: Record<string, unknown>;
}

/**
 * What the matcher and the generator know of the current request (Symfony
 * `Symfony\Component\Routing\RequestContext`). Build one per request with
 * {@link createRequestContext}, {@link RequestContext.fromUri} or {@link RequestContext.fromRequest};
 * the matcher does not keep it. Its parameters (`_locale`, …) fill in what a `generate` call
 * leaves out, as Symfony's do.
 */
export class RequestContext implements RequestContextInit {
  baseUrl: string;
  method: string;
  host: string;
  scheme: string;
  httpPort: number;
  httpsPort: number;
  pathInfo: string;
  queryString: string;
  parameters: Record<string, unknown>;

  /** @param init - the fields to set; the rest take Symfony's defaults */
  constructor(init: Partial<RequestContextInit> = {}) {
    this.baseUrl = init.baseUrl ?? '';
    this.method = (init.method ?? 'GET').toUpperCase();
    this.host = (init.host ?? 'localhost').toLowerCase();
    this.scheme = (init.scheme ?? 'http').toLowerCase();
    this.httpPort = init.httpPort ?? 80;
    this.httpsPort = init.httpsPort ?? 443;
    this.pathInfo = init.pathInfo ?? '/';
    this.queryString = init.queryString ?? '';
    this.parameters = { ...(init.parameters ?? {}) };
  }

  /**
   * Symfony `RequestContext::fromUri`: a context for generating URLs outside a request (a
   * command, a worker). The URI's scheme and host replace the fallbacks; its port becomes the
   * http or https port (by its scheme); its path, without trailing slashes, the base URL.
   * @param uri - e.g. `https://example.com:8443/app/`
   * @param host - host when the URI has none @default 'localhost'
   * @param scheme - scheme when the URI has none @default 'http'
   * @param httpPort - http port when the URI does not set it @default 80
   * @param httpsPort - https port when the URI does not set it @default 443
   */
  static fromUri(uri: string, host = 'localhost', scheme = 'http', httpPort = 80, httpsPort = 443): RequestContext {
    const m = /^(?:([a-zA-Z][a-zA-Z0-9+.-]*):)?(?:\/\/([^/?#:]*)(?::(\d+))?)?([^?#]*)/.exec(uri) as RegExpExecArray;
    if (m[1] !== undefined) scheme = m[1];
    if (m[2] !== undefined && m[2] !== '') host = m[2];
    if (m[3] !== undefined) {
      if (scheme.toLowerCase() === 'http') httpPort = Number(m[3]);
      else if (scheme.toLowerCase() === 'https') httpsPort = Number(m[3]);
    }
    return new RequestContext({ baseUrl: m[4].replace(/\/+$/, ''), host, scheme, httpPort, httpsPort });
  }

  /**
   * Symfony `RequestContext::fromRequest`, for an Express request: method, base URL, path info,
   * query string, host (`req.hostname`), scheme (`req.protocol`, so `trust proxy` applies) and
   * the port of the Host header as the port of that scheme.
   * @param req - the request
   */
  static fromRequest(
    req: Pick<Request, 'method' | 'baseUrl' | 'path' | 'originalUrl' | 'hostname' | 'protocol' | 'get'>,
  ): RequestContext {
    const scheme = req.protocol;
    const hostHeader = req.get('host') ?? '';
    const portMatch = /:(\d+)$/.exec(hostHeader);
    const port = portMatch === null ? undefined : Number(portMatch[1]);
    const q = req.originalUrl.indexOf('?');
    return new RequestContext({
      method: req.method,
      baseUrl: req.baseUrl,
      pathInfo: req.path,
      queryString: q === -1 ? '' : req.originalUrl.slice(q + 1),
      host: req.hostname,
      scheme,
      httpPort: scheme === 'http' && port !== undefined ? port : 80,
      httpsPort: scheme === 'https' && port !== undefined ? port : 443,
    });
  }

  /** All parameters (Symfony `getParameters`). */
  getParameters(): Record<string, unknown> {
    return this.parameters;
  }

  /**
   * Replaces all parameters (Symfony `setParameters`).
   * @returns this context
   */
  setParameters(parameters: Record<string, unknown>): this {
    this.parameters = { ...parameters };
    return this;
  }

  /** A parameter's value, or undefined (Symfony `getParameter`, which gives null). */
  getParameter(name: string): unknown {
    return this.parameters[name];
  }

  /** True when the parameter is set (Symfony `hasParameter`). */
  hasParameter(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.parameters, name);
  }

  /**
   * Sets a parameter (Symfony `setParameter`); the generator uses `_locale` to pick a localized
   * route and every parameter as a default value.
   * @returns this context
   */
  setParameter(name: string, value: unknown): this {
    this.parameters[name] = value;
    return this;
  }
}

/**
 * @param init - the fields to set; the rest take Symfony's defaults
 * @returns a complete context
 */
export function createRequestContext(init: Partial<RequestContextInit> = {}): RequestContext {
  return new RequestContext(init);
}
