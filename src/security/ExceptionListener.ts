import type { NextFunction, Request, Response } from 'express';
import { formatMessage } from '../errors/codes';
import { AccessDeniedHttpError, HttpError, TooManyRequestsHttpError } from '../http/errors';
import type { AuthenticationError } from './AuthenticationError';
import type { AuthenticationEntryPoint, Authenticator } from './Authenticator';
import { defineRequestSlot } from '../http/requestSlots';

/**
 * Turns security failures into responses, as Symfony's `Firewall\ExceptionListener` does:
 * - access denied to an anonymous client starts authentication: the firewall's entry point
 *   answers (http_basic: 401 with its challenge), or, without one, a 401 `Full authentication is
 *   required to access this resource.`;
 * - access denied to an authenticated user is a 403 `Access Denied.` (or the rule's message);
 * - failed authentication is the authenticator's failure response, else the entry point's;
 *   refused by login throttling it is a 429 with `Retry-After` (an interactive login, the form
 *   login, answers that too: it redirects to its form, which shows the message).
 * HTTP errors go to `next(err)`, so the kernel renders them (HTML or problem+json).
 */

/** The firewall's entry point for the request (who answers an anonymous denial). */
const ENTRY_POINT: unique symbol = Symbol('express-kernel.entryPoint');
defineRequestSlot(ENTRY_POINT);

type WithEntryPoint = Request & { [ENTRY_POINT]?: AuthenticationEntryPoint };

/** Remembers the entry point of the firewall that handles `req`, for later checks (per-route `security`). */
export function rememberEntryPoint(req: Request, entryPoint: AuthenticationEntryPoint | undefined): void {
  if (entryPoint !== undefined) (req as WithEntryPoint)[ENTRY_POINT] = entryPoint;
}

/** Asks the client to authenticate: the entry point's response, else a 401 error. */
export function startAuthentication(
  req: Request,
  res: Response,
  next: NextFunction,
  error?: AuthenticationError,
): void {
  const entryPoint = (req as WithEntryPoint)[ENTRY_POINT];
  if (entryPoint !== undefined) return entryPoint.start(req, res, error);
  const message = formatMessage('ERR_HTTP_UNAUTHORIZED');
  next(new HttpError('ERR_HTTP_UNAUTHORIZED', message, error === undefined ? {} : { cause: error }));
}

/**
 * Denies access: 401 through {@link startAuthentication} for an anonymous client, else 403.
 * @param message - the 403's message @default 'Access Denied.'
 */
export function denyAccess(
  req: Request, res: Response, next: NextFunction, message = formatMessage('ERR_HTTP_FORBIDDEN'),
): void {
  if (req.security?.user === null || req.security?.user === undefined) return startAuthentication(req, res, next);
  next(new AccessDeniedHttpError(message));
}

/** Answers a failed authentication by `authenticator`. */
export function failAuthentication(
  req: Request,
  res: Response,
  next: NextFunction,
  authenticator: Authenticator,
  error: AuthenticationError,
): void {
  if (error.failure === 'too_many_attempts' && authenticator.interactive !== true) {
    return next(new TooManyRequestsHttpError(error.retryAfterSeconds ?? 60, error.message, { cause: error }));
  }
  if (authenticator.onAuthenticationFailure?.(req, res, error) === true) return;
  startAuthentication(req, res, next, error);
}
