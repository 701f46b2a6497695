import type { Request } from 'express';

/** What a collector of an optional layer stores when the kernel was not given that layer. */
export interface NotEnabled {
  enabled: false;
}

/**
 * Reads what an optional layer left on the request (`req.security`, `req.cors`…) without
 * importing the layer: the profiler works whichever layers the kernel has.
 * @param key - the request property the layer sets
 * @param map - turns the layer's value into the collector's data (with `enabled: true`)
 * @returns `{ enabled: false }` when the property is absent
 */
export function fromLayer<L, T extends { enabled: true }>(
  req: Request,
  key: string,
  map: (value: L) => T,
): T | NotEnabled {
  const value = (req as unknown as Record<string, unknown>)[key];
  if (value === undefined || value === null) return { enabled: false };
  return map(value as L);
}
