import type { Request, Response } from 'express';
import type { AuthenticationError } from './AuthenticationError';
import type { SecurityUser } from './SecurityUser';

/**
 * What an authenticator read from a request (Symfony `Passport`): who the client claims to be and
 * the proof. The firewall completes it: it throttles password attempts, checks the password with
 * the firewall's {@link UserProvider}, or loads the user.
 */
export interface Passport {
  /** The claimed identifier (Symfony `UserBadge`). */
  readonly userIdentifier: string;
  /** A password to check with the provider (`PasswordCredentials`); login throttling counts these attempts. */
  readonly password?: string;
  /** The user, when the authenticator resolved it itself (a self-validating passport). */
  readonly user?: SecurityUser;
}

/** Answers a request that needs authentication (Symfony `AuthenticationEntryPointInterface`). */
export interface AuthenticationEntryPoint {
  /**
   * Writes the response that asks the client to authenticate, e.g. a 401 with a challenge.
   * @param error - why, when authentication was tried and failed
   */
  start(req: Request, res: Response, error?: AuthenticationError): void;
}

/**
 * Reads credentials from requests (Symfony `AuthenticatorInterface`). Implementations:
 * {@link HttpBasicAuthenticator}, {@link AccessTokenAuthenticator}, {@link JsonLoginAuthenticator}.
 * One that also implements {@link AuthenticationEntryPoint} can be a firewall's entry point.
 */
export interface Authenticator extends Partial<AuthenticationEntryPoint> {
  /** Its name in firewall options (`entryPoint`) and in `req.security.authenticator`, e.g. `http_basic`. */
  readonly name: string;
  /**
   * An interactive login, a form a person fills in (Symfony `InteractiveAuthenticatorInterface`):
   * its {@link onAuthenticationFailure} answers every failure, login throttling included (the
   * form shows the message), where a throttled attempt is otherwise a 429. @default false
   */
  readonly interactive?: boolean;
  /**
   * Credentials that come with every request (HTTP Basic, bearer tokens): a success is not kept
   * in the session, which is neither started nor migrated, so the request stores no session and
   * gets no `Set-Cookie`. Symfony keeps an `http_basic` token in a stateful firewall's session,
   * which costs one stored session per request of an API client that never sends the cookie
   * back. Logins (form, JSON) are not stateless: the session keeps their user. @default false
   */
  readonly stateless?: boolean;
  /** True when the request carries credentials for this authenticator; it then runs. */
  supports(req: Request): boolean;
  /**
   * Reads the credentials.
   * @returns the passport
   * @throws AuthenticationError when they are unusable (bad credentials)
   * @throws HttpError for a malformed request, e.g. a 400 for a malformed JSON body
   */
  authenticate(req: Request): Promise<Passport>;
  /**
   * Answers after a successful authentication, when the authenticator is a login endpoint.
   * @returns true when it sent a response (the request stops there), false to go on
   */
  onAuthenticationSuccess?(req: Request, res: Response, user: SecurityUser): boolean;
  /**
   * Answers a failed authentication. Without it, the firewall's entry point answers.
   * @returns true when it sent a response
   */
  onAuthenticationFailure?(req: Request, res: Response, error: AuthenticationError): boolean;
}
