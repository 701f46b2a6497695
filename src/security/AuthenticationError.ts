import { formatMessage } from '../errors/codes';
import { isKernelError, KernelError } from '../errors/KernelError';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_FIREWALL_BAD_CREDENTIALS: AuthenticationError;
    ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS: AuthenticationError;
    ERR_FIREWALL_INVALID_CSRF_TOKEN: AuthenticationError;
  }
}

/** Why authentication failed (Symfony's `AuthenticationException` subclasses). */
export type AuthenticationFailure =
  /** Unknown user, wrong password, unknown token (`BadCredentialsException`). */
  | 'bad_credentials'
  /** Login throttling refused the attempt (`TooManyLoginAttemptsAuthenticationException`). */
  | 'too_many_attempts'
  /** A login form came without the session's CSRF token (`InvalidCsrfTokenException`). */
  | 'invalid_csrf_token';

/** The registry code of each failure. */
const CODES = {
  bad_credentials: 'ERR_FIREWALL_BAD_CREDENTIALS',
  too_many_attempts: 'ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS',
  invalid_csrf_token: 'ERR_FIREWALL_INVALID_CSRF_TOKEN',
} as const satisfies Record<AuthenticationFailure, string>;

/** The codes an {@link AuthenticationError} carries. */
const AUTHENTICATION_CODES = Object.values(CODES);

/**
 * A domain error: the client could not be authenticated (codes `ERR_FIREWALL_BAD_CREDENTIALS`,
 * `ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS`, `ERR_FIREWALL_INVALID_CSRF_TOKEN`). Not an HTTP
 * error: the firewall turns it into the authenticator's failure response, the entry point's
 * 401, or a 429 (Symfony `AuthenticationException` and `ExceptionListener`).
 */
export class AuthenticationError extends KernelError {
  override name = 'AuthenticationError';
  declare readonly code: (typeof CODES)[AuthenticationFailure];

  /**
   * @param failure - why
   * @param message - safe to show to the client, e.g. `Invalid credentials.`
   * @param retryAfterSeconds - for `too_many_attempts`: when the client may try again, in seconds
   * @param options - the cause
   */
  constructor(
    readonly failure: AuthenticationFailure,
    message: string,
    readonly retryAfterSeconds?: number,
    options: { cause?: unknown } = {},
  ) {
    super(CODES[failure], message, options);
  }
}

/**
 * True when `value` is an {@link AuthenticationError}, also across realms and package copies
 * (shorthand for {@link isKernelError} with its codes).
 */
export function isAuthenticationError(value: unknown): value is AuthenticationError {
  return isKernelError(value, AUTHENTICATION_CODES);
}

/** Symfony `BadCredentialsException::getMessageKey()`. */
export const INVALID_CREDENTIALS = formatMessage('ERR_FIREWALL_BAD_CREDENTIALS');

/** @returns an {@link AuthenticationError} for bad credentials (`Invalid credentials.`) */
export function badCredentials(): AuthenticationError {
  return new AuthenticationError('bad_credentials', INVALID_CREDENTIALS);
}

/** @returns an {@link AuthenticationError} for a login form without the session's CSRF token (`Invalid CSRF token.`) */
export function invalidCsrfToken(): AuthenticationError {
  return new AuthenticationError('invalid_csrf_token', formatMessage('ERR_FIREWALL_INVALID_CSRF_TOKEN'));
}
