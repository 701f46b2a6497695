/**
 * Purges responses from a shared cache (API Platform's `PurgerInterface`): the API calls
 * {@link Purger.purge} after each write with the IRIs the write changed, and asks
 * {@link Purger.getResponseHeaders} for the headers that tag a cacheable response with the IRIs
 * it contains (Varnish's `xkey`, a CDN's `Cache-Tags` or `Surrogate-Key`).
 */
export interface Purger {
  /**
   * Purges every cached response tagged with one of `iris`. The API awaits it after the write and
   * before answering, so the client's next read misses the cache.
   * @param iris - absolute paths such as `/api/books/3` and `/api/books` (the collection), no duplicates
   * @throws PurgeFailedError when the cache cannot be reached or refuses the purge (the API logs
   *   it; the write is kept and answered)
   */
  purge(iris: readonly string[]): Promise<void>;
  /**
   * The response headers that tag a response with `iris`, e.g. `{ xkey: '/api/books/3 /api/books' }`.
   * @param iris - what the response contains, in the order it shows them, the collection's IRI last
   */
  getResponseHeaders(iris: readonly string[]): Readonly<Record<string, string>>;
}

/** A purge that did not go through: the cache may still serve what the write changed. */
export class PurgeFailedError extends Error {
  override readonly name = 'PurgeFailedError';
  /**
   * @param url - the cache's URL the purge was sent to
   * @param keys - the header value that was sent
   */
  constructor(message: string, readonly url: string, readonly keys: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Whether `value` is a {@link PurgeFailedError}, also across realms. */
export function isPurgeFailedError(value: unknown): value is PurgeFailedError {
  return value instanceof Error && value.name === 'PurgeFailedError';
}
