import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../config/optionSchemas';
import { createFormBodyReader } from '../http/body/FormBodyReader';
import { AccessDeniedHttpError } from '../http/errors';
import { StorageUnavailableError } from '../storage/StorageUnavailableError';
import { existingSession } from '../session/previousSession';
import { isCsrfTokenValid } from './csrf';
import { localPathSchema, underBase } from './localPath';
import { decodedPathInfo } from './RequestMatcher';

/** The `logout` option of a firewall (Symfony `security.firewalls.<name>.logout`). */
export const logoutSchema = optionsObject({
  /** The path (decoded path info) whose `POST` logs out. @default '/logout' @example '/admin/logout' */
  path: localPathSchema.default('/logout'),
  /** Where the client goes afterwards. @default '/' @example '/admin/login' */
  target: localPathSchema.default('/'),
  /** The form field of the CSRF token, checked with `isCsrfTokenValid`. @default '_csrf_token' @example '_token' */
  csrfParameter: nonEmptyString.default('_csrf_token'),
});

/** Options of a firewall's {@link LogoutListener}. */
export type LogoutOptions = z.input<typeof logoutSchema>;

/** Reads the logout form; 4 KiB is plenty for one token. */
const readBody = createFormBodyReader('4kb');

/**
 * Logout (Symfony `LogoutListener` with `SessionLogoutListener` and `DefaultLogoutListener`,
 * CSRF protection on): the firewall hands it `POST <path>` before authentication and access
 * control, so the route behind it is never reached. With the session's CSRF token in the form
 * field `csrfParameter` the session is destroyed (the user and everything else in it) and the
 * answer is 302 to `target`; without a valid token it is a 403 `Invalid CSRF token.` and the
 * session is kept. Other methods on the path go on to routing (a 405 from the router).
 */
export class LogoutListener {
  /** The path whose `POST` logs out. */
  readonly path: string;
  /** Where the client is redirected after the logout. */
  readonly target: string;
  /** The form field holding the CSRF token. */
  readonly csrfParameter: string;

  /** @param options - validated by {@link logoutSchema} (the firewall options do it) */
  constructor(options: z.output<typeof logoutSchema>) {
    this.path = options.path;
    this.target = options.target;
    this.csrfParameter = options.csrfParameter;
  }

  /** True for `POST <path>`. */
  matches(req: Request): boolean {
    return req.kernel?.uri !== undefined && req.kernel.method === 'POST'
      && decodedPathInfo(req.kernel.uri.pathInfo) === this.path;
  }

  /**
   * Checks the token, destroys the session and redirects; errors go to `next`: 403 for a bad
   * token, 413/415 for an unreadable body, 503 when the session cannot be destroyed.
   */
  async handle(req: Request, res: Response, next: NextFunction): Promise<void> {
    await readBody(req, res);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    if (!isCsrfTokenValid(req, Object.hasOwn(body, this.csrfParameter) ? body[this.csrfParameter] : undefined)) {
      return next(new AccessDeniedHttpError('Invalid CSRF token.'));
    }
    const session = existingSession(req);
    if (session !== undefined) {
      await new Promise<void>((resolve, reject) => session.destroy((err: unknown) => {
        if (err === undefined || err === null) resolve();
        else reject(new StorageUnavailableError('Session', 'destroying the session failed', { cause: err }));
      }));
    }
    req.user = undefined;
    if (req.security !== undefined) Object.assign(req.security, { user: null, roles: [], authenticator: null });
    res.redirect(302, underBase(req, this.target));
  }
}
