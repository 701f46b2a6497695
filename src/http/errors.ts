import { ERROR_CODES, formatMessage, HttpErrorCode } from '../errors/codes';
import { isKernelError, KernelError, KernelErrorOptions } from '../errors/KernelError';
import { frozenList, frozenRecord } from '../support/frozen';

declare module '../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_HTTP_NOT_FOUND: NotFoundHttpError;
    ERR_HTTP_METHOD_NOT_ALLOWED: MethodNotAllowedHttpError;
    ERR_HTTP_BAD_REQUEST: BadRequestHttpError;
    ERR_HTTP_INVALID_HOST: BadRequestHttpError;
    ERR_HTTP_INVALID_FORWARDED_HEADER: BadRequestHttpError;
    ERR_HTTP_UNTRUSTED_HOST: BadRequestHttpError;
    ERR_HTTP_JSON_TOO_DEEP: BadRequestHttpError;
    ERR_HTTP_UNAUTHORIZED: HttpError;
    ERR_HTTP_FORBIDDEN: AccessDeniedHttpError;
    ERR_HTTP_PAYLOAD_TOO_LARGE: HttpError;
    ERR_HTTP_UNSUPPORTED_MEDIA_TYPE: HttpError;
    ERR_HTTP_TOO_MANY_REQUESTS: TooManyRequestsHttpError;
    ERR_HTTP_SERVICE_UNAVAILABLE: ServiceUnavailableHttpError;
  }
}

/** Options shared by every {@link HttpError}. */
export interface HttpErrorOptions extends KernelErrorOptions {
  /** Response headers to send with the error, e.g. `Allow` or `WWW-Authenticate`. */
  headers?: Record<string, string>;
}

/** The headers of an error that has none: one frozen record for all. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * An error that maps to an HTTP status (Symfony `HttpException`): the status is its code's, from
 * the registry (`src/errors/codes.ts`). Its message is safe to show to the client for 4xx
 * statuses. Express's final handler also understands `status` and `headers`. (Any other error
 * with a numeric `status` of 400–599, e.g. from `http-errors`, is answered with that status too.)
 */
export class HttpError extends KernelError {
  override name = 'HttpError';
  declare readonly code: HttpErrorCode;
  /** The HTTP status, from the registry. */
  readonly status: number;
  /** The same as `status`, for libraries that read `statusCode`. */
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;

  /**
   * @param code - the registry code: it sets the status (e.g. `ERR_HTTP_PAYLOAD_TOO_LARGE`: 413)
   * @param message - the message (exact, shown on debug pages and in `X-Debug-Exception`)
   * @param options - cause and headers
   */
  constructor(code: HttpErrorCode, message: string, options: HttpErrorOptions = {}) {
    super(code, message, options);
    this.status = this.statusCode = ERROR_CODES[code].status;
    // a frozen record is kept as is (the 405's cached `Allow`, see below)
    this.headers = options.headers === undefined ? NO_HEADERS : frozenRecord(options.headers);
  }
}

/**
 * True when `value` is an {@link HttpError}: a {@link KernelError} with a status, also across
 * realms and package copies (shorthand for {@link isKernelError} and a numeric `status`).
 */
export function isHttpError(value: unknown): value is HttpError {
  return isKernelError(value) && typeof (value as Partial<HttpError>).status === 'number';
}

/** 404 (Symfony `NotFoundHttpException`). */
export class NotFoundHttpError extends HttpError {
  override name = 'NotFoundHttpError';
  /**
   * @param message - e.g. `No route found for "GET http://localhost/nope"`
   * @param options - cause and headers
   * @param code - a 404 code of the registry @default 'ERR_HTTP_NOT_FOUND'
   */
  constructor(
    message: string,
    options: HttpErrorOptions = {},
    code: 'ERR_HTTP_NOT_FOUND' | 'ERR_PROFILER_PANEL_NOT_FOUND' = 'ERR_HTTP_NOT_FOUND',
  ) {
    super(code, message, options);
  }
}

/**
 * The frozen `{ Allow }` record of each `Allow` value seen, shared by the 405s that carry it: a
 * routing table has few distinct method lists. Bounded: past {@link ALLOW_HEADERS_MAX} values a
 * new record is made each time.
 */
const allowHeaderRecords = new Map<string, Readonly<Record<string, string>>>();
const ALLOW_HEADERS_MAX = 256;
/** The same records by frozen method list (a route's own list, see the matcher's `allowList`). */
const allowRecordsOfLists = new WeakMap<readonly string[], Readonly<Record<string, string>>>();

function allowHeaders(allow: string): Readonly<Record<string, string>> {
  let headers = allowHeaderRecords.get(allow);
  if (headers === undefined) {
    headers = Object.freeze({ Allow: allow });
    if (allowHeaderRecords.size < ALLOW_HEADERS_MAX) allowHeaderRecords.set(allow, headers);
  }
  return headers;
}

/** 405 with an `Allow` header (Symfony `MethodNotAllowedHttpException`). */
export class MethodNotAllowedHttpError extends HttpError {
  override name = 'MethodNotAllowedHttpError';
  readonly allowedMethods: readonly string[];
  /**
   * @param allowedMethods - the methods for the `Allow` header, in order
   * @param message - the message
   * @param options - cause and extra headers
   */
  constructor(allowedMethods: readonly string[], message: string, options: HttpErrorOptions = {}) {
    let headers = options.headers === undefined ? allowRecordsOfLists.get(allowedMethods) : undefined;
    if (headers === undefined) {
      const allow = allowedMethods.join(', ').toUpperCase();
      headers = options.headers === undefined ? allowHeaders(allow) : { ...options.headers, Allow: allow };
      if (options.headers === undefined && Object.isFrozen(allowedMethods)) {
        allowRecordsOfLists.set(allowedMethods, headers);
      }
    }
    super('ERR_HTTP_METHOD_NOT_ALLOWED', message, { cause: options.cause, stack: options.stack, headers });
    // the router passes MethodNotAllowedError's list, frozen: kept, not copied
    this.allowedMethods = frozenList(allowedMethods);
  }
}

/** The registry's 400 codes of the HTTP layer. */
type BadRequestCode = 'ERR_HTTP_BAD_REQUEST' | 'ERR_HTTP_INVALID_HOST' | 'ERR_HTTP_INVALID_FORWARDED_HEADER'
  | 'ERR_HTTP_UNTRUSTED_HOST' | 'ERR_HTTP_JSON_TOO_DEEP';

/** 400 (Symfony `BadRequestHttpException`), e.g. `Invalid Host "bad_host!".` */
export class BadRequestHttpError extends HttpError {
  override name = 'BadRequestHttpError';
  /**
   * @param message - the message
   * @param options - cause and headers
   * @param code - a 400 code of the registry @default 'ERR_HTTP_BAD_REQUEST'
   */
  constructor(message: string, options: HttpErrorOptions = {}, code: BadRequestCode = 'ERR_HTTP_BAD_REQUEST') {
    super(code, message, options);
  }
}

/** 401 with a `WWW-Authenticate` challenge (Symfony `UnauthorizedHttpException`). */
export class UnauthorizedHttpError extends HttpError {
  override name = 'UnauthorizedHttpError';
  constructor(challenge: string, message = formatMessage('ERR_HTTP_UNAUTHORIZED'), options: HttpErrorOptions = {}) {
    const headers = { ...(options.headers ?? {}), 'WWW-Authenticate': challenge };
    super('ERR_HTTP_UNAUTHORIZED', message, { ...options, headers });
  }
}

/** 403 (Symfony `AccessDeniedHttpException`), message `Access Denied.` by default. */
export class AccessDeniedHttpError extends HttpError {
  override name = 'AccessDeniedHttpError';
  constructor(message = formatMessage('ERR_HTTP_FORBIDDEN'), options: HttpErrorOptions = {}) {
    super('ERR_HTTP_FORBIDDEN', message, options);
  }
}

/** 429 with `Retry-After` in seconds (Symfony `TooManyRequestsHttpException`). */
export class TooManyRequestsHttpError extends HttpError {
  override name = 'TooManyRequestsHttpError';
  constructor(retryAfterSeconds: number, message: string, options: HttpErrorOptions = {}) {
    const headers = { ...(options.headers ?? {}), 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) };
    super('ERR_HTTP_TOO_MANY_REQUESTS', message, { ...options, headers });
  }
}

/**
 * 503 with `Retry-After` (Symfony `ServiceUnavailableHttpException`), e.g. when login throttling's
 * store is down; `Retry-After` is 5 seconds unless `options.headers` gives one.
 */
export class ServiceUnavailableHttpError extends HttpError {
  override name = 'ServiceUnavailableHttpError';
  constructor(message: string, options: HttpErrorOptions = {}) {
    const headers = { 'Retry-After': '5', ...(options.headers ?? {}) };
    super('ERR_HTTP_SERVICE_UNAVAILABLE', message, { ...options, headers });
  }
}
