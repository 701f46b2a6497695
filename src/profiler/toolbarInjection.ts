import type { Request, Response } from 'express';

/**
 * Whether a response gets the debug toolbar (Symfony `WebDebugToolbarListener`): only a
 * complete HTML page, not yet sent, answered to a browser's navigation. Never:
 * - a HEAD request, a 1xx/204/304, a redirect (3xx);
 * - an XHR (`X-Requested-With: XMLHttpRequest`) or a `fetch()` (`Sec-Fetch-Dest: empty`);
 * - a `Content-Type` without `html`, a `Content-Disposition: attachment`;
 * - a compressed body (`Content-Encoding` other than `identity`), a response already streaming.
 */
export function wantsToolbar(req: Request, res: Response): boolean {
  if (res.headersSent || req.method === 'HEAD') return false;
  const status = res.statusCode;
  if (status < 200 || status === 204 || (status >= 300 && status < 400)) return false;
  if (String(req.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest') return false;
  if (req.headers['sec-fetch-dest'] === 'empty') return false;
  if (!/html/i.test(String(res.getHeader('content-type') ?? ''))) return false;
  if (/^\s*attachment/i.test(String(res.getHeader('content-disposition') ?? ''))) return false;
  const encoding = String(res.getHeader('content-encoding') ?? 'identity').toLowerCase();
  return encoding === 'identity' || encoding === '';
}

/**
 * The nonce a Content-Security-Policy gives `directive` (or `default-src`, which it falls back
 * to), so the toolbar's tags can carry it; undefined when there is none.
 */
export function cspNonce(res: Response, directive: 'script-src' | 'style-src'): string | undefined {
  const header = res.getHeader('content-security-policy');
  if (header === undefined) return undefined;
  const directives = new Map<string, string[]>();
  for (const part of String(Array.isArray(header) ? header[0] : header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name !== undefined && name !== '' && !directives.has(name.toLowerCase())) {
      directives.set(name.toLowerCase(), values);
    }
  }
  const values = directives.get(directive) ?? directives.get('default-src') ?? [];
  const nonce = values.map((v) => /^'nonce-([A-Za-z0-9+/_=-]+)'$/.exec(v)).find((m) => m !== null);
  return nonce?.[1];
}

/**
 * Inserts `snippet` before the last `</body>` (any case) of a body given to `res.end`, and fixes
 * `Content-Length`; the `ETag` goes, since the body now differs on every request.
 * @param args - `res.end`'s arguments
 * @returns the arguments to call the real `res.end` with: unchanged when there is no `</body>`
 */
export function injectBeforeBodyEnd(res: Response, args: unknown[], snippet: string): unknown[] {
  const [chunk, second] = args;
  let body: Buffer;
  if (typeof chunk === 'string') {
    const encoding = typeof second === 'string' ? second.toLowerCase() : 'utf8';
    if (encoding !== 'utf8' && encoding !== 'utf-8') return args;
    const at = lastBodyEndOfText(chunk);
    if (at >= 0) return withLength(res, args, chunk.slice(0, at) + snippet + chunk.slice(at), 'utf8');
    body = Buffer.from(chunk, 'utf8');
  } else if (chunk instanceof Uint8Array) {
    body = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  } else {
    return args;
  }
  const at = lastBodyEnd(body);
  if (at < 0) return args;
  return withLength(res, args, Buffer.concat([body.subarray(0, at), Buffer.from(snippet, 'utf8'), body.subarray(at)]));
}

/** `res.end`'s arguments for the new body, `Content-Length` fixed and the `ETag` gone. */
function withLength(res: Response, args: unknown[], out: string | Buffer, encoding?: 'utf8'): unknown[] {
  if (res.getHeader('content-length') !== undefined) res.setHeader('Content-Length', Buffer.byteLength(out, 'utf8'));
  res.removeHeader('ETag');
  const callback = args.find((a) => typeof a === 'function');
  const head = encoding === undefined ? [out] : [out, encoding];
  return callback === undefined ? head : [...head, callback];
}

/**
 * The index of the last `</body>` of a text, when it is spelled `</body>` or `</BODY>` and no other
 * spelling follows it (the pages the kernel renders); else -1, and the caller searches the bytes.
 */
function lastBodyEndOfText(text: string): number {
  const at = Math.max(text.lastIndexOf('</body>'), text.lastIndexOf('</BODY>'));
  return at >= 0 && !/<\/body>/i.test(text.slice(at + 7)) ? at : -1;
}

/** The byte offset of the last `</body>` in any case, or -1; the usual spellings are found without copying the body. */
function lastBodyEnd(body: Buffer): number {
  const at = Math.max(body.lastIndexOf('</body>'), body.lastIndexOf('</BODY>'));
  if (at >= 0 && !/<\/body>/i.test(body.subarray(at + 7).toString('latin1'))) return at;
  return body.toString('latin1').toLowerCase().lastIndexOf('</body>');
}
