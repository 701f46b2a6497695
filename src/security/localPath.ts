import type { Request } from 'express';
import { z } from 'zod';

/** At most this many characters in a path a client names (`_target_path`). */
const MAX_LENGTH = 2048;

/**
 * True when `value` is a path on this site a redirect may go to: it starts with one `/` (not
 * `//` nor `/\`, which browsers read as another host) and has no control character nor
 * backslash, at most 2048 characters. Guards against open redirects, as Symfony's
 * `DefaultAuthenticationSuccessHandler` does by checking the target is no absolute URL.
 * @param value - any value, e.g. a form field
 */
export function isLocalPath(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_LENGTH
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    && /^\/(?![/\\])[^\u0000-\u001f\u007f\\]*$/.test(value);
}

const PATH = 'expected a path starting with "/", e.g. "/admin/login"';

/** An option naming a local path (see {@link isLocalPath}). */
export const localPathSchema = z.string({ error: PATH }).refine(isLocalPath, { error: PATH });

/**
 * `path` under the request's mount point (Symfony `HttpUtils::generateUri()` for a path: the
 * base URL first), for a `Location` header.
 * @param path - a local path such as `/admin/login`
 */
export function underBase(req: Request, path: string): string {
  return `${req.kernel?.uri?.baseUrl ?? ''}${path}`;
}
