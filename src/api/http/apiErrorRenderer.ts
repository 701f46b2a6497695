import type { Request, Response } from 'express';
import type { ErrorBodyParts, RouteErrorRenderer } from '../../http/ErrorRenderer';
import { type ApiPaths, requestBase } from '../serializer/ApiContext';
import { errorJsonLd } from '../serializer/jsonld';
import { isValidationError } from './ApiErrors';
import { errorFormat } from './negotiation';

/** The `type` of a 422 problem (API Platform's `/validation_errors/<code>`), else `about:blank`. */
export const VALIDATION_PROBLEM_TYPE = '/validation_errors';

/**
 * The API routes' error bodies (the kernel's `errorRenderer` route option): in the negotiated
 * format (or, when the client accepts none, problem details):
 * - JSON-LD: `hydra:Error` or, for a 422, a `ConstraintViolationList` with `violations`;
 * - JSON, HAL, anything else: problem details (RFC 9457, `application/problem+json`) with
 *   `violations: [{ propertyPath, message, code }]` for a 422;
 * - HTML (a browser): false, the kernel's own page.
 */
export function apiErrorRenderer(paths: ApiPaths): RouteErrorRenderer {
  return function renderApiError(error: unknown, parts: ErrorBodyParts, req: Request, res: Response): boolean {
    const format = req.api?.format ?? errorFormat(req);
    if (format === 'html') return false;
    const violations = isValidationError(error) ? error.violations : undefined;
    if (violations !== undefined && req.api !== undefined) req.api.violations = violations;
    if (format === 'jsonld') {
      const body = errorJsonLd(parts.detail, violations, paths, requestBase(req));
      res.type('application/ld+json; charset=utf-8').send(JSON.stringify(body));
      return true;
    }
    const body: Record<string, unknown> = {
      type: violations !== undefined ? VALIDATION_PROBLEM_TYPE : 'about:blank',
      title: parts.title,
      status: parts.status,
      detail: parts.detail,
    };
    if (violations !== undefined) body.violations = violations;
    if (parts.token !== undefined) body.debugToken = parts.token;
    res.type('application/problem+json; charset=utf-8').send(JSON.stringify(body));
    return true;
  };
}
