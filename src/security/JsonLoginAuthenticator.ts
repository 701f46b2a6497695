import type { Request, Response } from 'express';
import { BadRequestHttpError } from '../http/errors';
import { AuthenticationError, badCredentials } from './AuthenticationError';
import type { Authenticator, Passport } from './Authenticator';
import {
  createJsonBodyReader, isJsonRequest, JsonBodyReader, JsonBodyReaderOptions,
} from '../http/body/JsonBodyReader';
import { decodedPathInfo } from './RequestMatcher';
import type { SecurityUser } from './SecurityUser';
import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

const CHECK_PATH = 'expected a path starting with "/"';

/** The options of {@link JsonLoginAuthenticator}: {@link JsonLoginAuthenticatorOptions}. */
export const jsonLoginAuthenticatorOptionsSchema = optionsObject({
  /** The path (decoded path info) that takes `POST` login requests. @default '/api/login' */
  checkPath: z.string({ error: CHECK_PATH }).startsWith('/', { error: CHECK_PATH }).default('/api/login'),
  /** Where the username is in the JSON body; dots go into nested objects. @default 'username' */
  usernamePath: nonEmptyString.default('username'),
  /** Where the password is in the JSON body. @default 'password' */
  passwordPath: nonEmptyString.default('password'),
  /** Largest login body, in bytes or as `'10kb'` (checked by the body reader). @default '10kb' */
  limit: z.custom<JsonBodyReaderOptions['limit']>().optional(),
});

/** Options of {@link JsonLoginAuthenticator}. */
export type JsonLoginAuthenticatorOptions = z.input<typeof jsonLoginAuthenticatorOptionsSchema>;

/** Symfony `UserBadge::MAX_USERNAME_LENGTH`. */
const MAX_USERNAME_LENGTH = 4096;

function at(data: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>(
    (o, k) => (typeof o === 'object' && o !== null && !Array.isArray(o)
      ? (o as Record<string, unknown>)[k]
      : undefined),
    data,
  );
}

/**
 * JSON login (Symfony `JsonLoginAuthenticator`, `json_login: { check_path: … }`): runs on
 * `POST <checkPath>` with a JSON body `{"username": "…", "password": "…"}`, reading the body
 * itself. On success the firewall migrates the session (new id, Symfony's `migrate` strategy)
 * and stores the user there; this authenticator then answers 200
 * `{"user": "<identifier>", "roles": [<roles, hierarchy included>]}`. Bad credentials answer 401
 * `{"error": "Invalid credentials."}`; a body without the keys is a 400 with Symfony's messages,
 * e.g. `The key "username" must be provided.`. It is not an entry point.
 */
export class JsonLoginAuthenticator implements Authenticator {
  readonly name = 'json_login';
  readonly checkPath: string;
  private readonly usernamePath: string;
  private readonly passwordPath: string;
  private readonly readBody: JsonBodyReader;

  /** @throws KernelConfigError naming the bad option, e.g. `Invalid option "checkPath"…` */
  constructor(options: JsonLoginAuthenticatorOptions = {}) {
    const o = parseOptions(jsonLoginAuthenticatorOptionsSchema, options, '');
    this.checkPath = o.checkPath;
    this.usernamePath = o.usernamePath;
    this.passwordPath = o.passwordPath;
    this.readBody = createJsonBodyReader({ limit: o.limit ?? '10kb' });
  }

  /** True for `POST <checkPath>` with a JSON `Content-Type`. */
  supports(req: Request): boolean {
    return req.kernel?.uri !== undefined && req.kernel.method === 'POST'
      && decodedPathInfo(req.kernel.uri.pathInfo) === this.checkPath && isJsonRequest(req);
  }

  /**
   * @returns a passport with the username and the password to check
   * @throws BadRequestHttpError (400) for a malformed body or missing keys
   * @throws AuthenticationError bad credentials for an empty password or a username over 4096 characters
   */
  async authenticate(req: Request): Promise<Passport> {
    await this.readBody(req, req.res as Response);
    const data: unknown = req.body;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new BadRequestHttpError('Invalid JSON.');
    }
    const username = this.read(data, this.usernamePath);
    const password = this.read(data, this.passwordPath);
    if (username.length > MAX_USERNAME_LENGTH || password === '') throw badCredentials();
    return { userIdentifier: username, password };
  }

  private read(data: unknown, path: string): string {
    const value = at(data, path);
    if (value === undefined) throw new BadRequestHttpError(`The key "${path}" must be provided.`);
    if (typeof value !== 'string') throw new BadRequestHttpError(`The key "${path}" must be a string.`);
    return value;
  }

  /** 200 `{"user": …, "roles": […]}`. */
  onAuthenticationSuccess(req: Request, res: Response, user: SecurityUser): boolean {
    res.status(200).json({ user: user.identifier, roles: req.security?.roles ?? user.roles });
    return true;
  }

  /** 401 `{"error": "Invalid credentials."}`. */
  onAuthenticationFailure(_req: Request, res: Response, error: AuthenticationError): boolean {
    res.status(401).json({ error: error.message });
    return true;
  }
}
