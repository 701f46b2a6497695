import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  baseContext, enforce, loadStoredObject, matchedRouteOptions, type SecuredRouteOptions, validateSecuredRoutes,
} from './RouteSecurity';
import { z } from 'zod';
import { optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';
import { RouteCollection } from '../routing/RouteCollection';

/** The options of {@link accessCheck}: {@link AccessCheckOptions}. */
export const accessCheckOptionsSchema = optionsObject({
  /** The routing table, to validate every route's security options now rather than on first use. */
  routes: z.instanceof(RouteCollection, { error: 'expected a RouteCollection' }).optional(),
});

/** Options of {@link accessCheck}. */
export type AccessCheckOptions = z.input<typeof accessCheckOptionsSchema>;

/**
 * The first route handler (API Platform's `AccessCheckerProvider` for `security`): after the
 * route matched and before the body is read, loads the stored object with the route's
 * `provider` into `req.storedObject`, then runs the route's `security` check with it. A denial is
 * a 403 `Access Denied.` (or `securityMessage`), or the entry point's 401 for an anonymous
 * client; the controller does not run. Put it first in the kernel's `routeHandlers`:
 * `[accessCheck(), bodyParsing(), postDenormalizeCheck()]`.
 * @throws KernelConfigError at construction, for a bad option or (with `routes`) a route's bad security option
 */
export function accessCheck(options: AccessCheckOptions = {}): RequestHandler {
  const { routes } = parseOptions(accessCheckOptionsSchema, options, '');
  if (routes !== undefined) validateSecuredRoutes(routes);
  return function securityAccessCheck(req: Request, res: Response, next: NextFunction) {
    const o = matchedRouteOptions(req);
    if (o === undefined) return next();
    // nothing to load or check: no promise, no microtask
    if (o.provider === undefined && o.security === undefined) {
      req.storedObject ??= null;
      return next();
    }
    run(req, res, next, o).catch(next);
  };
}

async function run(req: Request, res: Response, next: NextFunction, o: SecuredRouteOptions): Promise<void> {
  const stored = await loadStoredObject(req, o);
  if (o.security === undefined) return next();
  await enforce(req, res, next, 'security', o.security, { ...baseContext(req), object: stored }, o.securityMessage);
}
