import express, { type Request, type Response } from 'express';
import { BadRequestHttpError, HttpError } from '../errors';
import { knownKeys, objectOption } from '../../config/optionValidation';

/** Options of {@link createJsonBodyReader}. */
export interface JsonBodyReaderOptions {
  /** Largest body accepted, in bytes or as `'100kb'`; larger is a 413. @default '100kb' */
  limit?: number | string;
}

/** The media types read as JSON: `application/json` and `application/*+json` (e.g. `ld+json`, `merge-patch+json`). */
export const JSON_TYPES: readonly string[] = ['application/json', 'application/*+json'];

/**
 * Reads a JSON request body into `req.body`, at most once per request.
 * @returns a promise that settles when the body is read, or at once when there is none or it is
 *   not JSON (then `req.body` stays undefined)
 * @throws BadRequestHttpError (400) `Malformed JSON body: <reason>`
 * @throws HttpError with body-parser's status for other unreadable bodies: 413 too large, 415
 *   unsupported charset or encoding, 400 aborted
 */
export type JsonBodyReader = (req: Request, res: Response) => Promise<void>;

/** True when the request announces a body: `Transfer-Encoding`, or a `Content-Length` above 0. */
export function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** True when the request's `Content-Type` is one of {@link JSON_TYPES}. */
export function isJsonRequest(req: Request): boolean {
  return typeof req.headers['content-type'] === 'string' && req.is([...JSON_TYPES]) !== false;
}

function translate(err: unknown): HttpError {
  const e = err as { type?: string; status?: number; message?: string };
  if (e.type === 'entity.parse.failed') return new BadRequestHttpError(`Malformed JSON body: ${e.message}`, { cause: err });
  const status = typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 400;
  return new HttpError(status, status === 413 ? 'ERR_HTTP_PAYLOAD_TOO_LARGE' : status === 415 ? 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE' : 'ERR_HTTP_BAD_REQUEST', `Unreadable request body: ${e.message ?? String(err)}`, { cause: err });
}

/**
 * Builds a {@link JsonBodyReader} around `express.json()` (strict: the body must be an object or
 * an array), turning body-parser's errors into HTTP errors with clear messages, never a 500.
 * @throws KernelConfigError for an unknown option
 */
export function createJsonBodyReader(options: JsonBodyReaderOptions = {}): JsonBodyReader {
  knownKeys(objectOption(options, 'options'), ['limit'], '');
  const parser = express.json({ limit: options.limit ?? '100kb', type: [...JSON_TYPES], strict: true });
  return (req, res) => new Promise<void>((resolve, reject) => {
    parser(req, res, (err?: unknown) => (err === undefined || err === null ? resolve() : reject(translate(err))));
  });
}
