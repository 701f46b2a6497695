import { ErrorCode, formatMessage } from '../errors/codes';

const HTTP_ERROR = Symbol.for('express-kernel.HttpError');

/** Options shared by every {@link HttpError}. */
export interface HttpErrorOptions {
  /** The error that caused this one (kept as `cause`, shown in the exception page and profile). */
  cause?: unknown;
  /** Response headers to send with the error, e.g. `Allow` or `WWW-Authenticate`. */
  headers?: Record<string, string>;
}

/**
 * An error that maps to an HTTP status (Symfony `HttpException`). Its message is safe to show to
 * the client for 4xx statuses. Express's final handler also understands `status` and `headers`.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly status: number;
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;
  readonly [HTTP_ERROR] = true;

  /**
   * @param status - the HTTP status code (400–599)
   * @param code - the stable code from the registry
   * @param message - the message (exact, shown on debug pages and in `X-Debug-Exception`)
   * @param options - cause and headers
   */
  constructor(status: number, code: ErrorCode, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.statusCode = status;
    this.code = code;
    this.headers = Object.freeze({ ...(options.headers ?? {}) });
  }
}

/** True when `value` is an {@link HttpError}, also across realms and package copies. */
export function isHttpError(value: unknown): value is HttpError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[HTTP_ERROR] === true;
}

/** 404 (Symfony `NotFoundHttpException`). */
export class NotFoundHttpError extends HttpError {
  override name = 'NotFoundHttpError';
  constructor(message: string, options: HttpErrorOptions = {}) {
    super(404, 'ERR_HTTP_NOT_FOUND', message, options);
  }
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
    super(405, 'ERR_HTTP_METHOD_NOT_ALLOWED', message, {
      ...options,
      headers: { ...(options.headers ?? {}), Allow: allowedMethods.join(', ').toUpperCase() },
    });
    this.allowedMethods = Object.freeze([...allowedMethods]);
  }
}

/** 400 (Symfony `BadRequestHttpException`), e.g. `Invalid Host "bad_host!".` */
export class BadRequestHttpError extends HttpError {
  override name = 'BadRequestHttpError';
  constructor(message: string, options: HttpErrorOptions = {}, code: ErrorCode = 'ERR_HTTP_BAD_REQUEST') {
    super(400, code, message, options);
  }
}

/** 401 with a `WWW-Authenticate` challenge (Symfony `UnauthorizedHttpException`). */
export class UnauthorizedHttpError extends HttpError {
  override name = 'UnauthorizedHttpError';
  constructor(challenge: string, message = 'Full authentication is required to access this resource.', options: HttpErrorOptions = {}) {
    super(401, 'ERR_HTTP_UNAUTHORIZED', message, { ...options, headers: { ...(options.headers ?? {}), 'WWW-Authenticate': challenge } });
  }
}

/** 403 (Symfony `AccessDeniedHttpException`), message `Access Denied.` by default. */
export class AccessDeniedHttpError extends HttpError {
  override name = 'AccessDeniedHttpError';
  constructor(message = formatMessage('ERR_HTTP_FORBIDDEN'), options: HttpErrorOptions = {}) {
    super(403, 'ERR_HTTP_FORBIDDEN', message, options);
  }
}

/** 429 with `Retry-After` in seconds (Symfony `TooManyRequestsHttpException`). */
export class TooManyRequestsHttpError extends HttpError {
  override name = 'TooManyRequestsHttpError';
  constructor(retryAfterSeconds: number, message: string, options: HttpErrorOptions = {}) {
    super(429, 'ERR_HTTP_TOO_MANY_REQUESTS', message, { ...options, headers: { ...(options.headers ?? {}), 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
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
    super(503, 'ERR_HTTP_SERVICE_UNAVAILABLE', message, { ...options, headers });
  }
}
