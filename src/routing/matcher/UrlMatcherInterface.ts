import type { RequestContext } from '../RequestContext';

/** What a matcher needs of the request: method, host, scheme (and path info for conditions). */
export type MatchContext = Pick<RequestContext, 'method' | 'host' | 'scheme'> & { pathInfo?: string };

/** The outcome of a successful match. */
export interface MatchResult {
  /** The matched route's name. */
  route: string;
  /** Route defaults overlaid with the values captured from path and host (raw, not decoded twice). */
  params: Record<string, string | null>;
  /**
   * Set when the request must be redirected (trailing-slash or scheme mismatch on GET/HEAD):
   * the raw path info to redirect to, and the scheme when it changes. Symfony's
   * `RedirectableUrlMatcher` answers these with `RedirectController::urlRedirectAction` (301).
   */
  redirect?: { pathInfo: string; scheme?: string };
}

/** What `match` would throw, returned instead by `tryMatch`. */
export type MatchFailure =
  | { readonly failure: 'not-found'; readonly pathInfo: string; readonly noConfiguration?: boolean }
  | { readonly failure: 'method-not-allowed'; readonly allowedMethods: readonly string[] };

/**
 * Matches a path info against a routing table (Symfony `UrlMatcherInterface`).
 */
export interface UrlMatcherInterface {
  /**
   * @param pathInfo - the raw path info (percent-encoded as sent, no query string)
   * @param context - method, host and scheme of the request
   * @returns the match
   * @throws ResourceNotFoundError when no route matches the path
   * @throws NoConfigurationError when the path is `/` and the table has nothing for it
   * @throws MethodNotAllowedError when routes match the path but none accepts the method
   */
  match(pathInfo: string, context: MatchContext): MatchResult;
}
