import { formatMessage } from '../../errors/codes';
import { isKernelError } from '../../errors/KernelError';
import { HttpError, type HttpErrorOptions } from '../../http/errors';
import type { StoredItem } from '../state/types';

declare module '../../errors/KernelError' {
  interface KernelErrorClasses {
    ERR_API_INVALID_QUERY: InvalidQueryError;
    ERR_API_ITEM_NOT_FOUND: ItemNotFoundError;
    ERR_API_FORMAT_NOT_SUPPORTED: FormatNotSupportedError;
    ERR_API_NOT_ACCEPTABLE: NotAcceptableError;
    ERR_API_CONFLICT: ConflictError;
    ERR_API_PRECONDITION_FAILED: PreconditionFailedError;
    ERR_API_VALIDATION_FAILED: ValidationError;
  }
}

/**
 * The API layer's HTTP errors (API Platform's exceptions), each with an `ERR_API_*` code from the
 * registry. The route error renderer (`apiErrorRenderer`) writes them as problem details
 * (RFC 9457) or a JSON-LD `hydra:Error` / `ConstraintViolationList`.
 * @module
 */

/** One failed constraint (Symfony `ConstraintViolation`, as API Platform serializes it). */
export interface Violation {
  /** The property, e.g. `title` (empty for the whole object). */
  readonly propertyPath: string;
  readonly message: string;
  /** A stable code: zod's issue code (`invalid_type`, `too_small`…) or `invalid_relation`. */
  readonly code: string;
}

/** 400: a query string the resource cannot read (unknown filter, bad value, page out of range). */
export class InvalidQueryError extends HttpError {
  override name = 'InvalidQueryError';
  constructor(message: string, options: HttpErrorOptions = {}) {
    super('ERR_API_INVALID_QUERY', message, options);
  }
}

/** 404: the route matched, but no item has that id (API Platform `ItemNotFoundException`). */
export class ItemNotFoundError extends HttpError {
  override name = 'ItemNotFoundError';
  constructor(shortName: string, id: string) {
    super('ERR_API_ITEM_NOT_FOUND', `Not Found: no ${shortName} has the id "${id.slice(0, 100)}".`);
  }
}

/**
 * 404: the path's format suffix (`/api/books/1.yaml`) names no format of the operation (API
 * Platform's `ContentNegotiationTrait`: `Format "yaml" is not supported`, a `NotFoundHttpException`).
 */
export class FormatNotSupportedError extends HttpError {
  override name = 'FormatNotSupportedError';
  /** @param format - the suffix, without its dot (cut to 100 characters in the message) */
  constructor(format: string) {
    super('ERR_API_FORMAT_NOT_SUPPORTED', formatMessage('ERR_API_FORMAT_NOT_SUPPORTED', format.slice(0, 100)));
  }
}

/** 406: the client accepts none of the formats (RFC 9110 §15.5.7). */
export class NotAcceptableError extends HttpError {
  override name = 'NotAcceptableError';
  constructor(accept: string, formats: readonly string[]) {
    super('ERR_API_NOT_ACCEPTABLE', formatMessage('ERR_API_NOT_ACCEPTABLE',
      `"${accept.slice(0, 200)}" matches none of ${formats.join(', ')}.`));
  }
}

/** 409: the change conflicts with the stored state (a referenced item, concurrent updates). */
export class ConflictError extends HttpError {
  override name = 'ConflictError';
  constructor(message: string) {
    super('ERR_API_CONFLICT', message);
  }
}

/** 412: `If-Match` names a version that is not the stored one (RFC 9110 §13.1.1); nothing changed. */
export class PreconditionFailedError extends HttpError {
  override name = 'PreconditionFailedError';
  /**
   * @param etag - the stored item's current ETag (sent as `ETag`; '' for none)
   * @param message - replaces the default message
   * @param current - the stored item, when the error comes from a write that found another version
   *   (the API retries the operation on it when the client did not send `If-Match`)
   */
  constructor(etag: string, readonly current?: StoredItem, message?: string) {
    super('ERR_API_PRECONDITION_FAILED',
      message ?? `Precondition Failed: the item changed, its current ETag is ${etag}; nothing was changed.`,
      etag === '' ? {} : { headers: { ETag: etag } });
  }

  /**
   * The 412 of a PUT that may create (`allowCreate`) whose precondition fails: `If-Match` on an
   * id that names no item (RFC 9110 §13.1.1: no current representation matches), or
   * `If-None-Match: *` (or the item's tag) on one that names an item (§13.1.2: create only).
   * @param etag - the stored item's ETag (sent as `ETag`), '' when it is unknown (another
   *   client created it meanwhile), undefined when there is no item
   */
  static onCreate(etag: string | undefined): PreconditionFailedError {
    if (etag === undefined) {
      return new PreconditionFailedError('', undefined,
        'Precondition Failed: If-Match names a version, but no item has this id; nothing was created.');
    }
    const current = etag === '' ? '' : `, its current ETag is ${etag}`;
    return new PreconditionFailedError(etag, undefined,
      `Precondition Failed: If-None-Match: the item exists${current}; nothing was changed.`);
  }
}

/** 422: the object does not satisfy the schema (API Platform `ValidationException`). */
export class ValidationError extends HttpError {
  override name = 'ValidationError';
  readonly violations: readonly Violation[];
  constructor(violations: readonly Violation[]) {
    const summary = violations
      .map((v) => (v.propertyPath === '' ? v.message : `${v.propertyPath}: ${v.message}`))
      .join('\n');
    super('ERR_API_VALIDATION_FAILED', summary);
    this.violations = Object.freeze([...violations]);
  }
}

/** True when `value` is a {@link ValidationError}, also across package copies. */
export function isValidationError(value: unknown): value is ValidationError {
  return isKernelError(value, 'ERR_API_VALIDATION_FAILED')
    && Array.isArray((value as Partial<ValidationError>).violations);
}
