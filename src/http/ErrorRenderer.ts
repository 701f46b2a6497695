import { STATUS_CODES } from 'node:http';
import { inspect } from 'node:util';
import type { Request, Response } from 'express';
import { isHttpError } from './errors';
import { render } from './templates';
import { rawUrlEncode } from '../routing/generator/UrlGenerator';
import { sourceMappedStack } from '../support/sourceMaps';
import { parseStack } from '../support/stackTrace';
import type { ErrorPageContext, ErrorTemplates } from './ErrorTemplates';

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

/** Options of {@link renderError}. */
export interface ErrorRenderOptions {
  /**
   * Debug mode: full messages, cause chain, stack and `X-Debug-Exception` headers. The kernel
   * passes false for a client its `profiler.allowedIps` does not allow.
   */
  debug: boolean;
  /** The application's own error pages, used instead of the plain page outside debug mode. */
  templates?: ErrorTemplates;
  /** The profiler token of this request, linked from the debug page. */
  token?: string;
  tokenLink?: string;
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

/** The top frame V8 wrote: lines of the message that look like frames are skipped. */
function frameOf(stack: string, message: string): { file?: string; line?: number } {
  const top = parseStack(stack, message, { maxFrames: 1 })[0];
  return top?.file === undefined ? {} : { file: top.file, line: top.line };
}

/** Options of {@link exceptionChain}. */
export interface ExceptionChainOptions {
  /**
   * Point stack frames of source-mapped files (compiled TypeScript) at their sources, so `stack`,
   * `file` and `line` name the `.ts` file. Reads each generated file's map once. @default true
   */
  sourceMaps?: boolean;
}

/**
 * Flattens an error and its `cause` chain (outermost first), at most 10 deep.
 * @returns one {@link ExceptionData} per error; `file` and `line` are the first frame's
 */
export function exceptionChain(error: unknown, options: ExceptionChainOptions = {}): ExceptionData[] {
  const { sourceMaps = true } = options;
  const chain: ExceptionData[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 10) {
    // A thrown non-Error becomes an Error whose message shows it: a string as is, anything else
    // (a plain object, a number) as util.inspect prints it, never "[object Object]".
    const e = current instanceof Error ? current : new Error(typeof current === 'string' ? current : inspect(current));
    const stack = sourceMaps ? sourceMappedStack(e.stack ?? '', e.message) : e.stack ?? '';
    const top = frameOf(stack, e.message);
    chain.push({ class: e.name || e.constructor.name, message: e.message, status: statusOf(e), stack, ...top });
    current = (e as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * The application's page for the status when it has one, else the kernel's plain page.
 * @throws what the application's template throws while rendering
 */
function errorPage(context: ErrorPageContext, own: ErrorTemplates | undefined): string {
  return own?.render(context) ?? render('error/error.html.njk', { ...context });
}

/** The reason phrase of a status (`Not Found`), RFC 9110 §15. */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Unknown Status';
}

/**
 * Writes the error response (Symfony `HtmlErrorRenderer` / `SerializerErrorRenderer`):
 * - `Accept: application/json` or `application/problem+json` get RFC 9457 problem details
 *   (`type`, `title`, `status`, `detail`), with `Vary: Accept`;
 * - everyone else gets HTML: in debug mode the exception page (`<message> (<code> <reason>)`,
 *   the cause chain, each stack's frames with Node's, dependencies' and the kernel's own greyed
 *   out), otherwise a plain error page;
 * - debug mode adds `X-Debug-Exception` (the URL-encoded message, first 2000 characters) and
 *   `X-Debug-Exception-File` (the top frame's file, the `.ts` source when the code is source-mapped);
 * - a 5xx never shows its message outside debug mode; a 4xx does (it is the client's mistake);
 * - a matched route with an `errorRenderer` option ({@link RouteErrorRenderer}) may write the body itself.
 * @param error - what was thrown
 * @throws what one of `options.templates` throws while rendering (nothing is written then)
 */
export function renderError(error: unknown, req: Request, res: Response, options: ErrorRenderOptions): void {
  const status = statusOf(error);
  const chain = exceptionChain(error, { sourceMaps: options.debug });
  const top = chain[0];
  const reason = reasonPhrase(status);
  const exposeMessage = options.debug || status < 500;
  const message = exposeMessage ? top.message : reason;

  res.status(status);
  if (isHttpError(error)) for (const [k, v] of Object.entries(error.headers)) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-cache, private');
  res.vary('Accept');
  if (options.debug) {
    res.setHeader('X-Debug-Exception', rawUrlEncode(top.message.slice(0, 2000)));
    if (top.file !== undefined) res.setHeader('X-Debug-Exception-File', `${rawUrlEncode(top.file)}:${top.line}`);
  }

  const custom = routeErrorRenderer(req);
  if (custom?.(error, { status, title: reason, detail: message, debug: options.debug, token: options.token }, req, res) === true) return;
  const accepted = req.accepts(['text/html', 'application/problem+json', 'application/json']);
  if (accepted === 'application/json' || accepted === 'application/problem+json') {
    const body: Record<string, unknown> = { type: 'about:blank', title: reason, status, detail: message };
    if (options.debug) body.class = top.class;
    if (options.token !== undefined) body.debugToken = options.token;
    res.type(accepted === 'application/json' ? 'application/problem+json' : accepted).send(JSON.stringify(body));
    return;
  }
  const html = options.debug
    ? render('error/exception.html.njk', {
      message, status, reason, token: options.token, tokenLink: options.tokenLink,
      chain: chain.map((e) => ({ ...e, frames: parseStack(e.stack, e.message) })),
    })
    : errorPage({ status, reason, message: exposeMessage ? message : '' }, options.templates);
  res.type('html').send(html);
}
