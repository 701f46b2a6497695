import express, { type Request, type Response } from 'express';
import { bodyReader, parseByteLimit } from './JsonBodyReader';

/** The media type of HTML form posts (WHATWG URL `application/x-www-form-urlencoded`). */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * Reads an `application/x-www-form-urlencoded` body into `req.body` (a null-prototype object of
 * strings, or arrays of strings for a repeated field), at most once per request.
 * @returns a promise that settles when the body is read, or at once when it is not a form (then
 *   `req.body` stays as it was, usually undefined)
 * @throws HttpError 413 over the limit (unread when `Content-Length` says so), 415 for an
 *   unsupported charset, 400 for an aborted body
 */
export type FormBodyReader = (req: Request, res: Response) => Promise<void>;

/** True when the request's `Content-Type` is {@link FORM_TYPE}. */
export function isFormRequest(req: Request): boolean {
  return typeof req.headers['content-type'] === 'string' && req.is(FORM_TYPE) !== false;
}

/**
 * Builds a {@link FormBodyReader} around `express.urlencoded({ extended: false })` (Node's
 * `querystring`: no nested objects from `a[b]=c`), with the errors of the JSON reader.
 * @param limit - largest body, in bytes or as `'10kb'` (1024-based units)
 * @throws KernelConfigError `Invalid option "limit": …`
 */
export function createFormBodyReader(limit: number | string = '10kb'): FormBodyReader {
  const bytes = parseByteLimit(limit);
  const parser = express.urlencoded({ extended: false, limit: bytes, type: FORM_TYPE, parameterLimit: 100 });
  return bodyReader(parser, bytes, isFormRequest);
}
