import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers layer: helmet with the given options (RFC 9110 field names, helmet's
 * values). helmet runs per request: replaying its headers recorded once at construction measured
 * no cheaper (31.3k against 30.6k instructions a call, `bench/callgrindOps.sh helmet with 20000`,
 * docs/benchmarks/speed-tricks.md).
 * @param options - helmet's options, validated by helmet here (it throws on bad ones)
 * @returns the layer
 * @throws Error helmet's own, naming the bad option
 */
export function securityHeaders(options: HelmetOptions = {}): RequestHandler {
  return helmet(options);
}
