import { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';
import { defineRequestSlot } from '../http/requestSlots';
import type { SessionInfo } from './sessionInfo';

/** The session layer's per-request state (its lazy start, its describer), see `sessionLayer`. */
export const SESSION_STATE: unique symbol = Symbol('express-kernel.session');
/** Whether the session layer left the request's session unstarted (no session cookie). */
export const SESSION_PENDING: unique symbol = Symbol('express-kernel.sessionPending');
defineRequestSlot(SESSION_STATE);
defineRequestSlot(SESSION_PENDING);

/** What a session layer gives the requests it handled (one object per layer, shared). */
export interface SessionHandle {
  /** Runs express-session now for a request that came without a session cookie (synchronous). */
  startNow(req: Request): void;
  /** The profiler's view of the request's session. */
  describe(req: Request): SessionInfo;
}

/** A request as the session layer and its accessors see it. */
export type SessionRequest = Request & {
  [SESSION_STATE]?: SessionHandle;
  [SESSION_PENDING]?: boolean;
  session?: Session & Partial<SessionData>;
};

/**
 * The request's session when reading it costs nothing: the session the request's cookie named (or
 * one this request already started), never a new one. Layers that only *read* session attributes
 * (the firewall's remembered user, the locale, the time zone, the profiler) use it, so a request
 * without a session cookie stays without a session and without a `Set-Cookie`.
 * Mirrors Symfony's `$request->hasPreviousSession() ? $request->getSession() : null` (as in
 * `ContextListener::authenticate()`).
 * @param req - any request (with or without the session layer)
 * @returns `req.session`, or undefined when there is none yet (or no session layer)
 */
export function existingSession(req: Request): (Session & Partial<SessionData>) | undefined {
  const r = req as SessionRequest;
  return r[SESSION_PENDING] === true ? undefined : r.session;
}

/**
 * `req.session` and `req.sessionInfo` as accessors: reading `session` on a request whose session
 * is pending starts it; writing it (express-session does) stores a plain own property, which
 * `delete req.session` (a destroyed session) removes again. Requests the session layer did not
 * handle read undefined.
 */
const ACCESSORS: PropertyDescriptorMap = {
  session: {
    configurable: true,
    enumerable: false,
    get(this: SessionRequest) {
      const handle = this[SESSION_STATE];
      if (handle === undefined || this[SESSION_PENDING] !== true) return undefined;
      handle.startNow(this);
      return Object.prototype.hasOwnProperty.call(this, 'session') ? this.session : undefined;
    },
    set(this: SessionRequest, value: unknown) {
      if (this[SESSION_PENDING] === true) this[SESSION_PENDING] = false;
      Object.defineProperty(this, 'session', { value, writable: true, enumerable: true, configurable: true });
    },
  },
  sessionInfo: {
    configurable: true,
    enumerable: false,
    get(this: SessionRequest) {
      return this[SESSION_STATE]?.describe(this);
    },
  },
};

const installed = new WeakSet<object>();

/**
 * Puts the session accessors where the request reads them: once on an Express application's
 * request prototype (`app.request`, shared by its requests), or on the request itself when it has
 * none of its own (a plain `http` request), so a cookieless request costs no property definition.
 * @param req - the request the session layer is handling
 */
export function installSessionAccessors(req: Request): void {
  const proto = Object.getPrototypeOf(req) as object | null;
  if (proto === null || proto === IncomingMessage.prototype || proto === Object.prototype) {
    Object.defineProperties(req, ACCESSORS);
    return;
  }
  if (installed.has(proto)) return;
  installed.add(proto);
  Object.defineProperties(proto, ACCESSORS);
}
