import type { NextFunction, Request, Response } from 'express';
import type { Route } from '../routing/Route';
import type { RouteCollection } from '../routing/RouteCollection';
import { denyAccess } from './ExceptionListener';
import { AccessDecision, isGranted } from './SecurityState';
import type { SecurityUser } from './SecurityUser';
import { z } from 'zod';
import { functionOption } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { defineRequestSlot } from '../http/requestSlots';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The stored object the matched route's `provider` loaded (null when none), set by
     * {@link accessCheck} (or {@link postDenormalizeCheck} when it runs alone); API Platform's
     * `data` request attribute.
     */
    storedObject?: object | null;
  }
}
defineRequestSlot('storedObject');

/** What a route's `security` check sees (API Platform's `security` expression variables). */
export interface SecurityContext {
  /** The authenticated user, or null. */
  readonly user: SecurityUser | null;
  /** The user's roles, hierarchy applied. */
  readonly roles: readonly string[];
  /** The route parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The stored object the route's `provider` loaded, or null (none, or a create). */
  readonly object: object | null;
  readonly request: Request;
  /** `is_granted(attribute)`: a role (hierarchy applied), `PUBLIC_ACCESS` or `IS_AUTHENTICATED`. */
  readonly isGranted: (attribute: string) => boolean;
}

/** What a route's `securityPostDenormalize` check sees. */
export interface PostDenormalizeContext extends Omit<SecurityContext, 'object'> {
  /** The new, unpersisted object built from the request body. */
  readonly object: object;
  /** A shallow clone of the stored object before the change, or null on create. */
  readonly previousObject: object | null;
}

/** A check: true grants access. A throw is rendered as a 500. */
export type SecurityCheck<C> = (context: C) => boolean | Promise<boolean>;

/**
 * Per-route access checks and resource loading, in a route's `options` (API Platform's
 * operation `security`, `securityPostDenormalize`, state provider and deserializer). Run by the
 * route handlers {@link accessCheck}, {@link bodyParsing} and {@link postDenormalizeCheck}.
 * @example new Route('/api/books/{id}', { methods: ['PUT'], controller, options: {
 *   provider: (req) => books.get(req.params.id) ?? null,
 *   security: ({ isGranted }) => isGranted('ROLE_USER'),
 *   securityPostDenormalize: ({ object, previousObject, isGranted }) =>
 *     isGranted('ROLE_ADMIN') || object.featured === previousObject?.featured,
 * } satisfies SecuredRouteOptions })
 */
export interface SecuredRouteOptions {
  /** Runs before the body is read, with the stored object; false is a 403 (401 when anonymous). */
  security?: SecurityCheck<SecurityContext>;
  /** The 403's message when `security` fails. @default 'Access Denied.' */
  securityMessage?: string;
  /** Runs after the new object was built from the body (POST, PUT, PATCH); false is a 403. */
  securityPostDenormalize?: SecurityCheck<PostDenormalizeContext>;
  /** The 403's message when `securityPostDenormalize` fails. @default 'Access Denied.' */
  securityPostDenormalizeMessage?: string;
  /** Loads the stored object the request is about; null when there is none. */
  provider?: (req: Request) => object | null | undefined | Promise<object | null | undefined>;
  /**
   * Builds the new object from the parsed body (`req.body`).
   * @param previous - a shallow clone of the stored object (free to mutate), or null
   * @default `{ ...previous, ...req.body }` (the body must be a JSON object)
   */
  denormalize?: (req: Request, previous: object | null) => object | Promise<object>;
  /** The route takes JSON bodies only: another `Content-Type` with a body is a 415. @default false */
  json?: boolean;
}

const CHECKED = new WeakMap<Route, SecuredRouteOptions>();
const aFunction = functionOption('a function').optional();
const aString = z.string({ error: 'expected a string' }).optional();

/**
 * The security options among a route's options (which hold others too, so unknown keys are left
 * alone): checked here, typed by {@link SecuredRouteOptions}.
 */
const securedRouteOptionsSchema = z.looseObject({
  security: aFunction,
  securityMessage: aString,
  securityPostDenormalize: aFunction,
  securityPostDenormalizeMessage: aString,
  provider: aFunction,
  denormalize: aFunction,
  json: z.boolean({ error: 'expected true or false' }).optional(),
});

/**
 * Validates a route's security options (once per route, then cached).
 * @param name - the route name, for messages
 * @throws KernelConfigError e.g. `Invalid option "routes.book_update.options.security": expected a function…`
 */
export function securedRouteOptions(route: Route, name: string): SecuredRouteOptions {
  const cached = CHECKED.get(route);
  if (cached !== undefined) return cached;
  parseOptions(securedRouteOptionsSchema, route.options, `routes.${name}.options`);
  const o = route.options as SecuredRouteOptions;
  CHECKED.set(route, o);
  return o;
}

/**
 * Validates every route's security options at once, so mistakes fail at start-up.
 * @throws KernelConfigError naming the route and option
 */
export function validateSecuredRoutes(routes: RouteCollection): void {
  for (const [name, route] of routes.all()) securedRouteOptions(route, name);
}

/** @returns the matched route's security options, or undefined before routing or without a route */
export function matchedRouteOptions(req: Request): SecuredRouteOptions | undefined {
  const route = req.kernel?.routeDefinition;
  return route === undefined ? undefined : securedRouteOptions(route, req.kernel!.route ?? '?');
}

/**
 * Loads the stored object with the route's `provider` into `req.storedObject`, once per request.
 * @returns it, or null when the route has no provider or the provider found nothing
 */
export async function loadStoredObject(req: Request, o: SecuredRouteOptions): Promise<object | null> {
  if (req.storedObject === undefined) {
    req.storedObject = o.provider === undefined ? null : ((await o.provider(req)) ?? null);
  }
  return req.storedObject;
}

/** The context parts both checks share. */
export function baseContext(req: Request): Omit<SecurityContext, 'object'> {
  const state = req.security;
  return {
    user: state?.user ?? null,
    roles: state?.roles ?? [],
    params: req.params as Record<string, string>,
    request: req,
    isGranted: (attribute) => isGranted(state, attribute),
  };
}

/**
 * Runs one check, records the decision in `req.security.decisions`, and goes on or denies
 * (401 via the entry point when anonymous, else 403 with `message`).
 */
export async function enforce<C>(
  req: Request,
  res: Response,
  next: NextFunction,
  source: RouteCheckSource,
  check: SecurityCheck<C>,
  context: C,
  message: string | undefined,
): Promise<void> {
  const granted = (await check(context)) === true;
  recordDecision(req, source, granted);
  if (granted) return next();
  denyAccess(req, res, next, message);
}

/** The option each route check is declared with, as the profiler lists it. */
const CHECK_OPTION: Readonly<Record<RouteCheckSource, string>> = {
  security: 'security',
  security_post_denormalize: 'securityPostDenormalize',
  security_post_validation: 'securityPostValidation',
};

/** The sources of the checks a route (or an API operation) declares. */
export type RouteCheckSource = Exclude<AccessDecision['source'], 'access_control'>;

/**
 * Records a route check's decision in `req.security.decisions` (the profiler's security panel).
 * @param source - which check decided
 */
export function recordDecision(req: Request, source: RouteCheckSource, granted: boolean): void {
  req.security?.decisions.push({
    source,
    rule: `route "${req.kernel!.route ?? '?'}"`,
    attributes: [CHECK_OPTION[source]],
    result: granted ? 'granted' : 'denied',
  });
}
