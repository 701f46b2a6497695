import type { Request } from 'express';

/**
 * Where the layers keep their per-request values inside a kernel.
 *
 * Every property a layer adds to an Express request grows that request's property store (V8
 * copies it, a few slots at a time), which showed as garbage on every request. Inside a kernel the
 * request's prototype (the kernel's `app.request`) carries one accessor per name below, defined
 * once by {@link installRequestSlots}, and the values live in `req.kernel`, an object made with
 * all its fields: `req.user = u` in a layer writes `req.kernel.user`. Outside a kernel the same
 * layer code writes plain properties on the request.
 */

/** The session layer's per-request state (its lazy start, its describer), see `sessionLayer`. */
export const SESSION_STATE: unique symbol = Symbol('express-kernel.session');
/** Whether the session layer left the request's session unstarted (no session cookie). */
export const SESSION_PENDING: unique symbol = Symbol('express-kernel.sessionPending');
/** The firewall's entry point for the request (who answers an anonymous denial). */
export const ENTRY_POINT: unique symbol = Symbol('express-kernel.entryPoint');
/** The locale layer's context, read by `routeLocale`. */
export const LOCALE_CONTEXT: unique symbol = Symbol('express-kernel.locale');

/** The request properties kept in `req.kernel` inside a kernel. */
export const REQUEST_SLOTS = [
  'cors', 'security', 'user', 'locale', 'localeInfo', 'timeZone', 'timeZoneInfo',
  'sessionUnavailable', 'storedObject', 'denormalized', SESSION_STATE, SESSION_PENDING, ENTRY_POINT, LOCALE_CONTEXT,
] as const;

/** A name of {@link REQUEST_SLOTS}. */
export type RequestSlot = (typeof REQUEST_SLOTS)[number];

/** The slots' storage: each one initialised to undefined, so every request's object has one shape. */
export class RequestSlots {
  cors: unknown = undefined;
  security: unknown = undefined;
  user: unknown = undefined;
  locale: unknown = undefined;
  localeInfo: unknown = undefined;
  timeZone: unknown = undefined;
  timeZoneInfo: unknown = undefined;
  sessionUnavailable: unknown = undefined;
  storedObject: unknown = undefined;
  denormalized: unknown = undefined;
  [SESSION_STATE]: unknown = undefined;
  [SESSION_PENDING]: unknown = undefined;
  [ENTRY_POINT]: unknown = undefined;
  [LOCALE_CONTEXT]: unknown = undefined;
}

type WithSlots = Request & { kernel?: Record<RequestSlot, unknown> };

/** Stores a slot's value: in `req.kernel` inside a kernel, else as a plain property of the request. */
function setSlot(req: Request, key: RequestSlot | 'log', value: unknown): void {
  const state = (req as { kernel?: Record<RequestSlot | 'log', unknown> }).kernel;
  if (state !== undefined) state[key] = value;
  else Object.defineProperty(req, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Defines the slot accessors on a kernel's request prototype (its `app.request`), once.
 * A request without `req.kernel` (never one that crossed the kernel's first layer) gets a plain
 * property instead.
 * @param proto - the prototype Express gives the kernel's requests
 */
export function installRequestSlots(proto: object): void {
  // req.secure agrees with the kernel's scheme (X-Forwarded-Proto from trusted proxies only), for
  // express-session's `secure: 'auto'` and any other reader
  Object.defineProperty(proto, 'secure', {
    configurable: true,
    enumerable: true,
    get(this: Request & { kernel?: { uri?: { scheme: string } } }) {
      const uri = this.kernel?.uri;
      return uri !== undefined ? uri.scheme === 'https' : Reflect.get(Object.getPrototypeOf(proto) as object, 'secure', this) as boolean; // Express's own (a parent app's when mounted)
    },
  });
  // req.log is made on first use: most requests never log, and a pino child costs an object graph
  Object.defineProperty(proto, 'log', {
    configurable: true,
    enumerable: false,
    get(this: Request) {
      const state = this.kernel;
      if (state === undefined) return undefined;
      if (state.log === undefined && state.makeLog !== undefined) state.log = state.makeLog(this);
      return state.log;
    },
    set(this: Request, value: unknown) {
      setSlot(this, 'log', value);
    },
  });
  for (const key of REQUEST_SLOTS) {
    Object.defineProperty(proto, key, {
      configurable: true,
      enumerable: false,
      get(this: WithSlots) {
        return this.kernel?.[key];
      },
      set(this: Request, value: unknown) {
        setSlot(this, key, value);
      },
    });
  }
}
