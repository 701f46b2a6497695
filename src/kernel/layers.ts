import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * One layer of the kernel, in the order requests cross them. `docs/ARCHITECTURE.md` says why
 * each stands where it does. This list is the one place the order is written down.
 */
export interface Layer {
  /** Name shown in the profiler's timeline. */
  readonly name: string;
  /** The middleware; Express tells an error handler `(err, req, res, next)` by its four parameters. */
  readonly handler: RequestHandler | ErrorRequestHandler;
}

/**
 * The layers a caller can plug handlers into (`KernelOptions.layers`), in order: the only place
 * their names are written.
 */
export const PLUGGABLE_LAYERS = ['security-headers', 'cors', 'session', 'firewall', 'locale', 'time-zone'] as const;

/** A layer a caller can plug handlers into. */
export type PluggableLayer = (typeof PLUGGABLE_LAYERS)[number];

/** The layer names, in order. Layers not configured are left out. */
export const LAYER_ORDER = [
  'request',        // req.kernel: URI parts, effective method
  'profiler',       // token, X-Debug-Token headers, profile written when the response ends
  ...PLUGGABLE_LAYERS,
  'router',         // match, redirect, controller (body parsing and post-deserialization checks run per route)
  'error',          // not found / method not allowed / exceptions rendered
] as const;

export type LayerName = (typeof LAYER_ORDER)[number];

/**
 * Sorts layers into {@link LAYER_ORDER}.
 * @throws Error for a layer whose name is not in the order
 */
export function orderLayers(layers: Layer[]): Layer[] {
  // Array.prototype.sort is stable: layers with the same name keep their given order
  for (const l of layers) {
    if (!(LAYER_ORDER as readonly string[]).includes(l.name)) {
      throw new Error(`Unknown layer "${l.name}": add it to LAYER_ORDER in src/kernel/layers.ts.`);
    }
  }
  const rank = (layer: { name: string }): number => LAYER_ORDER.indexOf(layer.name as LayerName);
  return [...layers].sort((a, b) => rank(a) - rank(b));
}
