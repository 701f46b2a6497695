import type { Request, Response } from 'express';
import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { BadRequestHttpError } from '../http/errors';
import { createFormBodyReader, type FormBodyReader } from '../http/body/FormBodyReader';
import type { JsonBodyReaderOptions } from '../http/body/JsonBodyReader';
import { type AuthenticationError, badCredentials, invalidCsrfToken } from './AuthenticationError';
import { AUTHENTICATION_ERROR, LAST_USERNAME, type AuthenticationFailureRecord } from './AuthenticationUtils';
import type { AuthenticationEntryPoint, Authenticator, Passport } from './Authenticator';
import { isCsrfTokenValid } from './csrf';
import { forgetLoginCsrfToken, isLoginCsrfTokenValid } from './loginCsrf';
import { isLocalPath, localPathSchema, underBase } from './localPath';
import { decodedPathInfo } from './RequestMatcher';

/** The options of {@link FormLoginAuthenticator}: {@link FormLoginAuthenticatorOptions}. */
export const formLoginAuthenticatorOptionsSchema = optionsObject({
  /**
   * The login form's page (a `GET` route of the application), where the entry point and
   * failures redirect. @default '/login' @example '/admin/login'
   */
  loginPath: localPathSchema.default('/login'),
  /** The path (decoded path info) whose `POST` is the login attempt. @default the loginPath */
  checkPath: localPathSchema.optional(),
  /** The form field of the username. @default '_username' */
  usernameParameter: nonEmptyString.default('_username'),
  /** The form field of the password. @default '_password' */
  passwordParameter: nonEmptyString.default('_password'),
  /** The form field of the CSRF token, checked with `isCsrfTokenValid`. @default '_csrf_token' */
  csrfParameter: nonEmptyString.default('_csrf_token'),
  /** The form field that names where to go after a success (a local path only). @default '_target_path' */
  targetPathParameter: nonEmptyString.default('_target_path'),
  /** Where a success goes when no target path was asked for nor saved. @default '/' @example '/admin' */
  defaultTargetPath: localPathSchema.default('/'),
  /** Largest login body, in bytes or as `'10kb'`. @default '10kb' */
  limit: z.custom<JsonBodyReaderOptions['limit']>().optional(),
});

/** Options of {@link FormLoginAuthenticator} (Symfony `form_login`). */
export type FormLoginAuthenticatorOptions = z.input<typeof formLoginAuthenticatorOptionsSchema>;

/** Symfony `UserBadge::MAX_USERNAME_LENGTH`. */
const MAX_USERNAME_LENGTH = 4096;

type SessionData = Record<string, unknown>;

/** The request's session (started if need be), or undefined without a working session layer. */
function sessionOf(req: Request): SessionData | undefined {
  const s = (req as { session?: unknown }).session;
  return typeof s === 'object' && s !== null ? (s as SessionData) : undefined;
}

/** Session key of the URL the entry point saved (Symfony `TargetPathTrait`: `_security.<firewall>.target_path`). */
export function targetPathKey(req: Request): string {
  return `_security.${req.security?.firewall ?? 'main'}.target_path`;
}

/**
 * Form login (Symfony `FormLoginAuthenticator`, `form_login: { login_path, check_path,
 * enable_csrf: true }`): runs on `POST <checkPath>` and reads the
 * `application/x-www-form-urlencoded` body itself (the firewall runs before routing).
 * - The fields `_username` and `_password` must be strings: a missing one is a 400
 *   `The key "_username" must be a string.`; the username is trimmed and kept in the session
 *   for the form (`lastUsername`).
 * - `_csrf_token` must be the login page's stateless token (`loginCsrfToken`: a double-submit
 *   cookie, refused from another origin; the page starts no session) or the session's token
 *   (`csrfToken`, for a login page that has a session anyway), checked before throttling and the
 *   password: a bad one fails with `Invalid CSRF token.`, counts no throttled attempt and logs
 *   nobody in.
 * - Success: the firewall migrates the session (new id, CSRF token renewed) and keeps the user
 *   there; this answers 302 to `_target_path` when it is a local path, else to the URL the entry
 *   point saved, else to `defaultTargetPath` (Symfony `DefaultAuthenticationSuccessHandler`).
 * - Failure (bad credentials, bad CSRF token, too many attempts): the message is kept in the
 *   session for the form (`lastAuthenticationError`) and the answer is 302 to `loginPath`
 *   (Symfony `DefaultAuthenticationFailureHandler`); it is interactive, so a throttled attempt
 *   also comes back to the form, with the throttling message, instead of a 429.
 * As the entry point (Symfony `FormLoginAuthenticator::start()`), it answers every anonymous
 * request the access rules deny with 302 to `loginPath`, JSON clients included (as Symfony
 * does); for a `GET` that prefers HTML and is not an XHR it first saves the URL in the session,
 * so the login goes back there.
 */
export class FormLoginAuthenticator implements Authenticator, AuthenticationEntryPoint {
  /** Its name in `req.security.authenticator` and the profiler: `form_login`. */
  readonly name = 'form_login';
  /** A person fills the form in: every failure, throttling included, comes back to the form. */
  readonly interactive = true;
  /** The login page (`GET`), where the entry point and failures redirect. */
  readonly loginPath: string;
  /** The path whose `POST` is a login attempt. */
  readonly checkPath: string;
  /** Where a success goes when no target path was asked for nor saved. */
  readonly defaultTargetPath: string;
  private readonly usernameParameter: string;
  private readonly passwordParameter: string;
  private readonly csrfParameter: string;
  private readonly targetPathParameter: string;
  private readonly readBody: FormBodyReader;

  /** @throws KernelConfigError naming the bad option, e.g. `Invalid option "loginPath": expected a path…` */
  constructor(options: FormLoginAuthenticatorOptions = {}) {
    const o = parseOptions(formLoginAuthenticatorOptionsSchema, options, '');
    this.loginPath = o.loginPath;
    this.checkPath = o.checkPath ?? o.loginPath;
    this.defaultTargetPath = o.defaultTargetPath;
    this.usernameParameter = o.usernameParameter;
    this.passwordParameter = o.passwordParameter;
    this.csrfParameter = o.csrfParameter;
    this.targetPathParameter = o.targetPathParameter;
    this.readBody = createFormBodyReader(o.limit ?? '10kb');
  }

  /** True for `POST <checkPath>`, whatever the body (a body that is no form misses its fields: 400). */
  supports(req: Request): boolean {
    return req.kernel?.uri !== undefined && req.kernel.method === 'POST'
      && decodedPathInfo(req.kernel.uri.pathInfo) === this.checkPath;
  }

  /**
   * @returns a passport with the username and the password to check
   * @throws BadRequestHttpError (400) when the username or password field is missing or repeated
   * @throws HttpError (413, 415) for a body that cannot be read
   * @throws AuthenticationError `Invalid CSRF token.` for a missing or wrong CSRF token; bad
   *   credentials for an empty username or password, or a username over 4096 characters
   */
  async authenticate(req: Request): Promise<Passport> {
    await this.readBody(req, req.res as Response);
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<string, unknown>;
    const username = this.field(body, this.usernameParameter).trim();
    const session = sessionOf(req);
    if (session !== undefined) session[LAST_USERNAME] = username.slice(0, MAX_USERNAME_LENGTH);
    const password = this.field(body, this.passwordParameter);
    const token = body[this.csrfParameter];
    if (!isLoginCsrfTokenValid(req, token) && !isCsrfTokenValid(req, token)) throw invalidCsrfToken();
    if (username === '' || username.length > MAX_USERNAME_LENGTH || password === '') throw badCredentials();
    return { userIdentifier: username, password };
  }

  private field(body: Record<string, unknown>, name: string): string {
    const value = Object.hasOwn(body, name) ? body[name] : undefined;
    if (typeof value !== 'string') throw new BadRequestHttpError(`The key "${name}" must be a string.`);
    return value;
  }

  /** 302 to the target path (see the class); forgets the saved one and the login page's token. */
  onAuthenticationSuccess(req: Request, res: Response): boolean {
    forgetLoginCsrfToken(req, res);
    const session = sessionOf(req);
    const key = targetPathKey(req);
    const saved = session?.[key];
    if (session !== undefined) delete session[key];
    const asked = (req.body as Record<string, unknown> | undefined)?.[this.targetPathParameter];
    const target = isLocalPath(asked) ? underBase(req, asked)
      : isLocalPath(saved) ? saved
        : underBase(req, this.defaultTargetPath);
    res.redirect(302, target);
    return true;
  }

  /** Keeps the failure (code, message, wait) for the form and answers 302 to the login page. */
  onAuthenticationFailure(req: Request, res: Response, error: AuthenticationError): boolean {
    const session = sessionOf(req);
    if (session !== undefined) {
      const kept: AuthenticationFailureRecord = { code: error.code, message: error.message,
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }) };
      session[AUTHENTICATION_ERROR] = kept;
    }
    res.redirect(302, underBase(req, this.loginPath));
    return true;
  }

  /** 302 to the login page; a `GET` HTML page request's URL is saved first (see the class). */
  start(req: Request, res: Response): void {
    const uri = req.kernel?.uri;
    const html = req.method === 'GET' && req.accepts(['html', 'json']) === 'html'
      && req.get('X-Requested-With') !== 'XMLHttpRequest';
    if (html && uri !== undefined && req.sessionUnavailable !== true) {
      const target = `${uri.baseUrl}${uri.pathInfo}${uri.queryString === '' ? '' : `?${uri.queryString}`}`;
      const session = sessionOf(req);
      if (session !== undefined && isLocalPath(target)) session[targetPathKey(req)] = target;
    }
    res.redirect(302, underBase(req, this.loginPath));
  }
}
