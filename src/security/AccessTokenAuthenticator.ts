import type { Request, Response } from 'express';
import { AuthenticationError, badCredentials } from './AuthenticationError';
import type { AuthenticationEntryPoint, Authenticator, Passport } from './Authenticator';
import type { SecurityUser } from './SecurityUser';
import { z } from 'zod';
import { functionOption, optionsObject, quotedParameter } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/**
 * Finds who a token belongs to (Symfony `AccessTokenHandlerInterface::getUserBadgeFrom`).
 * @param token - the bearer token as sent
 * @returns a user identifier (then the firewall's provider loads the user), the user itself, or
 *   null when the token is unknown, expired or revoked
 * @throws Error when the token store fails (the firewall answers 500)
 */
export type AccessTokenLookup = (
  token: string,
  req: Request,
) => string | SecurityUser | null | Promise<string | SecurityUser | null>;

/** The options of {@link AccessTokenAuthenticator}: {@link AccessTokenAuthenticatorOptions}. */
export const accessTokenAuthenticatorOptionsSchema = optionsObject({
  /**
   * Finds the user of a token. Compare secrets in constant time (`crypto.timingSafeEqual`) or
   * look up a hash.
   */
  lookup: functionOption<AccessTokenLookup>('a function (token, req) => user identifier | SecurityUser | null'),
  /** The realm of the `WWW-Authenticate: Bearer` challenge; left out when not set. @example 'api' */
  realm: quotedParameter.optional(),
});

/** Options of {@link AccessTokenAuthenticator}. */
export type AccessTokenAuthenticatorOptions = z.input<typeof accessTokenAuthenticatorOptionsSchema>;

/** RFC 6750 §2.1 `b64token`, as Symfony's `HeaderAccessTokenExtractor` reads it. */
const BEARER = /^bearer ([a-zA-Z0-9\-._~+/]+=*)$/i;

/**
 * Bearer tokens in `Authorization: Bearer <token>` (Symfony `AccessTokenAuthenticator`,
 * `access_token: { token_handler: … }`), for stateless API firewalls. An unknown token is a 401
 * with `WWW-Authenticate: Bearer error="invalid_token",error_description="Invalid credentials."`
 * and an empty body; as an entry point it answers 401 `WWW-Authenticate: Bearer` (with the realm
 * when set).
 */
export class AccessTokenAuthenticator implements Authenticator, AuthenticationEntryPoint {
  readonly name = 'access_token';
  /** Credentials come with every request: nothing is kept in the session (no session, no cookie). */
  readonly stateless = true;
  private readonly lookup: AccessTokenLookup;
  private readonly realm: string | undefined;

  /** @throws KernelConfigError `Invalid option "lookup": expected a function…` */
  constructor(options: AccessTokenAuthenticatorOptions) {
    const o = parseOptions(accessTokenAuthenticatorOptionsSchema, options, '');
    this.lookup = o.lookup;
    this.realm = o.realm;
  }

  /** True when `Authorization` is a well-formed Bearer header. */
  supports(req: Request): boolean {
    return typeof req.headers.authorization === 'string' && BEARER.test(req.headers.authorization);
  }

  /**
   * @returns a passport for the token's user
   * @throws AuthenticationError bad credentials when the lookup finds nobody
   */
  async authenticate(req: Request): Promise<Passport> {
    const m = BEARER.exec(req.headers.authorization ?? '');
    if (m === null) throw badCredentials();
    const found = await this.lookup(m[1], req);
    if (found === null || found === undefined || found === '') throw badCredentials();
    return typeof found === 'string' ? { userIdentifier: found } : { userIdentifier: found.identifier, user: found };
  }

  /** 401 with the `invalid_token` challenge and an empty body (Symfony's answer). */
  onAuthenticationFailure(_req: Request, res: Response, error: AuthenticationError): boolean {
    this.challenge(res, [['error', 'invalid_token'], ['error_description', error.message]]);
    return true;
  }

  /** 401 `WWW-Authenticate: Bearer[ realm="…"]`, empty body. */
  start(_req: Request, res: Response): void {
    this.challenge(res, []);
  }

  private challenge(res: Response, params: Array<[string, string]>): void {
    const all = this.realm === undefined ? params : [['realm', this.realm] as [string, string], ...params];
    const pairs = all.map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`).join(',');
    const header = all.length === 0 ? 'Bearer' : `Bearer ${pairs}`;
    res.status(401).setHeader('WWW-Authenticate', header);
    res.end();
  }
}
