import express, { type Request, type RequestHandler, type Response } from 'express';
import { formatMessage } from '../../errors/codes';
import { BadRequestHttpError, HttpError } from '../errors';
import { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { optionsObject } from '../../config/optionSchemas';
import { parseOptions } from '../../config/parseOptions';
import { wholeNumber } from '../../config/optionSchemas';

const LIMIT = 'expected a number of bytes or a size such as "100kb" or "1mb"';

/** The options of {@link createJsonBodyReader}: {@link JsonBodyReaderOptions}. */
export const jsonBodyReaderOptionsSchema = optionsObject({
  /** Largest body accepted, in bytes or as `'100kb'`; larger is a 413. @default '100kb' */
  limit: z.union([z.number(), z.string()], { error: LIMIT }).optional(),
  /**
   * Deepest nesting of arrays and objects accepted (`{}` is 1, `{"a":[]}` 2); deeper is a 400
   * `ERR_HTTP_JSON_TOO_DEEP`. @default 512 ({@link JSON_MAX_DEPTH})
   */
  maxDepth: wholeNumber(1, 100_000, 'levels').optional(),
});

/** Options of {@link createJsonBodyReader}. */
export type JsonBodyReaderOptions = z.input<typeof jsonBodyReaderOptionsSchema>;

/**
 * The deepest nesting of arrays and objects a JSON body may have by default: 512, PHP's
 * `json_decode` default depth, which Symfony's `JsonDecode` (and so API Platform) uses. Code that
 * walks a body recursively (a merge patch, `JSON.stringify` for a profile) overflows the stack
 * at a few thousand levels, which fit in a 100 KB body (`[` is 1 byte a level).
 */
export const JSON_MAX_DEPTH = 512;

/** The media types read as JSON: `application/json` and `application/*+json` (e.g. `ld+json`, `merge-patch+json`). */
export const JSON_TYPES: readonly string[] = ['application/json', 'application/*+json'];

/**
 * Reads a JSON request body into `req.body`, at most once per request.
 * @returns a promise that settles when the body is read, or at once when there is none or it is
 *   not JSON (then `req.body` stays undefined)
 * @throws BadRequestHttpError (400) `Malformed JSON body: <reason>`, or
 *   `ERR_HTTP_JSON_TOO_DEEP` for arrays and objects nested deeper than the limit
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

/**
 * V8's JSON.parse message without the excerpt of the body it quotes (`Unexpected token 'x',
 * "{"password":"…" is not valid JSON`): the body may hold a secret, and the message reaches
 * logs, problem details and profiles. Only the position is kept.
 */
export function jsonSyntaxReason(message: string | undefined): string {
  const position = /at position (\d+)/.exec(message ?? '')?.[1];
  if (/Unexpected end of JSON input/i.test(message ?? '')) return 'unexpected end of JSON input';
  return position === undefined ? 'not valid JSON' : `not valid JSON at position ${position}`;
}

const UNITS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * A body size limit in bytes, as body-parser reads it (`bytes`: 1024-based units).
 * @param limit - bytes, or a string such as `'100kb'`, `'1mb'`
 * @throws KernelConfigError `Invalid option "limit": …`
 */
export function parseByteLimit(limit: number | string): number {
  if (typeof limit === 'number' && Number.isFinite(limit) && limit >= 0) return Math.floor(limit);
  const m = typeof limit === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(limit) : null;
  if (m === null) throw invalidOption('limit', LIMIT, limit);
  return Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()]);
}

/**
 * 413 with `Connection: close`: the client is told the connection ends, so the server reads no
 * more of a body it refused (a 50 MB upload is not read to its end).
 */
function tooLarge(cause?: unknown): HttpError {
  const message = formatMessage('ERR_HTTP_PAYLOAD_TOO_LARGE', 'request entity too large');
  return new HttpError('ERR_HTTP_PAYLOAD_TOO_LARGE', message, { cause, headers: { Connection: 'close' } });
}

/**
 * body-parser's error as an HTTP error with a clear message, never a 500.
 * @returns 400 `Malformed JSON body: <reason>` for unparsable JSON, a 413 (see {@link tooLarge}),
 *   else body-parser's 400 or 415 as `Unreadable request body: <reason>`
 */
export function translateBodyError(err: unknown): HttpError {
  const e = err as { type?: string; status?: number; message?: string };
  // no cause: body-parser's error carries the body and V8's message quotes it
  if (e.type === 'entity.parse.failed') {
    return new BadRequestHttpError(`Malformed JSON body: ${jsonSyntaxReason(e.message)}`);
  }
  if (e.status === 413) return tooLarge(err);
  // body-parser (without `verify`) answers 400, 413 or 415
  const code = e.status === 415 ? 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE' : 'ERR_HTTP_BAD_REQUEST';
  return new HttpError(code, `Unreadable request body: ${e.message ?? String(err)}`, { cause: err });
}

/**
 * Whether a parsed JSON value nests arrays and objects deeper than `maxDepth` (a scalar is 0
 * deep, `[]` 1, `[[]]` 2). Walks with its own stack, never recursion, so any depth is safe.
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: object; depth: number }> = [];
  if (typeof value === 'object' && value !== null) stack.push({ value, depth: 1 });
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > maxDepth) return true;
    const children: unknown[] = Array.isArray(top.value) ? top.value : Object.values(top.value);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return false;
}

/**
 * Builds a {@link JsonBodyReader} around `express.json()` (strict: the body must be an object or
 * an array), turning body-parser's errors into HTTP errors with clear messages, never a 500. A
 * `Content-Length` over the limit is a 413 with `Connection: close` at once, the body unread. A
 * body nested deeper than `maxDepth` is a 400 `ERR_HTTP_JSON_TOO_DEEP` (and `req.body` is left
 * undefined), so no later step walks it.
 * @throws KernelConfigError for an unknown option, a bad `limit` or `maxDepth`
 */
export function createJsonBodyReader(options: JsonBodyReaderOptions = {}): JsonBodyReader {
  const o = parseOptions(jsonBodyReaderOptionsSchema, options, '');
  const limit = parseByteLimit(o.limit ?? '100kb');
  const maxDepth = o.maxDepth ?? JSON_MAX_DEPTH;
  const read = bodyReader(express.json({ limit, type: [...JSON_TYPES], strict: true }), limit, isJsonRequest);
  return async (req, res) => {
    await read(req, res);
    if (!nestedDeeperThan(req.body, maxDepth)) return;
    req.body = undefined;
    throw new BadRequestHttpError(formatMessage('ERR_HTTP_JSON_TOO_DEEP', maxDepth), {}, 'ERR_HTTP_JSON_TOO_DEEP');
  };
}

/**
 * A body-parser middleware as a promise: a `Content-Length` over `limit` (bytes) on a request
 * `accepts` takes is a 413 at once, the body unread; body-parser's errors are translated by
 * {@link translateBodyError}.
 */
export function bodyReader(
  parser: RequestHandler, limit: number, accepts: (req: Request) => boolean,
): (req: Request, res: Response) => Promise<void> {
  return (req, res) => new Promise<void>((resolve, reject) => {
    // body-parser would read (and drop) the whole body before answering 413: refuse it unread
    const length = Number(req.headers['content-length']);
    const announced = req.headers['transfer-encoding'] === undefined ? length : 0;
    if (announced > limit && accepts(req)) return reject(tooLarge());
    void parser(req, res, (err?: unknown) => {
      if (err === undefined || err === null) resolve();
      else reject(translateBodyError(err));
    });
  });
}
