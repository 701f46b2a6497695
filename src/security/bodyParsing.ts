import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpError } from '../http/errors';
import { createJsonBodyReader, hasBody, isJsonRequest, JsonBodyReaderOptions } from './JsonBodyReader';
import { matchedRouteOptions } from './RouteSecurity';

/** Options of {@link bodyParsing}. */
export type BodyParsingOptions = JsonBodyReaderOptions;

/**
 * The second route handler: reads JSON bodies (`application/json`, `application/*+json`) into
 * `req.body` with `express.json()`, between {@link accessCheck} and {@link postDenormalizeCheck}.
 * A malformed body is a 400 `Malformed JSON body: <reason>`, a body over `limit` a 413, never a
 * 500. On a route whose options say `json: true`, a body of another type is a 415
 * `Unsupported Media Type: expected application/json, got "<type>".`.
 * @throws KernelConfigError for an unknown option
 */
export function bodyParsing(options: BodyParsingOptions = {}): RequestHandler {
  const read = createJsonBodyReader(options);
  return function securityBodyParsing(req: Request, res: Response, next: NextFunction) {
    if (matchedRouteOptions(req)?.json === true && hasBody(req) && !isJsonRequest(req)) {
      const type = req.headers['content-type'] ?? 'none';
      return next(new HttpError(415, 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', `Unsupported Media Type: expected application/json, got "${type}".`));
    }
    // no body announced (the common GET): body-parser would skip it too (type-is `hasBody`)
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return next();
    read(req, res).then(() => next(), next);
  };
}
