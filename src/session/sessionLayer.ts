import type { NextFunction, Request, RequestHandler, Response } from 'express';
import session, { Store } from 'express-session';
import type { RedisStore } from 'connect-redis';
import { KernelConfigError } from '../config/KernelConfigError';
import { loadPeer } from '../storage/optionalPeer';
import { openSqlite } from '../storage/sqlite';
import { ResolvedSessionOptions, resolveSessionOptions, SessionOptions } from './options';
import { describeSession, SessionInfo, SessionStoreName } from './sessionInfo';
import {
  existingSession, installSessionAccessors, SESSION_PENDING, SESSION_STATE, type SessionHandle, type SessionRequest,
} from './previousSession';
import { parse as parseCookie } from 'cookie';
import { SqliteSessionStore } from './SqliteSessionStore';
import { defineRequestSlot } from '../http/requestSlots';
import { SaveGuard, withStoreDeadlines } from './storeGuards';

declare module 'express-serve-static-core' {
  interface Request {
    /** True when the session store failed or is down for this request; `req.session` is then absent. */
    sessionUnavailable?: boolean;
    /** The session as the profiler shows it (ID hashed, secrets redacted), computed when read. */
    sessionInfo?: SessionInfo;
  }
}
defineRequestSlot('sessionUnavailable');

/** The layer {@link sessionLayer} returns: a request handler plus its store. */
export interface SessionLayer extends RequestHandler {
  /** The express-session store. */
  readonly store: Store;
  readonly storeName: SessionStoreName;
  /** Whether the store can serve requests now (SQLite open, Redis client ready). */
  isAvailable(): boolean;
  /** Stops pruning and closes the SQLite database the layer opened; a Redis client is the caller's to close. */
  close(): Promise<void>;
}

/** Whether a `Cookie` header carries cookie `name` (RFC 6265 §5.4 syntax, parsed by `cookie`). */
function hasCookie(header: string | undefined, name: string): boolean {
  if (header === undefined || !header.includes(name)) return false;
  return parseCookie(header)[name] !== undefined;
}

interface OpenStore {
  store: Store;
  available: () => boolean;
  close: () => void;
}

function openStore(o: ResolvedSessionOptions): OpenStore {
  if (o.store === 'memory') return { store: new session.MemoryStore(), available: () => true, close: () => undefined };
  if (o.store === 'redis') {
    const client = o.redis!;
    const { RedisStore: Redis } = loadPeer<{ RedisStore: typeof RedisStore }>('connect-redis');
    return {
      store: new Redis({ client, prefix: o.redisPrefix, ttl: o.ttlSeconds }),
      available: () => client.isReady,
      close: () => undefined,
    };
  }
  let db;
  try {
    db = openSqlite(o.sqlitePath, 'session.sqlitePath');
  } catch (e) {
    throw new KernelConfigError('session.sqlitePath', (e as Error).message.replace(/^Invalid option "[^"]*": /, ''));
  }
  try {
    const store = new SqliteSessionStore({
      db, ttlSeconds: o.ttlSeconds, pruneIntervalSeconds: o.pruneIntervalSeconds,
    });
    return { store, available: () => db.open, close: () => { store.stop(); db.close(); } };
  } catch (e) {
    db.close();
    throw new KernelConfigError(
      'session.sqlitePath', `cannot use SQLite database "${o.sqlitePath}": ${(e as Error).message}`,
    );
  }
}

/**
 * The session layer (Symfony's session with `NativeSessionStorage`), built on express-session:
 * - the store is embedded SQLite by default ({@link SqliteSessionStore}: sessions survive a
 *   restart, expired ones are pruned), Redis when a client is given (connect-redis; several
 *   instances share sessions), MemoryStore only in the `test` environment;
 * - the cookie (`EKSESSID`) is HttpOnly, SameSite=Lax, and Secure when the request is HTTPS as
 *   the kernel sees it (`req.kernel.uri.scheme`, which honours `X-Forwarded-Proto` from trusted
 *   proxies only): inside a kernel `req.secure` follows that scheme (the kernel's request
 *   prototype), so express-session's `secure: 'auto'` agrees with the kernel;
 * - a request that never writes to the session gets no cookie and no stored session
 *   (`saveUninitialized: false`, `resave: false`, `rolling: false`); a request without a session
 *   cookie does not even get a session object until something reads `req.session` (Symfony's
 *   lazy session): layers that only read attributes use `existingSession(req)`, which never
 *   creates one;
 * - store failures are not fatal: when the store is down or a read fails, the request goes on
 *   without `req.session` and with `req.sessionUnavailable = true`; code that needs the session
 *   calls `requireSession(req)`, which throws a 503. A write that fails after the response has
 *   started is logged and the session change is lost.
 * `req.sessionInfo` describes the session for the profiler ({@link SessionInfo}).
 * @param options - see {@link SessionOptions}; validated here, once
 * @returns the layer, for `createKernel({ layers: { session: … } })`
 * @throws KernelConfigError for a bad option, e.g. `Invalid option "session.sqlitePath": cannot
 *   open SQLite database "<file>": <reason>` when the store cannot be opened at start-up
 */
export function sessionLayer(options: SessionOptions): SessionLayer {
  const o = resolveSessionOptions(options);
  const { store, available, close } = openStore(o);
  withStoreDeadlines(store, o.timeoutMs);
  // Not a speed trick: express-session calls createSession only for a session read from the
  // store, the one sign of it `describe` (SessionInfo.started) has; it costs 0.7 µs a call
  // (`npm run bench -- tricks --cases=createSession`, docs/benchmarks/speed-tricks.md)
  const loaded = new WeakSet<object>();
  const createSession = store.createSession.bind(store);
  store.createSession = (req, data) => {
    loaded.add(req);
    return createSession(req, data);
  };
  const middleware = session({
    name: o.name,
    secret: [...o.secrets],
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    unset: 'keep',
    cookie: {
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      path: o.cookiePath,
      domain: o.cookieDomain,
      maxAge: o.cookieLifetimeSeconds === undefined ? undefined : o.cookieLifetimeSeconds * 1000,
    },
  });

  const unavailable = (req: Request, err: unknown, when: string): void => {
    req.sessionUnavailable = true;
    o.logger?.warn({ err, store: o.store }, `session store failed ${when}`);
  };
  const saveGuard = new SaveGuard((req, err) => {
    unavailable(req, err, 'while saving the session; answered 503, no cookie');
  });

  /**
   * Runs express-session for `req`; `loaded` is called once, when `req.session` is ready (or
   * known to be absent). Later calls are express-session's reports of failed saves.
   */
  const start = (req: Request, res: Response, loaded: () => void): void => {
    if (!available()) {
      unavailable(req, undefined, 'before the request (not connected); continuing without a session');
      return loaded();
    }
    let called = false;
    middleware(req, res, (err?: unknown) => {
      if (called) {
        // express-session reports save, touch and destroy errors after the response started
        if (err !== undefined && err !== null) unavailable(req, err, 'after the response; the session change is lost');
        return;
      }
      called = true;
      if (err !== undefined && err !== null) {
        unavailable(req, err, 'while loading the session; continuing without a session');
        delete (req as { session?: unknown }).session;
      }
      saveGuard.loaded(req);
      loaded();
    });
    // express-session wrapped res.end synchronously; ours goes over it
    saveGuard.install(req, res);
  };

  // A request without a session cookie gets a lazy `req.session`: express-session runs when
  // something first reads or writes it (synchronously: without a cookie it only generates an
  // id), so the common cookieless request pays for no id, no hooks and no cookie.
  const handle: SessionHandle = {
    startNow(req: Request): void {
      (req as SessionRequest)[SESSION_PENDING] = false;
      let ready = false;
      start(req, req.res as Response, () => { ready = true; });
      if (!ready) throw new Error('express-session did not start a cookieless session synchronously');
    },
    describe(req: Request): SessionInfo {
      const session = existingSession(req) as Record<string, unknown> | undefined;
      const sessionId = session === undefined ? undefined : req.sessionID;
      return describeSession(session, sessionId, o.store, loaded.has(req), req.sessionUnavailable === true);
    },
  };

  const handler = function sessionHandler(req: Request, res: Response, next: NextFunction) {
    installSessionAccessors(req);
    const r = req as SessionRequest;
    r[SESSION_STATE] = handle;
    req.sessionUnavailable = false;
    if (!hasCookie(req.headers.cookie, o.name)) {
      r[SESSION_PENDING] = true;
      return next();
    }
    r[SESSION_PENDING] = false;
    start(req, res, next);
  } as SessionLayer;
  Object.defineProperties(handler, {
    store: { value: store, enumerable: true },
    storeName: { value: o.store, enumerable: true },
    isAvailable: { value: available },
    close: { value: async () => close() },
  });
  return handler;
}
