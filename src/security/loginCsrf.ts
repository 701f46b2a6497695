import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse as parseCookie, serialize } from 'cookie';

/**
 * The login form's CSRF token without a session: a double-submit cookie (OWASP's "double submit
 * cookie" pattern) checked together with the request's origin (Symfony 7.2's
 * `SameOriginCsrfTokenManager`). A login page must not start a session (a flood of login-page
 * views would fill the session store, and Symfony 5.4's session token does start one), yet a
 * forged login (an attacker's page posting the attacker's credentials, so that the victim works
 * in the attacker's account) must still be refused:
 * - the page sets a random token in an HttpOnly, `SameSite=Strict` cookie (named
 *   `__Host-ek_login_csrf` over HTTPS, so a sibling subdomain cannot plant one, else
 *   `ek_login_csrf`) and puts the same token in the form; nothing is stored on the server;
 * - the login `POST` is accepted only when the form's token equals the cookie's (constant time)
 *   and the `Origin` header, or else the `Referer`, when either is sent (and not `null`), is the
 *   application's own origin (a cross-site form cannot read the cookie, is not sent the
 *   `SameSite=Strict` one, and cannot send a same-origin `Origin`).
 * @module
 */

/** The cookie's name over plain HTTP. */
export const LOGIN_CSRF_COOKIE = 'ek_login_csrf';
/**
 * The cookie's name over HTTPS: the `__Host-` prefix (RFC 6265bis §4.1.3.2) forbids `Domain`
 * and asks for `Secure` and `Path=/`.
 */
export const SECURE_LOGIN_CSRF_COOKIE = `__Host-${LOGIN_CSRF_COOKIE}`;

/** 32 random bytes, 64 hex characters. */
const TOKEN = /^[0-9a-f]{64}$/;

const isSecure = (req: Request): boolean => (req.kernel?.uri?.scheme ?? req.protocol) === 'https';
const cookieName = (req: Request): string => (isSecure(req) ? SECURE_LOGIN_CSRF_COOKIE : LOGIN_CSRF_COOKIE);

/** The token the request's cookie holds, when it is one. */
function cookieToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  const name = cookieName(req);
  if (header === undefined || !header.includes(name)) return undefined;
  const value = parseCookie(header)[name];
  return value !== undefined && TOKEN.test(value) ? value : undefined;
}

/**
 * The login form's CSRF token: the one the request's cookie holds, else a new one, set in the
 * cookie (see the module). Never starts a session.
 * @param req - the login page's request
 * @param res - its response (a new token adds a `Set-Cookie`)
 * @returns 64 hex characters (32 random bytes); put them in the form's `_csrf_token` field
 */
export function loginCsrfToken(req: Request, res: Response): string {
  const kept = cookieToken(req);
  if (kept !== undefined) return kept;
  const token = randomBytes(32).toString('hex');
  res.append('Set-Cookie', serialize(cookieName(req), token, {
    httpOnly: true, sameSite: 'strict', secure: isSecure(req), path: '/',
  }));
  return token;
}

/** Forgets the login form's token (after a successful login: the session's own token takes over). */
export function forgetLoginCsrfToken(req: Request, res: Response): void {
  if (cookieToken(req) === undefined) return;
  res.append('Set-Cookie', serialize(cookieName(req), '', {
    httpOnly: true, sameSite: 'strict', secure: isSecure(req), path: '/', maxAge: 0,
  }));
}

/** The application's origin (`https://example.com:8443`) as the kernel sees it, else as Express does. */
function ownOrigin(req: Request): string {
  return req.kernel?.uri?.schemeAndHttpHost ?? `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * Whether the request says it comes from another origin: its `Origin` header (or, without one,
 * its `Referer`) names another scheme, host or port. `Origin: null` says nothing (as for
 * Symfony's `SameOriginCsrfTokenManager`): Chromium sends it on a same-origin form `POST` from a
 * page with `Referrer-Policy: no-referrer` (the kernel's security headers); the `SameSite=Strict`
 * cookie then decides, which a cross-site form never carries.
 */
export function isCrossOrigin(req: Request): boolean {
  const origin = req.headers.origin === 'null' ? undefined : req.headers.origin;
  const source = origin ?? req.headers.referer;
  if (source === undefined || source === '') return false;
  const own = ownOrigin(req);
  return source !== own && !source.startsWith(`${own}/`);
}

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * True when `submitted` is the token of the request's login CSRF cookie (compared in constant
 * time) and the request does not come from another origin ({@link isCrossOrigin}). Never throws:
 * no cookie, a malformed one, or a `submitted` that is not a string are all false.
 * @param req - the login `POST`
 * @param submitted - the form field's value as parsed, of any type
 */
export function isLoginCsrfTokenValid(req: Request, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted === '' || isCrossOrigin(req)) return false;
  const expected = cookieToken(req);
  return expected !== undefined && timingSafeEqual(digest(submitted), digest(expected));
}
