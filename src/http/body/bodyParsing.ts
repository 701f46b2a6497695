import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { invalidOption } from '../../config/optionError';
import { HttpError } from '../errors';
import { createJsonBodyReader, hasBody, isJsonRequest, JsonBodyReaderOptions } from './JsonBodyReader';

/**
 * The matched route's `json` option (true: JSON bodies only), or undefined before routing.
 * @throws KernelConfigError `Invalid option "routes.<name>.options.json"` for a value not a boolean
 */
function jsonOnly(req: Request): boolean | undefined {
  const json = req.kernel?.routeDefinition?.options.json;
  if (json !== undefined && typeof json !== 'boolean') {
    throw invalidOption(`routes.${req.kernel?.route ?? '?'}.options.json`, 'expected true or false', json);
  }
  return json;
}

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
    if (jsonOnly(req) === true && hasBody(req) && !isJsonRequest(req)) {
      const type = req.headers['content-type'] ?? 'none';
      const message = `Unsupported Media Type: expected application/json, got "${type}".`;
      return next(new HttpError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', message));
    }
    // no body announced (the common GET): body-parser would skip it too (type-is `hasBody`)
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined) return next();
    read(req, res).then(() => next(), next);
  };
}
