import type { Request, Response } from 'express';
import { badCredentials } from './AuthenticationError';
import type { AuthenticationEntryPoint, Authenticator, Passport } from './Authenticator';
import { parseBasicCredentials } from './BasicCredentials';
import { z } from 'zod';
import { optionsObject, quotedParameter } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

/** The options of {@link HttpBasicAuthenticator}: {@link HttpBasicAuthenticatorOptions}. */
export const httpBasicAuthenticatorOptionsSchema = optionsObject({
  /**
   * The realm of the `WWW-Authenticate: Basic realm="…"` challenge. Printable ASCII without `"`
   * or `\`. @default 'Secured Area' (Symfony's default, the oracle's challenge)
   */
  realm: quotedParameter.default('Secured Area'),
});

/** Options of {@link HttpBasicAuthenticator}. */
export type HttpBasicAuthenticatorOptions = z.input<typeof httpBasicAuthenticatorOptionsSchema>;

/**
 * HTTP Basic authentication (Symfony `HttpBasicAuthenticator`, `http_basic: ~`): runs when the
 * request has a parseable `Authorization: Basic` header, and is the entry point that answers 401
 * `WWW-Authenticate: Basic realm="Secured Area"` with an empty `text/html` body, as the oracle
 * does (no exception: the response is the challenge). Bad credentials get the same 401.
 */
export class HttpBasicAuthenticator implements Authenticator, AuthenticationEntryPoint {
  readonly name = 'http_basic';
  /** Credentials come with every request: nothing is kept in the session (no session, no cookie). */
  readonly stateless = true;
  readonly realm: string;
  private readonly challenge: string;

  /** @throws KernelConfigError `Invalid option "realm": …` */
  constructor(options: HttpBasicAuthenticatorOptions = {}) {
    this.realm = parseOptions(httpBasicAuthenticatorOptionsSchema, options, '').realm;
    this.challenge = `Basic realm="${this.realm}"`;
  }

  /** True when `Authorization` holds Basic credentials that parse. */
  supports(req: Request): boolean {
    return parseBasicCredentials(req.headers.authorization) !== null;
  }

  /**
   * @returns a passport with the user-id and the password to check
   * @throws AuthenticationError bad credentials when the header does not parse
   */
  async authenticate(req: Request): Promise<Passport> {
    const credentials = parseBasicCredentials(req.headers.authorization);
    if (credentials === null) throw badCredentials();
    return { userIdentifier: credentials.username, password: credentials.password };
  }

  /** Answers the failure with the challenge, as Symfony's does. */
  onAuthenticationFailure(req: Request, res: Response): boolean {
    this.start(req, res);
    return true;
  }

  /** 401 with `WWW-Authenticate: Basic realm="<realm>"`, `text/html; charset=UTF-8`, empty body. */
  start(_req: Request, res: Response): void {
    res.status(401).setHeader('WWW-Authenticate', this.challenge);
    res.setHeader('Content-Type', 'text/html; charset=UTF-8');
    res.end();
  }
}
