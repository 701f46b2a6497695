import type { Request } from 'express';
import type { Session, SessionData } from 'express-session';
import { StorageUnavailableError } from '../storage/StorageUnavailableError';
import type {} from './sessionLayer';

/** The message of the 503 a route that needs the session answers while the store is down. */
export const SESSION_UNAVAILABLE_MESSAGE = 'Session storage is unavailable.';

/**
 * The request's session, for code that cannot work without one (Symfony
 * `Request::getSession()`). Routes that never call it keep working while the store is down.
 * @param req - a request that went through {@link sessionLayer}
 * @returns `req.session`
 * @throws StorageUnavailableError 503 `Session storage is unavailable.` (with `Retry-After`) when the store failed
 *   or is down for this request (pass it to `next(err)`, or throw it from a controller)
 * @throws Error when the session layer is not installed (a configuration mistake)
 */
export function requireSession(req: Request): Session & Partial<SessionData> {
  if (req.sessionInfo === undefined) {
    throw new Error('requireSession() needs the session layer: pass sessionLayer({ … }) '
      + 'as layers.session to createKernel.');
  }
  const session = (req as { session?: Session & Partial<SessionData> }).session;
  if (req.sessionUnavailable === true || session === undefined) {
    throw new StorageUnavailableError('Session', 'the session store failed or is down for this request');
  }
  return session;
}
