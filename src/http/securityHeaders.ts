import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { resolveSecurityHeadersOptions } from './securityHeadersOptions';

/**
 * The security headers layer: helmet with the given options (RFC 9110 field names, helmet's
 * values). helmet runs per request: replaying its headers recorded once at construction measured
 * no cheaper (31.3k against 30.6k instructions a call, `bench/callgrindOps.sh helmet with 20000`,
 * docs/benchmarks/speed-tricks.md).
 * @param options - helmet's options, validated here ({@link resolveSecurityHeadersOptions})
 * @returns the layer
 * @throws KernelConfigError `Invalid option "securityHeaders.<key>": …` for a key helmet does not
 *   know (with "did you mean") or a value it refuses (with helmet's message)
 */
export function securityHeaders(options: HelmetOptions = {}): RequestHandler {
  return helmet(resolveSecurityHeadersOptions(options));
}
