import type { Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import { type ApiPaths, requestBase } from '../serializer/ApiContext';
import type { StoredItem } from '../state/types';
import '../http/ApiRequestState';
import { type CacheHeaders, isCacheable, resolveCacheHeaders, type ResolvedCacheHeaders } from './cacheHeaders';
import { changedIris, shownIris } from './cacheTags';
import type { Purger } from './Purger';

/** The header API Platform tags cacheable responses with when no purger says otherwise (Cloudflare's). */
export const CACHE_TAGS_HEADER = 'Cache-Tags';

const watched = new WeakSet<ServerResponse>();

/**
 * The API's HTTP cache (API Platform's `AddHeadersProcessor`, `AddTagsProcessor` and
 * `PurgeHttpCacheListener`), one per `apiRoutes()`:
 * - a successful GET or HEAD (and its 304) gets `Cache-Control` and `Vary` from the operation's
 *   `cacheHeaders` over the API's (unless the controller set a `Cache-Control` of its own), and,
 *   when a shared cache may keep it, the IRIs it contains: `Cache-Tags: /api/books/1,/api/authors/2,/api/books`,
 *   or the purger's headers (`xkey: …`) when there is one;
 * - a successful write purges the IRIs it changed through the purger before the answer is sent.
 */
export class HttpCache {
  private readonly resolved = new WeakMap<ResolvedOperation, ResolvedCacheHeaders>();
  private readonly apiDefault: ResolvedCacheHeaders;

  /**
   * @param defaults - the API-wide `cacheHeaders` (API Platform's `defaults.cache_headers`), validated
   * @param purger - purges a shared cache after writes; undefined: tags go in `Cache-Tags`, nothing is purged
   */
  constructor(
    private readonly defaults: CacheHeaders,
    private readonly purger: Purger | undefined,
    private readonly paths: ApiPaths,
  ) {
    this.apiDefault = resolveCacheHeaders(undefined, defaults);
  }

  /**
   * Wraps a route's `provider` option so that its responses get the cache headers: they are
   * written when the response's head is (after the controller, before the firewall's `no-store`
   * for an authenticated request, which wins).
   */
  provider<T>(provide: (req: Request) => T): (req: Request) => T {
    return (req: Request): T => {
      if (req.res !== undefined) this.watch(req, req.res);
      return provide(req);
    };
  }

  private watch(req: Request, res: Response): void {
    if (watched.has(res) || res.headersSent) return;
    watched.add(res);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]): ServerResponse => {
      if (!res.headersSent) this.addHeaders(req, res, typeof args[0] === 'number' ? args[0] : res.statusCode);
      return writeHead(...args);
    }) as Response['writeHead'];
  }

  private headersOf(operation: ResolvedOperation | undefined): ResolvedCacheHeaders {
    if (operation?.cacheHeaders === undefined) return this.apiDefault;
    let resolved = this.resolved.get(operation);
    if (resolved === undefined) {
      resolved = resolveCacheHeaders(operation.cacheHeaders, this.defaults);
      this.resolved.set(operation, resolved);
    }
    return resolved;
  }

  private addHeaders(req: Request, res: Response, status: number): void {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || ((status < 200 || status > 299) && status !== 304)) return;
    const state = req.api;
    const headers = this.headersOf(state?.operation);
    if (!res.hasHeader('Cache-Control')) res.setHeader('Cache-Control', headers.cacheControl);
    for (const name of headers.vary) res.vary(name);
    const resource = state?.resource;
    const items = state?.item !== undefined ? [state.item] : state?.items;
    if (resource === undefined || items === undefined) return;
    if (!isCacheable(status, String(res.getHeader('Cache-Control')), res.hasHeader('ETag'))) return;
    const collection = state?.operation?.kind === 'GetCollection';
    const iris = shownIris(resource, items, collection, this.paths, requestBase(req).baseUrl);
    if (iris.length === 0) return;
    const tags = this.purger?.getResponseHeaders(iris) ?? { [CACHE_TAGS_HEADER]: iris.join(',') };
    for (const [name, value] of Object.entries(tags)) res.setHeader(name, value);
  }

  /**
   * Purges what a write changed (see `changedIris`), when the API has a purger. A purge that
   * fails is logged (`req.log`, else a process warning): the write is kept and answered, and
   * the cache may serve the old version until it expires.
   * @param before - the item before an update or a delete; null for a create
   * @param after - the item after a create or an update; null for a delete
   */
  async invalidate(
    req: Request, resource: Resource, before: StoredItem | null, after: StoredItem | null,
  ): Promise<void> {
    if (this.purger === undefined) return;
    const iris = changedIris(resource, before, after, this.paths, requestBase(req).baseUrl);
    try {
      await this.purger.purge(iris);
    } catch (error) {
      const log = (req as { log?: Logger }).log; // the profiler's or pino-http's (profiler/requestLogger.ts)
      const message = 'http cache: purge failed; the cache may serve stale responses';
      if (log !== undefined) log.error({ err: error, iris }, message);
      else process.emitWarning(`http cache: purge of ${iris.join(' ')} failed: ${(error as Error).message}`);
    }
  }
}
