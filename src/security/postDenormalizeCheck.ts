import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequestHttpError } from '../http/errors';
import { baseContext, enforce, loadStoredObject, matchedRouteOptions, type SecuredRouteOptions } from './RouteSecurity';
import { defineRequestSlot } from '../http/requestSlots';

/** The new object and the stored one before the change, for the controller to persist. */
export interface DenormalizedState {
  /** The new, unpersisted object built from the body. */
  readonly object: object;
  /** A shallow clone of the stored object, or null on create. */
  readonly previousObject: object | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by {@link postDenormalizeCheck}; the controller only runs when `securityPostDenormalize` granted access. */
    denormalized?: DenormalizedState;
  }
}
defineRequestSlot('denormalized');

const WRITE_METHODS = ['POST', 'PUT', 'PATCH'];

/** A shallow clone that keeps the prototype (PHP's `clone`); nested objects are shared. */
function shallowClone(o: object): object {
  if (Array.isArray(o)) return [...(o as unknown[])];
  return Object.assign(Object.create(Object.getPrototypeOf(o) as object | null) as object, o);
}

/**
 * The third route handler (API Platform's deserializer plus `securityPostDenormalize`): on
 * POST, PUT and PATCH to a route with a `provider`, `denormalize` or `securityPostDenormalize`
 * option, builds the new object from the parsed body (default `{ ...previous, ...req.body }`),
 * runs `securityPostDenormalize` with it and a shallow clone of the stored object as
 * `previousObject`, then sets `req.denormalized = { object, previousObject }`. Neither
 * `denormalize` nor the check can change `req.storedObject`: each gets its own clone. A denial is
 * a 403 `Access Denied.` (or `securityPostDenormalizeMessage`) and the controller does not run,
 * so nothing is persisted. A default denormalization of a body that is not a JSON object is a 400.
 */
export function postDenormalizeCheck(): RequestHandler {
  return function securityPostDenormalizeCheck(req: Request, res: Response, next: NextFunction) {
    const o = matchedRouteOptions(req);
    if (o === undefined || !WRITE_METHODS.includes(req.kernel!.method)) return next();
    if (o.provider === undefined && o.denormalize === undefined && o.securityPostDenormalize === undefined) {
      return next();
    }
    run(req, res, next, o).catch(next);
  };
}

async function run(req: Request, res: Response, next: NextFunction, o: SecuredRouteOptions): Promise<void> {
  const stored = await loadStoredObject(req, o);
  const previousObject = stored === null ? null : shallowClone(stored);
  let object: object;
  if (o.denormalize !== undefined) {
    object = await o.denormalize(req, stored === null ? null : shallowClone(stored));
  } else {
    const body: unknown = req.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new BadRequestHttpError('Expected a JSON object body.');
    }
    object = { ...(stored ?? {}), ...(body ?? {}) };
  }
  req.denormalized = Object.freeze({ object, previousObject });
  if (o.securityPostDenormalize === undefined) return next();
  await enforce(
    req, res, next, 'security_post_denormalize', o.securityPostDenormalize,
    { ...baseContext(req), object, previousObject }, o.securityPostDenormalizeMessage,
  );
}
