import type { Request } from 'express';
import type { ErrorBodyParts } from '../../http/ErrorRenderer';
import { exceptionChain, framesOf } from '../../http/ErrorRenderer';
import { isValidationError, type Violation } from '../http/ApiErrors';
import { type ApiPaths, requestBase } from '../serializer/ApiContext';
import { contextIri } from '../serializer/jsonld';

/**
 * RFC 9457 problem details as API Platform 3.4 writes them, the body of every format's errors
 * but those that have their own (JSON:API's error objects).
 * @module
 */

/** The `type` prefix of a 422 problem (API Platform's `/validation_errors/<code>`). */
export const VALIDATION_PROBLEM_TYPE = '/validation_errors';

/** The `type` prefix of any other problem (API Platform's `/errors/<status>`). */
export const ERROR_PROBLEM_TYPE = '/errors';

/** Every API error's `title` (and `hydra:title`), as API Platform 3.4 writes it. */
export const ERROR_TITLE = 'An error occurred';

/** The media type of every API error body, JSON-LD ones included (API Platform 3.4's default). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** The `Link` of a JSON-LD error to Hydra's error context (API Platform's `_api_errors_hydra` link). */
export const HYDRA_ERROR_LINK = '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error"';

/**
 * The id of a violation list (API Platform 3.4 `ValidationException::getId`): the code of the
 * only violation, or `0=<code>;1=<code>…` for several.
 */
export function violationsId(violations: readonly Violation[]): string {
  if (violations.length === 1) return violations[0].code;
  return violations.map((v, i) => `${i}=${v.code}`).join(';');
}

/** One frame of the debug `trace` (API Platform's `trace` member, without arguments). */
interface TraceFrame {
  readonly function?: string;
  readonly file?: string;
  readonly line?: number;
}

function traceOf(error: unknown): TraceFrame[] {
  const top = exceptionChain(error)[0];
  if (top === undefined) return [];
  return framesOf(top).map((f) => ({
    ...(f.function !== undefined ? { function: f.function } : {}),
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(f.line !== undefined ? { line: f.line } : {}),
  }));
}

/**
 * The problem details of an error, as API Platform 3.4 writes them (its `Error` and
 * `ConstraintViolationList` error resources): for a JSON-LD client the Hydra keys `@context`,
 * `@id`, `@type`, `hydra:title`, `hydra:description` beside RFC 9457's `type`, `title`, `detail`,
 * `status`; for a 422 the `violations` and a `type` per violation code; in debug mode a `trace`.
 * @param jsonld - whether the client asked for JSON-LD
 * @returns the body, keys in API Platform's order
 */
export function problemDetails(
  error: unknown, parts: ErrorBodyParts, paths: ApiPaths, req: Request, jsonld: boolean,
): Record<string, unknown> {
  const base = requestBase(req);
  const violations = isValidationError(error) ? error.violations : undefined;
  const body: Record<string, unknown> = {};
  if (violations !== undefined) {
    const id = violationsId(violations);
    if (jsonld) {
      body['@context'] = contextIri(paths, base, 'ConstraintViolationList');
      body['@id'] = `${base.baseUrl}${paths.entrypoint}${VALIDATION_PROBLEM_TYPE}/${id}`;
      body['@type'] = 'ConstraintViolationList';
    }
    body.status = parts.status;
    body.violations = violations.map((v) => ({ propertyPath: v.propertyPath, message: v.message, code: v.code }));
    body.detail = parts.detail;
    if (jsonld) {
      body['hydra:title'] = ERROR_TITLE;
      body['hydra:description'] = parts.detail;
    }
    body.type = `${VALIDATION_PROBLEM_TYPE}/${id}`;
    body.title = ERROR_TITLE;
  } else {
    if (jsonld) {
      body['@context'] = contextIri(paths, base, 'Error');
      body['@id'] = `${base.baseUrl}${paths.entrypoint}${ERROR_PROBLEM_TYPE}/${parts.status}`;
      body['@type'] = 'hydra:Error';
    }
    body.title = ERROR_TITLE;
    body.detail = parts.detail;
    body.status = parts.status;
    body.type = `${ERROR_PROBLEM_TYPE}/${parts.status}`;
  }
  if (parts.debug) body.trace = traceOf(error);
  if (jsonld && violations === undefined) {
    body['hydra:title'] = ERROR_TITLE;
    body['hydra:description'] = parts.detail;
  }
  if (parts.token !== undefined) body.debugToken = parts.token;
  return body;
}
