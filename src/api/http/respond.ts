import type { Request, Response } from 'express';
import { render } from '../../http/templates';
import type { ApiPaths } from '../serializer/ApiContext';
import { requestBase } from '../serializer/ApiContext';
import type { Format } from '../format/Format';

/** The `Content-Type` of a format's responses: its first media type, UTF-8. */
export function contentTypeOf(format: Format): string {
  return `${format.mimeTypes[0]}; charset=utf-8`;
}

/**
 * Writes a response body in a format's media type (UTF-8), with `Content-Length` and `Vary: Accept`
 * (the body depends on it); no body for HEAD. What Express's `res.send` does for these
 * responses, without re-parsing the type it was given or copying the text into a buffer. The
 * kernel turns Express's own ETags off (items carry theirs, and `If-None-Match` is answered
 * before this); an application that turns them back on (`kernel.set('etag', 'weak')`) gets
 * `res.send`, its ETag and its 304.
 * @param contentType - the `Content-Type` ({@link contentTypeOf} the format)
 * @param text - the body, as the format's encoder wrote it
 */
export function sendText(res: Response, contentType: string, status: number, text: string): void {
  res.statusCode = status;
  res.vary('Accept');
  res.setHeader('Content-Type', contentType);
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
