/**
 * The error-code registry: one stable code per error, with its HTTP status (when it has one) and
 * the template its message follows. Codes are prefixed by the layer that raises them.
 *
 * `tests/errors/codes.test.ts` keeps this registry, `docs/ERRORS.md` and the {@link ErrorCode}
 * union in sync. Mirrors fastify's `lib/errors.js`.
 */
export const ERROR_CODES = {
  ERR_ROUTING_RESOURCE_NOT_FOUND: { status: 404, template: 'No routes found for "%s".' },
  ERR_ROUTING_NO_CONFIGURATION: { status: 404, template: 'No routes found for "%s".' },
  ERR_ROUTING_METHOD_NOT_ALLOWED: { status: 405, template: 'Method "%s" is not allowed (Allow: %s).' },
  ERR_ROUTING_ROUTE_NOT_FOUND: {
    status: undefined,
    template: 'Unable to generate a URL for the named route "%s" as such route does not exist.',
  },
  ERR_ROUTING_MISSING_PARAMETERS: {
    status: undefined,
    template: 'Some mandatory parameters are missing ("%s") to generate a URL for route "%s".',
  },
  ERR_ROUTING_INVALID_PARAMETER: {
    status: undefined,
    template: 'Parameter "%s" for route "%s" must match "%s" ("%s" given) to generate a corresponding URL.',
  },
  ERR_ROUTING_INVALID_ROUTE: { status: undefined, template: 'Route "%s" is invalid: %s' },
  ERR_ROUTING_INVALID_ARGUMENT: { status: undefined, template: '%s' },
  ERR_ROUTING_CIRCULAR_REFERENCE: {
    status: undefined,
    template: 'Circular reference detected for route "%s", path: "%s".',
  },
  ERR_ROUTING_LOADER: { status: undefined, template: '%s' },
  ERR_HTTP_NOT_FOUND: { status: 404, template: 'No route found for "%s %s"' },
  ERR_HTTP_METHOD_NOT_ALLOWED: { status: 405, template: 'No route found for "%s %s": Method Not Allowed (Allow: %s)' },
  ERR_HTTP_BAD_REQUEST: { status: 400, template: '%s' },
  ERR_HTTP_INVALID_HOST: { status: 400, template: 'Invalid Host "%s".' },
  ERR_HTTP_INVALID_FORWARDED_HEADER: { status: 400, template: 'Invalid %s header "%s".' },
  ERR_HTTP_UNTRUSTED_HOST: { status: 400, template: 'Untrusted Host "%s".' },
  ERR_HTTP_UNAUTHORIZED: { status: 401, template: '%s' },
  ERR_HTTP_FORBIDDEN: { status: 403, template: 'Access Denied.' },
  ERR_HTTP_PAYLOAD_TOO_LARGE: { status: 413, template: '%s' },
  ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: { status: 415, template: '%s' },
  ERR_HTTP_TOO_MANY_REQUESTS: { status: 429, template: '%s' },
  ERR_HTTP_SERVICE_UNAVAILABLE: { status: 503, template: '%s' },
  ERR_HTTP_STORAGE_UNAVAILABLE: { status: 503, template: '%s storage is unavailable.' },
  ERR_HTTP_INTERNAL: { status: 500, template: '%s' },
  ERR_API_INVALID_QUERY: { status: 400, template: '%s' },
  ERR_API_ITEM_NOT_FOUND: { status: 404, template: '%s' },
  ERR_API_NOT_ACCEPTABLE: { status: 406, template: 'Not Acceptable: %s' },
  ERR_API_CONFLICT: { status: 409, template: '%s' },
  ERR_API_PRECONDITION_FAILED: { status: 412, template: '%s' },
  ERR_API_VALIDATION_FAILED: { status: 422, template: '%s' },
  ERR_PROFILER_PANEL_NOT_FOUND: { status: 404, template: 'Panel "%s" is not available for token "%s".' },
  ERR_CONFIG_INVALID_OPTION: { status: undefined, template: 'Invalid option "%s": %s' },
  ERR_CLI_ROUTES_MODULE: { status: undefined, template: 'Cannot load routes from "%s": %s' },
} as const;

/** Every stable error code, as a string union. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Fills a registry template: each `%s` takes the next argument, in order.
 * @param code - a registry code
 * @param args - the values, in template order
 * @returns the message
 */
export function formatMessage(code: ErrorCode, ...args: ReadonlyArray<string | number>): string {
  let i = 0;
  return ERROR_CODES[code].template.replace(/%s/g, () => String(args[i++] ?? ''));
}
