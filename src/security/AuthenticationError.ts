const AUTHENTICATION_ERROR = Symbol.for('express-kernel.AuthenticationError');

/** Why authentication failed (Symfony's `AuthenticationException` subclasses). */
export type AuthenticationFailure =
  /** Unknown user, wrong password, unknown token (`BadCredentialsException`). */
  | 'bad_credentials'
  /** Login throttling refused the attempt (`TooManyLoginAttemptsAuthenticationException`). */
  | 'too_many_attempts';

/**
 * A domain error: the client could not be authenticated. Not an HTTP error: the firewall turns
 * it into the authenticator's failure response, the entry point's 401, or a 429 (Symfony
 * `AuthenticationException` and `ExceptionListener`).
 */
export class AuthenticationError extends Error {
  override name = 'AuthenticationError';
  readonly [AUTHENTICATION_ERROR] = true;

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
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** True when `value` is an {@link AuthenticationError}, also across realms and package copies. */
export function isAuthenticationError(value: unknown): value is AuthenticationError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[AUTHENTICATION_ERROR] === true;
}

/** Symfony `BadCredentialsException::getMessageKey()`. */
export const INVALID_CREDENTIALS = 'Invalid credentials.';

/** @returns an {@link AuthenticationError} for bad credentials (`Invalid credentials.`) */
export function badCredentials(): AuthenticationError {
  return new AuthenticationError('bad_credentials', INVALID_CREDENTIALS);
}
