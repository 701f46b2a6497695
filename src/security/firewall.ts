import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { StorageUnavailableError } from '../storage/StorageUnavailableError';
import { badCredentials, isAuthenticationError } from './AuthenticationError';
import type { Authenticator } from './Authenticator';
import { CSRF_SESSION_KEY } from './csrf';
import { denyAccess, failAuthentication, rememberEntryPoint } from './ExceptionListener';
import { FirewallOptions, ResolvedFirewall, ResolvedFirewallOptions, resolveFirewallOptions } from './FirewallOptions';
import { RequestFacts, requestFacts } from './RequestMatcher';
import type { SecurityState } from './SecurityState';
import type { SecurityUser } from './SecurityUser';
import { existingSession } from '../session/previousSession';
import { keepOutOfCaches } from './privateResponse';

/** The part of a session (express-session's `req.session`) the firewall uses. */
interface SessionLike {
  regenerate(callback: (err?: unknown) => void): void;
  [key: string]: unknown;
}

function sessionOf(req: Request, create = true): SessionLike | undefined {
  const s = create ? (req as { session?: unknown }).session : existingSession(req);
  return typeof s === 'object' && s !== null && typeof (s as SessionLike).regenerate === 'function'
    ? (s as SessionLike)
    : undefined;
}

/**
 * Symfony's `migrate` session strategy (`SessionStrategyListener`): when the authenticated user
 * changes, the session gets a new id (the old one is destroyed, against fixation), keeps its
 * data but the CSRF token, and remembers the new user. Without a session layer there is nothing to do.
 * @throws StorageUnavailableError (503) `Session storage is unavailable.` when the session
 *   layer flagged the store as down (`req.sessionUnavailable`), or when regenerating fails
 */
async function migrateSession(req: Request, key: string, identifier: string): Promise<void> {
  const session = sessionOf(req);
  if (session === undefined && (req as { sessionUnavailable?: boolean }).sessionUnavailable === true) {
    throw new StorageUnavailableError('Session', 'the session layer flagged the store as down');
  }
  if (session === undefined || session[key] === identifier) return;
  // the CSRF token is not carried over: a login gets a fresh one (Symfony's fix of CVE-2022-24895)
  const data = Object.fromEntries(Object.entries(session).filter(([k]) => k !== 'cookie' && k !== CSRF_SESSION_KEY));
  await new Promise<void>((resolve, reject) => session.regenerate((err: unknown) => {
    if (err === undefined || err === null) resolve();
    else reject(err instanceof Error ? err : new Error('Session regeneration failed.', { cause: err }));
  }))
    .catch((e: unknown) => {
      throw new StorageUnavailableError('Session', 'regenerating the session failed', { cause: e });
    });
  const fresh = sessionOf(req) ?? session;
  Object.assign(fresh, data, { [key]: identifier });
}

/**
 * The firewall layer (Symfony `Firewall` with its `ContextListener`, `AuthenticatorManager`,
 * `LoginThrottlingListener`, `SessionStrategyListener`, `AccessListener` and `ExceptionListener`).
 * It runs on every request, in the kernel's `firewall` slot, before routing:
 * 1. picks the first firewall whose `pattern`/`host`/`methods` match (none, or `security: false`:
 *    the request goes on anonymous and unchecked);
 * 2. restores the user a stateful firewall keeps in the session (`_security_<name>`), reloaded
 *    from the provider;
 * 3. answers `POST` on a firewall's `logout.path` (see {@link LogoutListener}), else
 *    runs the first authenticator that supports the request: password attempts are throttled,
 *    checked by the provider, and a success migrates the session (new id) and may answer (JSON
 *    login), except a stateless authenticator's (Basic, bearer: no session is started or stored);
 *    a failure answers 401 (or 429 when throttled);
 * 4. sets `req.user` and `req.security` (roles expanded by the hierarchy); the response to an
 *    authenticated request gets `Cache-Control: no-store, private`, whatever else set it
 *    (`AUTHENTICATED_CACHE_CONTROL`: after a logout, Back does not show a page from the cache);
 * 5. applies the first matching `accessControl` rule, recorded in `req.security.decisions`:
 *    denied and anonymous → the entry point (http_basic: 401 `WWW-Authenticate: Basic
 *    realm="Secured Area"`, empty body); denied and authenticated → 403 `Access Denied.`.
 * HTTP errors (403, 429, 400, 503) go to `next(err)` for the kernel to render.
 * @param options - see {@link FirewallOptions}; validated here, once
 * @returns the layer
 * @throws KernelConfigError naming a bad option, e.g. `Invalid option "firewalls[0].pattern": …`
 */
export function firewall(options: FirewallOptions): RequestHandler {
  const config = resolveFirewallOptions(options);
  return function securityFirewall(req: Request, res: Response, next: NextFunction) {
    // synchronous unless a user is restored or an authenticator runs (Express catches a throw)
    const pending = handle(config, req, res, next);
    if (pending !== undefined) pending.catch(next);
  };
}

/**
 * Makes `user` the request's user: `req.user`, `req.security` with the roles the hierarchy
 * reaches, and `Cache-Control: no-store, private` on the response ({@link keepOutOfCaches}).
 */
function login(
  config: ResolvedFirewallOptions,
  req: Request,
  state: SecurityState,
  user: SecurityUser,
  by: string,
): void {
  state.user = user;
  state.roles = Object.freeze(config.roleHierarchy.reachableRoles(user.roles));
  state.authenticator = by;
  req.user = user;
  // what an authenticated request is answered is this user's: kept out of every cache
  if (req.res !== undefined) keepOutOfCaches(req.res);
}

function handle(
  config: ResolvedFirewallOptions,
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<void> | undefined {
  const facts = requestFacts(req);
  const fw = facts === null ? undefined : config.firewalls.find((f) => f.matcher.matches(facts));
  const state: SecurityState = {
    firewall: fw?.name ?? null, user: null, roles: [], authenticator: null, decisions: [],
  };
  req.security = state;
  req.user = undefined;
  // an invalid Host is answered by the router; no firewall or `security: false`: nothing to do
  if (facts === null || fw === undefined || !fw.security) return void next();
  rememberEntryPoint(req, fw.entryPoint);

  // only a session the request came with is read: an anonymous request starts none
  const session = fw.stateless ? undefined : sessionOf(req, false);
  // the request came with a session the store could not load: who it is is unknown, not anonymous
  if (!fw.stateless && session === undefined && req.sessionUnavailable === true) {
    return void next(new StorageUnavailableError('Session', 'the session could not be loaded'));
  }
  const remembered = session?.[fw.sessionKey];
  if (fw.logout?.matches(req) === true) {
    // answered before the user is reloaded: a signed-in user's logout (a 403 without its token
    // included) is kept out of caches like any answer to them
    if (typeof remembered === 'string') keepOutOfCaches(res);
    return fw.logout.handle(req, res, next);
  }
  const restore = typeof remembered === 'string' && fw.provider !== undefined;
  const authenticator = fw.authenticators.find((a) => a.supports(req));
  if (!restore && authenticator === undefined) return void decideAccess(config, req, res, next, facts, state);
  return authenticateThenDecide({
    config, fw, req, res, next, facts, state, remembered: restore ? remembered : undefined, session, authenticator,
  });
}

/** What {@link authenticateThenDecide} works on: one request under one firewall. */
interface FirewallRequest {
  readonly config: ResolvedFirewallOptions;
  readonly fw: ResolvedFirewall;
  readonly req: Request;
  readonly res: Response;
  readonly next: NextFunction;
  readonly facts: RequestFacts;
  readonly state: SecurityState;
  /** The user identifier the session holds, when the firewall has a provider to reload it with. */
  readonly remembered: string | undefined;
  /** The session the request came with (undefined on a stateless firewall or without one). */
  readonly session: SessionLike | undefined;
  /** The first authenticator that supports the request, if any. */
  readonly authenticator: Authenticator | undefined;
}

/**
 * Reloads the session's user, runs the authenticator (a failure answers through it), logs the
 * user in, then lets the access map decide.
 */
async function authenticateThenDecide(request: FirewallRequest): Promise<void> {
  const { config, fw, req, res, next, facts, state, remembered, session, authenticator } = request;
  if (remembered !== undefined) {
    const user = await fw.provider!.loadUserByIdentifier(remembered);
    if (user !== null) login(config, req, state, user, 'session');
    else delete session?.[fw.sessionKey];
  }
  if (authenticator !== undefined) {
    let user: SecurityUser;
    try {
      user = await authenticate(config, fw, authenticator, req, facts);
    } catch (e) {
      if (isAuthenticationError(e)) return failAuthentication(req, res, next, authenticator, e);
      throw e;
    }
    // credentials sent with every request (Basic, bearer) are not kept: no session, no cookie
    if (!fw.stateless && authenticator.stateless !== true) await migrateSession(req, fw.sessionKey, user.identifier);
    login(config, req, state, user, authenticator.name);
    if (authenticator.onAuthenticationSuccess?.(req, res, user) === true) return;
  }
  decideAccess(config, req, res, next, facts, state);
}

/** The first matching `accessControl` rule decides; its decision is recorded in `req.security.decisions`. */
function decideAccess(
  config: ResolvedFirewallOptions,
  req: Request,
  res: Response,
  next: NextFunction,
  facts: RequestFacts,
  state: SecurityState,
): void {
  const decision = config.accessMap.decide(req, facts);
  if (decision !== null) {
    state.decisions.push(decision);
    if (decision.result === 'denied') return denyAccess(req, res, next);
  }
  next();
}

/**
 * The password checks of each request, per user provider and credentials: a password is checked
 * (and its failure counted by the throttler) once per request, however many firewall layers ask.
 */
const passwordChecks = new WeakMap<Request, WeakMap<object, Map<string, Promise<SecurityUser>>>>();

/**
 * Completes an authenticator's passport: throttles and checks a password, or loads the user.
 * @throws AuthenticationError bad credentials or too many attempts
 */
async function authenticate(
  config: ResolvedFirewallOptions,
  fw: ResolvedFirewall,
  authenticator: Authenticator,
  req: Request,
  facts: RequestFacts,
): Promise<SecurityUser> {
  const passport = await authenticator.authenticate(req);
  const provider = fw.provider as NonNullable<ResolvedFirewall['provider']>;
  if (passport.password !== undefined) {
    let byProvider = passwordChecks.get(req);
    if (byProvider === undefined) passwordChecks.set(req, (byProvider = new WeakMap()));
    let checks = byProvider.get(provider);
    if (checks === undefined) byProvider.set(provider, (checks = new Map<string, Promise<SecurityUser>>()));
    const key = `${passport.userIdentifier}\0${passport.password}`;
    let check = checks.get(key);
    if (check === undefined) {
      check = checkPassword(config, provider, passport.userIdentifier, passport.password, facts.ip);
      checks.set(key, check);
    }
    return check;
  }
  const user = passport.user ?? (await provider.loadUserByIdentifier(passport.userIdentifier));
  if (user === null) throw badCredentials();
  return user;
}

/**
 * Symfony's `CheckCredentialsListener` between the `LoginThrottlingListener`'s peek (refused
 * before the check once over the limit) and its count of the failure; a success forgets the
 * failures there were.
 * @throws AuthenticationError bad credentials or too many attempts
 */
async function checkPassword(
  config: ResolvedFirewallOptions, provider: NonNullable<ResolvedFirewall['provider']>,
  identifier: string, password: string, ip: string,
): Promise<SecurityUser> {
  const hadFailures = (await config.throttler?.check(identifier, ip)) ?? false;
  const user = await provider.checkPassword(identifier, password);
  if (user === null) {
    await config.throttler?.fail(identifier, ip);
    throw badCredentials();
  }
  if (hadFailures) await config.throttler?.reset(identifier, ip);
  return user;
}
