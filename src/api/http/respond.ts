import type { Request, Response } from 'express';
import { render } from '../../http/templates';
import type { ApiPaths } from '../serializer/ApiContext';
import { requestBase } from '../serializer/ApiContext';
import type { ApiFormat } from './negotiation';
import { FORMAT_TYPES } from './negotiation';

/** The `Content-Type` of each format's responses (HTML's is the documentation page's, not written here). */
const CONTENT_TYPES: Readonly<Record<ApiFormat, string>> = Object.freeze({
  jsonld: `${FORMAT_TYPES.jsonld}; charset=utf-8`,
  hal: `${FORMAT_TYPES.hal}; charset=utf-8`,
  json: `${FORMAT_TYPES.json}; charset=utf-8`,
  html: `${FORMAT_TYPES.json}; charset=utf-8`,
});

/**
 * Writes a JSON text in a format's media type (UTF-8), with `Content-Length` and `Vary: Accept`
 * (the body depends on it); no body for HEAD. What Express's `res.send` does for these
 * responses, without re-parsing the type it was given or copying the text into a buffer. The
 * kernel turns Express's own ETags off (items carry theirs, and `If-None-Match` is answered
 * before this); an application that turns them back on (`kernel.set('etag', 'weak')`) gets
 * `res.send`, its ETag and its 304.
 * @param text - the body, JSON
 */
export function sendJsonText(res: Response, format: ApiFormat, status: number, text: string): void {
  res.statusCode = status;
  res.vary('Accept');
  res.setHeader('Content-Type', CONTENT_TYPES[format]);
  if (typeof res.app.get('etag fn') === 'function') {
    res.send(text);
    return;
  }
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (res.req.method === 'HEAD') res.end();
  else res.end(text);
}

/** The relation of the `Link` to the Hydra documentation (what API Platform's clients look for). */
export const API_DOCUMENTATION_REL = 'http://www.w3.org/ns/hydra/core#apiDocumentation';

/**
 * Adds `Link: <http://host/api/docs.jsonld>; rel="…#apiDocumentation"` to an API response, once
 * (API Platform's `AddLinkHeaderListener`): `@api-platform/api-doc-parser` starts from it.
 */
export function linkDocumentation(req: Request, res: Response, paths: ApiPaths): void {
  const current = res.getHeader('Link');
  const text = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (text.includes(API_DOCUMENTATION_REL)) return;
  const base = requestBase(req);
  res.append('Link', `<${base.origin}${base.baseUrl}${paths.docs}>; rel="${API_DOCUMENTATION_REL}"`);
}

/**
 * The headers API Platform 3.4's `RespondProcessor` puts on every API response, errors included:
 * `Vary: Accept` (added to what the response already varies on, e.g. the kernel's
 * `Accept-Language`), `X-Content-Type-Options: nosniff`, `X-Frame-Options: deny` (replacing a
 * kernel-wide `SAMEORIGIN`: an API response is never framed), and the `Link` to the Hydra
 * documentation ({@link linkDocumentation}). Set when a request reaches the API (its provider,
 * or the error renderer for a path under the entrypoint that no route matches).
 */
export function apiResponseHeaders(req: Request, res: Response, paths: ApiPaths): void {
  res.vary('Accept');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'deny');
  linkDocumentation(req, res, paths);
}

/** Writes a body as JSON in a format's media type, `Vary: Accept` set (see {@link sendJsonText}). */
export function sendFormatted(res: Response, format: ApiFormat, status: number, body: unknown): void {
  sendJsonText(res, format, status, JSON.stringify(body));
}

/**
 * The default documentation page (API Platform's HTML format): the resources and links to the
 * interactive and Hydra documentation, for a client that accepts HTML and none of the API's formats.
 */
export function defaultDocumentationPage(paths: ApiPaths, docsPath: string) {
  return function apiDocumentationPage(req: Request, res: Response): void {
    const base = requestBase(req);
    res.status(200).vary('Accept').type('html').send(render('api/documentation.html.njk', {
      title: 'API',
      docs: `${base.baseUrl}${docsPath}`,
      hydra: `${base.baseUrl}${paths.docs}`,
      resources: [...paths.resources.values()].map((r) => ({
        shortName: r.shortName, description: r.description, href: `${base.baseUrl}${r.routePrefix}`,
      })),
    }));
  };
}
