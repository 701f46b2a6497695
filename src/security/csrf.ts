import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { csrfSync } from 'csrf-sync';
import { existingSession } from '../session/previousSession';
import { requireSession } from '../session/requireSession';

/**
 * Where the token lives in the session. The firewall forgets it when the user changes (a login
 * gets a fresh token, against CSRF token fixation, Symfony's CVE-2022-24895 fix).
 */
export const CSRF_SESSION_KEY = '_csrf_token';

/** Token length: 32 random bytes, 64 hex characters. */
const TOKEN_BYTES = 32;

/**
 * csrf-sync's synchroniser token pattern with the token in the kernel's session under
 * {@link CSRF_SESSION_KEY}. Only its generation and storage are used: the comparison below is
 * timing-safe, csrf-sync's is a plain `===`.
 */
const synchroniser = csrfSync({
  size: TOKEN_BYTES,
  getTokenFromState: (req) => {
    const value = (requireSession(req) as unknown as Record<string, unknown>)[CSRF_SESSION_KEY];
    return typeof value === 'string' ? value : undefined;
  },
  storeTokenInState: (req, token) => {
    (requireSession(req) as unknown as Record<string, unknown>)[CSRF_SESSION_KEY] = token ?? undefined;
  },
});

/**
 * The session's CSRF token (Symfony `CsrfTokenManagerInterface::getToken()`, one token per
 * session, kept by csrf-sync's synchroniser token pattern): created and stored in the session
 * when missing (which starts the session and sets its cookie), the same string afterwards until
 * the user changes (login) or the session ends (logout). Put it in a hidden form field.
 * @param req - a request that went through the session layer
 * @returns 64 hex characters (32 random bytes)
 * @throws Error `csrfToken() needs the session layer…` without a session layer (a configuration mistake)
 * @throws StorageUnavailableError (503) `Session storage is unavailable.` when the store is down
 */
export function csrfToken(req: Request): string {
  if (req.sessionInfo === undefined) {
    throw new Error('csrfToken() needs the session layer (CSRF tokens are kept in the session): '
      + 'give createKernel a session option, or pass sessionLayer({ … }) as layers.session.');
  }
  return synchroniser.generateToken(req);
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * True when `submitted` equals the session's CSRF token (Symfony
 * `CsrfTokenManagerInterface::isTokenValid()`), compared in constant time (`timingSafeEqual` of
 * SHA-256 digests, so neither the content nor the length leaks). Never starts a session and
 * never throws: no session, no token yet, a store that is down, or a `submitted` that is not a
 * string (an array from `_token=a&_token=b`, an object, a number, undefined) are all false.
 * @param req - any request
 * @param submitted - the form field's value as parsed, of any type
 */
export function isCsrfTokenValid(req: Request, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted === '') return false;
  let stored: unknown;
  try {
    const session = existingSession(req) as Record<string, unknown> | undefined;
    stored = session?.[CSRF_SESSION_KEY];
  } catch {
    return false;
  }
  if (typeof stored !== 'string' || stored === '') return false;
  return timingSafeEqual(digest(submitted), digest(stored));
}
