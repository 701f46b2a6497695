import { STATUS_CODES } from 'node:http';
import { inspect } from 'node:util';
import type { Request, Response } from 'express';
import { isHttpError } from './errors';
import { rawUrlEncode } from '../routing/generator/UrlGenerator';
import { sourceMappedStack } from '../support/sourceMaps';
import { parseStack, type StackFrame } from '../support/stackTrace';
import type { ErrorPageContext, ErrorTemplates } from './ErrorTemplates';
import { PlainErrorPage } from './PlainErrorPage';
import { CutTemplates } from './CutTemplate';

/** One error of a cause chain, as pages and profiles show it. */
export interface ExceptionData {
  class: string;
  message: string;
  status: number;
  stack: string;
  file?: string;
  line?: number;
}

/** What a {@link RouteErrorRenderer} gets besides the error: what the kernel's own body would say. */
export interface ErrorBodyParts {
  readonly status: number;
  /** The reason phrase, e.g. `Unprocessable Entity`. */
  readonly title: string;
  /** The message, or the reason phrase for a 5xx outside debug mode. */
  readonly detail: string;
  readonly debug: boolean;
  /** The profiler token, when the profiler saw the request. */
  readonly token?: string;
}

/**
 * A matched route's own error body (route option `errorRenderer`), e.g. the API layer's
 * JSON-LD `hydra:Error` and problem details with `violations`. Runs after the status, the
 * error's headers, `Vary: Accept` and the debug headers are set.
 * @returns true when it wrote the response; false to let the kernel write its own body
 */
export type RouteErrorRenderer = (error: unknown, parts: ErrorBodyParts, req: Request, res: Response) => boolean;

/** The matched route's `errorRenderer` option, if it has one. */
function routeErrorRenderer(req: Request): RouteErrorRenderer | undefined {
  const renderer = req.kernel?.routeDefinition?.options.errorRenderer;
  return typeof renderer === 'function' ? renderer as RouteErrorRenderer : undefined;
}

/** One route's error renderer for the paths under a prefix (see {@link scopedErrorRenderers}). */
export interface ScopedErrorRenderer {
  /** A path prefix, e.g. `/api`: the path itself and the paths under `/api/`. */
  readonly prefix: string;
  readonly renderer: RouteErrorRenderer;
}

/**
 * The error renderers that also answer for the paths no route matches under a prefix (route
 * options `errorRenderer` and `errorRendererPrefix`, e.g. the API's routes with `/api`: a 404
 * or 405 under `/api/` is the API's problem details, not the kernel's page). Longest prefix first.
 * @param routes - the routing table's routes, by name
 */
export function scopedErrorRenderers(
  routes: Iterable<readonly [string, { readonly options: object }]>,
): ScopedErrorRenderer[] {
  const found = new Map<string, RouteErrorRenderer>();
  for (const [, route] of routes) {
    const { errorRenderer, errorRendererPrefix } = route.options as Record<string, unknown>;
    if (typeof errorRenderer !== 'function' || typeof errorRendererPrefix !== 'string') continue;
    if (!found.has(errorRendererPrefix)) found.set(errorRendererPrefix, errorRenderer as RouteErrorRenderer);
  }
  return [...found].map(([prefix, renderer]) => ({ prefix, renderer }))
    .sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The renderer whose prefix the request's path is under, for a request no route matched. */
function scopedRenderer(
  req: Request, scoped: readonly ScopedErrorRenderer[] | undefined,
): RouteErrorRenderer | undefined {
  if (scoped === undefined || scoped.length === 0 || req.kernel?.routeDefinition !== undefined) return undefined;
  const path = req.kernel?.uri?.pathInfo;
  if (path === undefined) return undefined;
  return scoped.find((s) => path === s.prefix || path.startsWith(`${s.prefix}/`))?.renderer;
}

/** Options of {@link renderError}. */
export interface ErrorRenderOptions {
  /**
   * Debug mode: full messages, cause chain, stack and `X-Debug-Exception` headers. The kernel
   * passes false for a client its `profiler.allowedIps` does not allow.
   */
  debug: boolean;
  /** The application's own error pages, used instead of the plain page outside debug mode. */
  templates?: ErrorTemplates;
  /**
   * Told when the page's rendering starts and ends (the profiler's `req.stopwatch`): the span
   * `error.render`, category `template`, in the Performance panel.
   */
  timer?: { start(name: string, category: string): void; stop(name: string): unknown };
  /** The profiler token of this request, linked from the debug page. */
  token?: string;
  tokenLink?: string;
  /** Renderers for the paths under a prefix that no route matched ({@link scopedErrorRenderers}). */
  scoped?: readonly ScopedErrorRenderer[];
}

/**
 * The HTTP status of anything thrown: an {@link HttpError}'s, or a valid `status`/`statusCode`
 * (4xx–5xx) as Express's final handler reads it, else 500.
 */
export function statusOf(error: unknown): number {
  if (isHttpError(error)) return error.status;
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const s = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  return s >= 400 && s <= 599 ? s : 500;
}

/** The parsed frames of each error {@link exceptionChain} flattened, by its entry. */
const entryFrames = new WeakMap<ExceptionData, readonly StackFrame[]>();

/**
 * The parsed frames of one entry of {@link exceptionChain}: `parseStack(entry.stack,
 * entry.message)`, kept with the entry, so the exception page and the profiler's exception panel
 * do not parse (nor look up, by its whole text) the same stack again.
 * @param entry - an entry of `exceptionChain`, or any object of that shape (parsed on its first call)
 * @returns the frames, outermost call last; frozen and shared, do not change them
 */
export function framesOf(entry: ExceptionData): readonly StackFrame[] {
  let frames = entryFrames.get(entry);
  if (frames === undefined) {
    frames = parseStack(entry.stack, entry.message);
    entryFrames.set(entry, frames);
  }
  return frames;
}

/** Options of {@link exceptionChain}. */
export interface ExceptionChainOptions {
  /**
   * Point stack frames of source-mapped files (compiled TypeScript) at their sources, so `stack`,
   * `file` and `line` name the `.ts` file. Reads each generated file's map once. @default true
   */
  sourceMaps?: boolean;
}

/** A thrown value as an Error: a string as is, anything else as util.inspect prints it. */
function asError(value: unknown): Error {
  // never "[object Object]": a plain object or a number is shown as util.inspect prints it
  return value instanceof Error ? value : new Error(typeof value === 'string' ? value : inspect(value));
}

/** Chains already flattened with source maps, by error: the exception page and the profile share one. */
const mappedChains = new WeakMap<object, ExceptionData[]>();

/**
 * Flattens an error and its `cause` chain (outermost first), at most 10 deep. With source maps
 * (the default), an error's chain is flattened once and the same array returned after: do not
 * change it.
 * @returns one {@link ExceptionData} per error; `file` and `line` are the first frame's
 */
export function exceptionChain(error: unknown, options: ExceptionChainOptions = {}): ExceptionData[] {
  const { sourceMaps = true } = options;
  const key = sourceMaps && typeof error === 'object' && error !== null ? error : undefined;
  const known = key !== undefined ? mappedChains.get(key) : undefined;
  if (known !== undefined) return known;
  const chain: ExceptionData[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 10) {
    const e = asError(current);
    const stack = sourceMaps ? sourceMappedStack(e.stack ?? '', e.message) : e.stack ?? '';
    const frames = parseStack(stack, e.message);
    // the top frame V8 wrote: lines of the message that look like frames are skipped
    const top = frames[0]?.file === undefined ? {} : { file: frames[0].file, line: frames[0].line };
    const entry: ExceptionData = {
      class: e.name || e.constructor.name, message: e.message, status: statusOf(e), stack, ...top,
    };
    entryFrames.set(entry, frames);
    chain.push(entry);
    current = (e as { cause?: unknown }).cause;
  }
  if (key !== undefined) mappedChains.set(key, chain);
  return chain;
}

const plainPage = new PlainErrorPage();
const exceptionPages = new CutTemplates('error/exception.html.njk');
/** A number per parsed frames array (they are shared: see `parseStack`), for the exception pages' keys. */
const framesIds = new WeakMap<object, number>();
let lastFramesId = 0;

function framesId(frames: readonly unknown[]): number {
  let id = framesIds.get(frames);
  if (id === undefined) framesIds.set(frames, (id = ++lastFramesId));
  return id;
}

/**
 * The debug exception page (`templates/error/exception.html.njk`), cut once per status, chain of
 * error classes and stacks (see {@link CutTemplates}): the errors of one code path (every 404)
 * differ in their messages only, which are the page's slots with the profiler token and link.
 */
function exceptionPage(
  error: unknown, status: number, reason: string, message: string, options: ErrorRenderOptions,
): string {
  const chain = exceptionChain(error)
    .map((e) => ({ class: e.class, message: e.message, status: e.status, frames: framesOf(e) }));
  let key = `${status} ${reason}`;
  for (const e of chain) key += `\u0000${e.class}\u0000${e.status}\u0000${framesId(e.frames)}`;
  const values = [message, options.token ?? '', options.tokenLink ?? '', ...chain.map((e) => e.message)];
  return exceptionPages.render(key, (slots) => ({
    message: slots[0], status, reason, token: slots[1], tokenLink: slots[2],
    chain: chain.map((e, i) => ({ ...e, message: slots[3 + i] })),
  }), values);
}

/**
 * The application's page for the status when it has one, else the kernel's plain page.
 * @throws what the application's template throws while rendering
 */
function errorPage(context: ErrorPageContext, own: ErrorTemplates | undefined): string {
  return own?.render(context) ?? plainPage.render(context.status, context.reason, context.message);
}

/**
 * `req.accepts` of the error formats, without its parsing for the two Accept values most clients
 * send to a path they guessed: none and `*\/*` both take the first, HTML.
 */
function acceptedFormat(req: Request): string | false {
  const accept = req.headers.accept;
  if (accept === undefined || accept === '*/*') return 'text/html';
  return req.accepts(ERROR_FORMATS);
}

const ERROR_FORMATS = ['text/html', 'application/problem+json', 'application/json'];

/**
 * Sends a body as `res.send` would for an error status, without its per-call Content-Type
 * parsing; with an ETag function set on the application (`app.set('etag', …)`), `res.send` itself.
 */
function sendText(req: Request, res: Response, type: string, body: string): void {
  if (req.app?.get('etag fn') !== undefined) {
    res.type(type).send(body);
    return;
  }
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
  res.end(req.method === 'HEAD' ? undefined : body, 'utf8');
}

/** The reason phrase of a status (`Not Found`), RFC 9110 §15. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown Status';
}

/**
 * The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, whole characters only
 * (Symfony cuts the message's bytes with `substr`; a cut character is dropped here instead).
 */
function utf8Prefix(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = new Uint8Array(maxBytes);
  const { read } = new TextEncoder().encodeInto(text, bytes);
  return text.slice(0, read);
}

/**
 * Writes the error response (Symfony `HtmlErrorRenderer` / `SerializerErrorRenderer`):
 * - `Accept: application/json` or `application/problem+json` get RFC 9457 problem details
 *   (`type`, `title`, `status`, `detail`), with `Vary: Accept`;
 * - everyone else gets HTML: in debug mode the exception page (`<message> (<code> <reason>)`,
 *   the cause chain, each stack's frames with Node's, dependencies' and the kernel's own greyed
 *   out), otherwise a plain error page;
 * - debug mode adds `X-Debug-Exception` (the URL-encoded message, its first 2000 UTF-8 bytes as
 *   Symfony's `substr($message, 0, 2000)`, whole characters only: at most 6000 characters) and
 *   `X-Debug-Exception-File` (the top frame's file, the `.ts` source when the code is source-mapped);
 * - a 5xx never shows its message outside debug mode; a 4xx does (it is the client's mistake);
 * - a matched route with an `errorRenderer` option ({@link RouteErrorRenderer}) may write the body
 *   itself, and so may a route's renderer scoped to a path prefix for a path no route matched.
 * @param error - what was thrown
 * @throws what one of `options.templates` throws while rendering (nothing is written then)
 */
export function renderError(error: unknown, req: Request, res: Response, options: ErrorRenderOptions): void {
  const status = statusOf(error);
  // the chain (stack, cause, top frame) only where it is shown: the debug page and headers
  const top = options.debug ? exceptionChain(error)[0] : undefined;
  const reason = reasonPhrase(status);
  const exposeMessage = options.debug || status < 500;
  const message = exposeMessage ? top?.message ?? asError(error).message : reason;

  res.status(status);
  if (isHttpError(error)) {
    const headers = error.headers;
    for (const k in headers) res.setHeader(k, headers[k]);
  }
  res.setHeader('Cache-Control', 'no-cache, private');
  res.vary('Accept');
  if (top !== undefined) {
    res.setHeader('X-Debug-Exception', rawUrlEncode(utf8Prefix(top.message, 2000)));
    if (top.file !== undefined) res.setHeader('X-Debug-Exception-File', `${rawUrlEncode(top.file)}:${top.line}`);
  }

  const custom = routeErrorRenderer(req) ?? scopedRenderer(req, options.scoped);
  if (custom !== undefined) {
    const context = { status, title: reason, detail: message, debug: options.debug, token: options.token };
    if (custom(error, context, req, res) === true) return;
  }
  const accepted = acceptedFormat(req);
  if (accepted === 'application/json' || accepted === 'application/problem+json') {
    const body: Record<string, unknown> = { type: 'about:blank', title: reason, status, detail: message };
    if (top !== undefined) body.class = top.class;
    if (options.token !== undefined) body.debugToken = options.token;
    res.type(accepted === 'application/json' ? 'application/problem+json' : accepted).send(JSON.stringify(body));
    return;
  }
  options.timer?.start('error.render', 'template');
  const html = options.debug
    ? exceptionPage(error, status, reason, message, options)
    : errorPage({ status, reason, message: exposeMessage ? message : '' }, options.templates);
  options.timer?.stop('error.render');
  sendText(req, res, 'text/html; charset=utf-8', html);
}
