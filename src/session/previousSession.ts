import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';

/**
 * Marks a request whose session the session layer has not started yet: it came without a session
 * cookie, so its `req.session` is a lazy accessor that creates the session when first read.
 */
export const SESSION_PENDING: unique symbol = Symbol('express-kernel.sessionPending');

type PendingAware = Request & { [SESSION_PENDING]?: boolean; session?: Session & Partial<SessionData> };

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
  const r = req as PendingAware;
  return r[SESSION_PENDING] === true ? undefined : r.session;
}
