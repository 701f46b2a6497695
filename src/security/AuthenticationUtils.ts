import type { Request } from 'express';
import { existingSession } from '../session/previousSession';

/** Session key of the last login failure's message (Symfony `SecurityRequestAttributes::AUTHENTICATION_ERROR`). */
export const AUTHENTICATION_ERROR = '_security.last_error';
/** Session key of the last username tried (Symfony `SecurityRequestAttributes::LAST_USERNAME`). */
export const LAST_USERNAME = '_security.last_username';

function sessionOf(req: Request): Record<string, unknown> | undefined {
  try {
    return existingSession(req) as Record<string, unknown> | undefined;
  } catch {
    return undefined;
  }
}

/**
 * The last login failure of this session, as a message, then forgotten (Symfony
 * `AuthenticationUtils::getLastAuthenticationError(clearSession: true)`, which gives the
 * exception; here its message key): `Invalid credentials.`, `Invalid CSRF token.`, or
 * `Too many failed login attempts, please try again in N minute(s).`. The form login
 * authenticator stores it when a login fails. Reads only a session the request came with.
 * @param req - the login page's request
 * @returns the message, or null when the last attempt did not fail (or there was none)
 */
export function lastAuthenticationError(req: Request): string | null {
  const session = sessionOf(req);
  const message = session?.[AUTHENTICATION_ERROR];
  if (typeof message !== 'string') return null;
  delete session![AUTHENTICATION_ERROR];
  return message;
}

/**
 * The username of the last login attempt of this session, trimmed, to refill the login form
 * (Symfony `AuthenticationUtils::getLastUsername()`). Reads only a session the request came with.
 * @param req - the login page's request
 * @returns the username, or `''` when there was no attempt
 */
export function lastUsername(req: Request): string {
  const value = sessionOf(req)?.[LAST_USERNAME];
  return typeof value === 'string' ? value : '';
}
