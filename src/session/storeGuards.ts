import type { Request, Response } from 'express';
import type { Store } from 'express-session';
import { storageUnavailable, StorageUnavailableError } from '../storage/StorageUnavailableError';
import { existingSession } from './previousSession';

/** Headers of the response that was to be sent, dropped from the 503 that replaces it. */
const REPRESENTATION_HEADERS = ['set-cookie', 'content-type', 'content-length', 'content-encoding', 'content-language',
  'content-disposition', 'etag', 'last-modified', 'location'];

type Callback = (err?: unknown, value?: unknown) => void;

/**
 * Gives each of an express-session store's operations (`get`, `set`, `touch`, `destroy`) a
 * deadline: past `timeoutMs`, or when it fails, its callback gets a `StorageUnavailableError`
 * (`Session storage is unavailable.`); a late answer is ignored. The store is changed in place.
 * @param store - the store
 * @param timeoutMs - the deadline in milliseconds
 * @returns the store
 */
export function withStoreDeadlines(store: Store, timeoutMs: number): Store {
  for (const method of ['get', 'set', 'touch', 'destroy'] as const) {
    const original = (store as unknown as Record<string, ((...args: unknown[]) => void) | undefined>)[method];
    if (typeof original !== 'function') continue;
    Object.defineProperty(store, method, {
      configurable: true,
      writable: true,
      value(this: Store, ...args: unknown[]) {
        const cb = typeof args[args.length - 1] === 'function' ? (args.pop() as Callback) : undefined;
        let settled = false;
        const timer = setTimeout(() => {
          if (settled) return;
          settled = true;
          cb?.(new StorageUnavailableError('Session', `${method} timed out after ${timeoutMs} ms`));
        }, timeoutMs);
        original.call(this, ...args, (err?: unknown, value?: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const failed = err !== undefined && err !== null && (err as { code?: unknown }).code !== 'ENOENT';
          if (failed) cb?.(storageUnavailable('Session', err));
          else cb?.(err, value);
        });
      },
    });
  }
  return store;
}

/** The session as a string that changes when its id or data (cookie left out) changes. */
function fingerprint(session: object & { id?: string }): string {
  return `${session.id}\n${JSON.stringify(session, (k, v: unknown) => (k === 'cookie' ? undefined : v))}`;
}

/**
 * Saves a changed session before the response is sent, so that a response never carries a cookie
 * for a session that was not saved (express-session saves while the response is already on its
 * way, and only logs a failure). Call {@link SaveGuard.loaded} once the request's session is
 * loaded, then {@link SaveGuard.install} after express-session has wrapped `res.end`.
 */
export class SaveGuard {
  private readonly before = new WeakMap<Request, string>();

  /**
   * @param onFailure - told when the save failed (the response is then a 503 problem details,
   *   with `Retry-After` and no `Set-Cookie`)
   */
  constructor(private readonly onFailure: (req: Request, error: unknown) => void) {}

  /** Remembers the session as loaded (or just started). */
  loaded(req: Request): void {
    const session = existingSession(req);
    if (session !== undefined) this.before.set(req, fingerprint(session));
  }

  /** Wraps `res.end`: a changed session is saved first; when that fails, the answer is a 503. */
  install(req: Request, res: Response): void {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let done = false;
    (res as unknown as { end: (...args: unknown[]) => Response }).end = (...args: unknown[]) => {
      const session = existingSession(req);
      if (done || session === undefined || res.headersSent || this.before.get(req) === fingerprint(session)) {
        return end.apply(res, args);
      }
      done = true;
      session.save((err?: unknown) => {
        if (err === undefined || err === null) return void end.apply(res, args);
        const error = storageUnavailable('Session', err);
        this.onFailure(req, error);
        delete (req as { session?: unknown }).session;
        for (const name of REPRESENTATION_HEADERS) res.removeHeader(name);
        const problem = { type: 'about:blank', title: 'Service Unavailable', status: 503, detail: error.message };
        const body = JSON.stringify(problem);
        res.statusCode = 503;
        res.setHeader('Content-Type', 'application/problem+json');
        res.setHeader('Cache-Control', 'no-cache, private');
        for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
        res.setHeader('Content-Length', Buffer.byteLength(body));
        end.call(res, req.method === 'HEAD' ? undefined : body);
      });
      return res;
    };
  }
}
