import type { Request, Response } from 'express';
import { render } from '../../http/templates';
import type { ApiPaths } from '../serializer/ApiContext';
import { requestBase } from '../serializer/ApiContext';
import type { ApiFormat } from './negotiation';
import { FORMAT_TYPES } from './negotiation';

/** Writes a JSON body in a format's media type, `Vary: Accept` set (the body depends on it). */
export function sendFormatted(res: Response, format: ApiFormat, status: number, body: unknown): void {
  res.status(status);
  res.vary('Accept');
  res.type(`${FORMAT_TYPES[format === 'html' ? 'json' : format]}; charset=utf-8`);
  res.send(JSON.stringify(body));
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
