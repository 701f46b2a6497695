import type { ServerResponse } from 'node:http';

/**
 * The `Cache-Control` of every response to an authenticated request. `no-store` (RFC 9111
 * §5.2.2.5) keeps the page out of every cache, the browser's own included, so after a logout
 * the Back button asks the server again (and gets the login page) instead of showing the last
 * admin page from the cache; `private` says the same to code that only looks for it.
 * Symfony 5.4's `AbstractSessionListener` gives a response that used the session
 * `max-age=0, must-revalidate, private` (and `Expires`), which browsers still show on Back.
 */
export const AUTHENTICATED_CACHE_CONTROL = 'no-store, private';

const hooked = new WeakSet<ServerResponse>();

/**
 * Makes `res` carry {@link AUTHENTICATED_CACHE_CONTROL}: set when its headers are written
 * (`writeHead`, which Node also calls for an implicit head), so it replaces whatever the
 * controller, an error page or a redirect set before. Idempotent; nothing happens once the
 * headers are sent.
 * @param res - the response of a request the firewall authenticated
 */
export function keepOutOfCaches(res: ServerResponse): void {
  if (hooked.has(res) || res.headersSent) return;
  hooked.add(res);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = function writeHeadNoStore(this: ServerResponse, ...args: unknown[]): ServerResponse {
    if (!this.headersSent) this.setHeader('Cache-Control', AUTHENTICATED_CACHE_CONTROL);
    // headers given to writeHead itself (an object) would override ours: a copy without theirs
    const copy = args.map((a) => (typeof a !== 'object' || a === null || Array.isArray(a) ? a
      : Object.fromEntries(Object.entries(a).filter(([name]) => name.toLowerCase() !== 'cache-control'))));
    return writeHead(...copy);
  };
}
