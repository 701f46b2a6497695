import type { Request } from 'express';
import { existingSession } from '../session/previousSession';
import type { AuthenticationError } from './AuthenticationError';

/**
 * The last login failure as the session keeps it (Symfony keeps the exception): its registry
 * code (`ERR_FIREWALL_*`), its English message, and for throttling the wait in seconds.
 */
export interface AuthenticationFailureRecord {
  readonly code: AuthenticationError['code'];
  readonly message: string;
  readonly retryAfterSeconds?: number;
}

/** Session key of the last login failure (Symfony `SecurityRequestAttributes::AUTHENTICATION_ERROR`). */
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
  return lastAuthenticationFailure(req)?.message ?? null;
}

/**
 * The last login failure of this session, then forgotten, with its code: what a login page
 * translates by (`code`, never the English `message`).
 * @param req - the login page's request
 * @returns `{ code, message, retryAfterSeconds? }`, or null when the last attempt did not fail
 */
export function lastAuthenticationFailure(req: Request): AuthenticationFailureRecord | null {
  const session = sessionOf(req);
  const kept = session?.[AUTHENTICATION_ERROR] as Partial<AuthenticationFailureRecord> | undefined;
  if (typeof kept?.code !== 'string' || typeof kept.message !== 'string') return null;
  delete session![AUTHENTICATION_ERROR];
  return { code: kept.code, message: kept.message,
    ...(typeof kept.retryAfterSeconds === 'number' ? { retryAfterSeconds: kept.retryAfterSeconds } : {}) };
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
