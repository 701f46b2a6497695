import type { Request, Response } from 'express';
import type { ErrorBodyParts, RouteErrorRenderer } from '../../http/ErrorRenderer';
import type { ApiFormats } from '../format/apiFormats';
import type { EncodedError, ErrorContext } from '../format/Format';
import { HTML } from '../format/FormatRegistry';
import { PROBLEM_CONTENT_TYPE, problemDetails } from '../format/problemDetails';
import type { ApiPaths } from '../serializer/ApiContext';
import { isValidationError } from './ApiErrors';
import { errorFormat } from './negotiation';
import { apiResponseHeaders } from './respond';

/**
 * The API's error bodies (the kernel's `errorRenderer` route option, also used for the 404 and
 * 405 of a path under the entrypoint that no route matches), in the negotiated format: its
 * `error` encoder (JSON-LD's problem details with the Hydra keys and a `Link` to Hydra's error
 * context, JSON:API's error objects), else problem details as API Platform 3.4 sends them by
 * default (`application/problem+json`, see {@link problemDetails}), also when the client accepts
 * none of the formats. A browser (HTML and none of the API's formats) gets the kernel's own
 * page: the renderer returns false.
 */
export function apiErrorRenderer(paths: ApiPaths, formats: ApiFormats): RouteErrorRenderer {
  return function renderApiError(error: unknown, parts: ErrorBodyParts, req: Request, res: Response): boolean {
    const format = req.api?.format ?? errorFormat(req, formats.all);
    if (format === HTML) return false;
    if (isValidationError(error) && req.api !== undefined) req.api.violations = error.violations;
    apiResponseHeaders(req, res, paths);
    const context: ErrorContext = {
      error, parts, paths, request: req, problem: () => problemDetails(error, parts, paths, req, false),
    };
    const encoded: EncodedError = format?.error?.(context)
      ?? { contentType: PROBLEM_CONTENT_TYPE, body: JSON.stringify(context.problem()) };
    for (const [name, value] of Object.entries(encoded.headers ?? {})) res.append(name, value);
    res.setHeader('Content-Type', encoded.contentType);
    res.send(encoded.body);
    return true;
  };
}
