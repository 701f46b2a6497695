/**
 * The error-code registry: one stable code per error, with the HTTP status an error of that code
 * is answered with (`undefined` for an error that is not an HTTP error: a domain error a layer
 * translates, or a start-up error) and the template its message follows. Codes are prefixed by
 * the layer that raises them. {@link KernelError} reads the code, `HttpError` its status, and each
 * error class fills the template with {@link formatMessage}.
 *
 * `tests/errors/codes.test.ts` keeps this registry, `docs/ERRORS.md`, the {@link ErrorCode} union
 * and the error classes in sync. Mirrors fastify's `lib/errors.js` (`@fastify/error`).
 */
export const ERROR_CODES = {
  ERR_ROUTING_RESOURCE_NOT_FOUND: { status: undefined, template: 'No routes found for "%s".' },
  ERR_ROUTING_NO_CONFIGURATION: { status: undefined, template: 'No routes found for "%s".' },
  ERR_ROUTING_METHOD_NOT_ALLOWED: { status: undefined, template: 'Method "%s" is not allowed (Allow: %s).' },
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
  ERR_HTTP_NOT_FOUND: { status: 404, template: 'No route found for "%s %s"%s' },
  ERR_HTTP_METHOD_NOT_ALLOWED: { status: 405, template: 'No route found for "%s %s": Method Not Allowed (Allow: %s)' },
  ERR_HTTP_BAD_REQUEST: { status: 400, template: '%s' },
  ERR_HTTP_INVALID_HOST: { status: 400, template: 'Invalid Host "%s".' },
  ERR_HTTP_INVALID_FORWARDED_HEADER: { status: 400, template: 'Invalid %s header "%s".' },
  ERR_HTTP_UNTRUSTED_HOST: { status: 400, template: 'Untrusted Host "%s".' },
  ERR_HTTP_JSON_TOO_DEEP: {
    status: 400,
    template: 'Malformed JSON body: nested deeper than the limit of %s arrays and objects.',
  },
  ERR_HTTP_UNAUTHORIZED: { status: 401, template: 'Full authentication is required to access this resource.' },
  ERR_HTTP_FORBIDDEN: { status: 403, template: 'Access Denied.' },
  ERR_HTTP_PAYLOAD_TOO_LARGE: { status: 413, template: 'Unreadable request body: %s' },
  ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: { status: 415, template: '%s' },
  ERR_HTTP_TOO_MANY_REQUESTS: { status: 429, template: '%s' },
  ERR_HTTP_SERVICE_UNAVAILABLE: { status: 503, template: '%s' },
  ERR_HTTP_STORAGE_UNAVAILABLE: { status: 503, template: '%s storage is unavailable.' },
  ERR_HTTP_ERROR_TEMPLATE: { status: undefined, template: 'the template %s does not compile: %s' },
  ERR_FIREWALL_BAD_CREDENTIALS: { status: undefined, template: 'Invalid credentials.' },
  ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS: {
    status: undefined,
    template: 'Too many failed login attempts, please try again in %s.',
  },
  ERR_FIREWALL_INVALID_CSRF_TOKEN: { status: undefined, template: 'Invalid CSRF token.' },
  ERR_API_INVALID_QUERY: { status: 400, template: '%s' },
  ERR_API_ITEM_NOT_FOUND: { status: 404, template: '%s' },
  ERR_API_FORMAT_NOT_SUPPORTED: { status: 404, template: 'Format "%s" is not supported' },
  ERR_API_NOT_ACCEPTABLE: { status: 406, template: 'Not Acceptable: %s' },
  ERR_API_CONFLICT: { status: 409, template: '%s' },
  ERR_API_PRECONDITION_FAILED: { status: 412, template: '%s' },
  ERR_API_VALIDATION_FAILED: { status: 422, template: '%s' },
  ERR_ADMIN_UNEXPECTED_OUTCOME: {
    status: undefined,
    template: 'The %s processor\'s %s answered "%s", which the back office has no screen for.',
  },
  ERR_ADMIN_LOGOUT_NOT_CONFIGURED: {
    status: undefined,
    template: 'POST %s reached its controller: configure the firewall\'s logout (path "%s") so it answers the request.',
  },
  ERR_PROFILER_PANEL_NOT_FOUND: { status: 404, template: 'Panel "%s" is not available for token "%s".' },
  ERR_PROFILER_INVALID_CRITERION: { status: 400, template: 'Invalid query parameter "%s": expected %s (got %s).' },
  ERR_STORAGE_MISSING_PEER_DEPENDENCY: {
    status: undefined,
    template: '%s is not installed: npm install %s (needed for %s)',
  },
  ERR_CONFIG_INVALID_OPTION: { status: undefined, template: 'Invalid option "%s": %s' },
  ERR_CLI_ROUTES_MODULE: { status: undefined, template: '%s' },
  ERR_CLI_INVALID_OPTION: { status: undefined, template: 'The "--%s" option expects %s, "%s" given.' },
} as const satisfies Record<string, { readonly status: number | undefined; readonly template: string }>;

/** Every stable error code, as a string union. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes that have an HTTP status: the codes an `HttpError` can carry. */
export type HttpErrorCode = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends number ? C : never;
}[ErrorCode];

/** Each template cut at its `%s` placeholders, once, so a message is a few concatenations. */
const PARTS = new Map<string, readonly string[]>(
  Object.entries(ERROR_CODES).map(([code, { template }]) => [code, template.split('%s')]),
);

/**
 * Fills a registry template: each `%s` takes the next argument, in order; a missing argument
 * leaves the empty string.
 * @param code - a registry code
 * @param args - the values, in template order
 * @returns the message
 */
export function formatMessage(code: ErrorCode, ...args: ReadonlyArray<string | number>): string {
  const parts = PARTS.get(code)!;
  let message = parts[0];
  for (let i = 1; i < parts.length; i++) message += String(args[i - 1] ?? '') + parts[i];
  return message;
}
