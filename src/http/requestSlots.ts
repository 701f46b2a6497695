/**
 * The names of the request properties the layers set on every request they see (`req.cors`,
 * `req.user`, `req.locale`, ...), each defined by its layer, in its own module, with
 * {@link defineRequestSlot}.
 *
 * A kernel gives each defined name an accessor on its requests' prototype that keeps the value in
 * `req.kernel`, an object made with all the names at once, so that writing them does not grow every
 * request's own property store (see `kernel/requestSlots.ts`). Outside a kernel, or for a name
 * defined after the kernel was made, the same layer code writes a plain property of the request:
 * the registry only decides where a value is kept, never what a reader sees.
 */

const slots: Array<string | symbol> = [];

/** Names a kernel defines itself on its requests (`req.kernel`, `req.log`, `req.secure`). */
const KERNEL_OWNED: ReadonlySet<string | symbol> = new Set(['kernel', 'log', 'secure']);

/**
 * Registers a request property as a slot, once (defining it again is a no-op). Call it at module
 * load, beside the `declare module 'express-serve-static-core'` that types the property.
 * @param name - the property: a string (`'cors'`) or a symbol for private state
 * @returns `name`, unchanged
 * @throws TypeError for `kernel`, `log` or `secure`, which the kernel defines itself
 * @example defineRequestSlot('cors');
 */
export function defineRequestSlot<K extends string | symbol>(name: K): K {
  if (KERNEL_OWNED.has(name)) {
    throw new TypeError(`"${String(name)}" is not a request slot name: the kernel defines it.`);
  }
  if (!slots.includes(name)) slots.push(name);
  return name;
}

/**
 * @returns the names defined so far with {@link defineRequestSlot}, in definition order (a live,
 *   read-only view: names defined later appear in it)
 */
export function requestSlotNames(): readonly (string | symbol)[] {
  return slots;
}
