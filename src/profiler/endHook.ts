import type { Response } from 'express';

/** `res.end`'s shape, arguments passed through untyped. */
export type ResponseEnd = (...args: unknown[]) => Response;

/**
 * A profiled response's `res.end`: the profiler's wrapper, which stays the outermost one, and
 * the wrappers other layers set after it (express-session's, the session's `SaveGuard`), which
 * the wrapper calls in turn, newest first.
 */
export class EndHook {
  /** Wrappers assigned to `res.end` after the hook, oldest first. */
  readonly later: ResponseEnd[] = [];
  /**
   * Set when the response starts ending (the wrapper's first call): a wrapper assigned from
   * then on is not part of this end and becomes `res.end` itself, a plain property.
   */
  ending = false;

  /** @param end - the profiler's wrapper, what `res.end` reads while the hook is on */
  constructor(readonly end: ResponseEnd) {}
}

/**
 * Where a profiled response keeps its {@link EndHook}: an own property of the response, which
 * a kernel declares on each response before changing its prototype (see {@link PROFILED_END}).
 */
export const END_HOOK: unique symbol = Symbol('profiler.endHook');
type HookedResponse = Response & { [END_HOOK]?: EndHook };

function hookOf(res: Response): EndHook | undefined {
  return (res as HookedResponse)[END_HOOK];
}

/** `res.end` read: the hook's wrapper, or the inherited `end` on a response without a hook. */
function profiledEnd(this: Response): ResponseEnd {
  const hook = hookOf(this);
  if (hook !== undefined) return hook.end;
  return Reflect.get(Object.getPrototypeOf(this) as object, 'end', this) as ResponseEnd;
}

/** `res.end = wrapper`: queued behind the hook's wrapper until the response starts ending. */
function wrapEnd(this: Response, wrapper: ResponseEnd): void {
  const hook = hookOf(this);
  if (hook !== undefined && !hook.ending) {
    hook.later.push(wrapper);
    return;
  }
  Object.defineProperty(this, 'end', { configurable: true, enumerable: true, writable: true, value: wrapper });
}

/**
 * The accessor a profiled response's `end` is. Its getter and setter are the same two functions
 * on every response, the hook itself is kept in the response's {@link END_HOOK}: V8 gives the
 * objects that define one accessor pair one shared hidden class, and a response whose accessor
 * had its own closures (or replaced an own data property `end`) a dictionary of properties of
 * its own, slower at every later property access (measured: docs/benchmarks/not-found.md, "The
 * profiler's `res.end` accessor"). A kernel defines it, and declares {@link END_HOOK}, on each
 * response before changing the response's prototype (`handleDirectly`), where both cost a
 * shared transition.
 */
export const PROFILED_END: Readonly<PropertyDescriptor> = Object.freeze({
  configurable: true, enumerable: true, get: profiledEnd, set: wrapEnd,
});

/**
 * Makes `hook.end` what `res.end` reads, and wrappers assigned to `res.end` later go to
 * `hook.later` (see {@link EndHook}).
 */
export function installEndHook(res: Response, hook: EndHook): void {
  (res as HookedResponse)[END_HOOK] = hook;
  Object.defineProperty(res, 'end', PROFILED_END);
}
