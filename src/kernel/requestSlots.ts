import type { Request } from 'express';
import { requestSlotNames } from '../http/requestSlots';

/**
 * Where the layers keep their per-request values inside a kernel.
 *
 * Every property a layer adds to an Express request grows that request's property store (V8
 * copies it, a few slots at a time), which showed as garbage on every request. Inside a kernel the
 * request's prototype (the kernel's `app.request`) carries one accessor per slot name, defined
 * once by {@link installRequestSlots}, and the values live in `req.kernel`, an object made with
 * all its fields: `req.user = u` in a layer writes `req.kernel.user`. Outside a kernel the same
 * layer code writes plain properties. The names are the ones the layers define, each in its own
 * module, with `defineRequestSlot` (`src/http/requestSlots.ts`): the kernel lists none of them.
 */

/**
 * The slots' storage: each name defined with `defineRequestSlot` so far, initialised to undefined,
 * so every request's object has one shape.
 */
export class RequestSlots {
  constructor() {
    const self = this as unknown as Record<string | symbol, unknown>;
    for (const key of requestSlotNames()) self[key] = undefined;
  }
}

type SlotKey = string | symbol;
type WithSlots = Request & { kernel?: Record<SlotKey, unknown> };

/** Stores a slot's value: in `req.kernel` inside a kernel, else as a plain property of the request. */
function setSlot(req: Request, key: SlotKey, value: unknown): void {
  const state = (req as WithSlots).kernel;
  if (state !== undefined) state[key] = value;
  else Object.defineProperty(req, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Defines the slot accessors on a kernel's request prototype (its `app.request`), once: one per
 * name defined so far (the kernel's modules load every built-in layer first). A request without
 * `req.kernel` (never one that crossed the kernel's first layer) gets a plain property instead.
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
      // Otherwise Express's own (a parent app's when mounted).
      return uri !== undefined
        ? uri.scheme === 'https'
        : Reflect.get(Object.getPrototypeOf(proto) as object, 'secure', this) as boolean;
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
  // without these accessors a kernel request costs 1.43× the instructions (1,385k, 972k with them)
  // and 1.36× the server CPU time (`npm run bench -- tricks --count` and `--http`)
  for (const key of requestSlotNames()) {
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
