import * as path from 'node:path';
import type { Request, RequestHandler, Response } from 'express';
import { render, TEMPLATES_DIR } from '../../http/templates';
import { NotFoundHttpError } from '../../http/errors';
import { Route } from '../../routing/Route';
import { RouteCollection } from '../../routing/RouteCollection';
import { MissingPeerDependencyError, peerFolder } from '../../storage/optionalPeer';

/** Options of {@link createDocsRoutes}. */
export interface DocsRoutesOptions {
  /**
   * The OpenAPI document, built on the first request that needs it and kept (a function, so
   * the routes can be declared before every resource is).
   */
  readonly document: () => object;
  /**
   * Where the API lives: the routes are `<prefix>/docs`, `<prefix>/docs.json` and `<prefix>/docs/ui/*`.
   * @default '/api'
   */
  readonly prefix?: string;
  /** The HTML page's title. @default 'API documentation' */
  readonly title?: string;
}

/** The media type of an OpenAPI document in JSON (as API Platform serves it). */
export const OPENAPI_MEDIA_TYPE = 'application/vnd.openapi+json';

/** What `GET <prefix>/docs` can answer, the first one for `Accept: *\/*` or none. */
const DOCS_TYPES = [OPENAPI_MEDIA_TYPE, 'application/json', 'text/html'] as const;

/** The page's own files, served beside Swagger UI's (the start script is a file: no inline script). */
const OWN_DIR = path.join(TEMPLATES_DIR, 'api');

/** Swagger UI's files the page loads, served from its package in `node_modules` (no CDN). */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-16x16.png', 'favicon-32x32.png'];

/** Every file under `<prefix>/docs/ui/`. */
const UI_FILES = [...SWAGGER_UI_FILES, 'docs.js', 'docs.css'];

/**
 * Swagger UI's folder, or the error saying how to install it (`swagger-ui-dist` is an optional
 * peer: without it the page shows that hint and a link to the document).
 */
function swaggerUiFolder(): string | MissingPeerDependencyError {
  try {
    return peerFolder('swagger-ui-dist');
  } catch (e) {
    if (e instanceof MissingPeerDependencyError) return e;
    throw e;
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The documentation page's HTML (the same for every request). */
function docsPageHtml(options: Pick<DocsRoutesOptions, 'prefix' | 'title'>, swaggerUi = swaggerUiFolder()): string {
  const prefix = (options.prefix ?? '/api').replace(/\/+$/, '');
  return render('api/docs.html.njk', {
    title: options.title ?? 'API documentation',
    assets: `${prefix}/docs/ui`,
    documentUrl: `${prefix}/docs.json`,
    missing: typeof swaggerUi === 'string' ? undefined : swaggerUi.message,
  });
}

/**
 * The documentation page as a handler, for the API routes to answer a browser with (issue 9 §3:
 * a client that accepts only HTML gets the documentation page): `200 text/html`, the page of
 * {@link createDocsRoutes} (which must be mounted too, for its scripts and the document).
 * @param options - `prefix` and `title`, as given to {@link createDocsRoutes}
 */
export function createDocsPage(options: Pick<DocsRoutesOptions, 'prefix' | 'title'> = {}): RequestHandler {
  const page = docsPageHtml(options);
  return function docsPage(_req: Request, res: Response) {
    res.type('html').send(page);
  };
}

/**
 * The routes of the API documentation (API Platform's `api_doc`, whose name here is the Hydra
 * documentation's, `/api/docs.jsonld`):
 * - `api_docs_page` `GET <prefix>/docs`: by content negotiation (RFC 9110 §12.5.1), the interactive
 *   HTML page for `text/html` (Swagger UI, served from `node_modules`: no CDN, no inline script,
 *   so it works under `script-src 'self'`), else the OpenAPI document (also for an Accept header
 *   that names neither: RFC 9110 §12.5.1 lets the server send its default); `Vary: Accept`.
 *   Swagger UI is the optional peer `swagger-ui-dist`: without it the page says
 *   `swagger-ui-dist is not installed: npm install swagger-ui-dist (…)` and links to the document;
 * - `api_docs_openapi` `GET <prefix>/docs.json`: the OpenAPI document, `application/vnd.openapi+json`;
 * - `api_docs_asset` `GET <prefix>/docs/ui/{file}`: the page's scripts, styles and icons.
 * @param options - the document and where to mount
 * @returns a new collection (add it to the kernel's routes)
 */
export function createDocsRoutes(options: DocsRoutesOptions): RouteCollection {
  const prefix = (options.prefix ?? '/api').replace(/\/+$/, '');
  const swaggerUi = swaggerUiFolder();
  const page = docsPageHtml(options, swaggerUi);
  let json: string | undefined;
  const sendDocument = (res: Response): void => {
    json ??= JSON.stringify(options.document());
    res.type(`${OPENAPI_MEDIA_TYPE}; charset=utf-8`).send(json);
  };
  const routes = new RouteCollection();
  routes.add('api_docs_page', new Route(`${prefix}/docs`, {
    methods: ['GET'],
    controller: (req: Request, res: Response) => {
      res.vary('Accept');
      if (req.accepts([...DOCS_TYPES]) === 'text/html') res.type('html').send(page);
      else sendDocument(res);
    },
  }));
  routes.add('api_docs_openapi', new Route(`${prefix}/docs.json`, {
    methods: ['GET'],
    controller: (_req: Request, res: Response) => { sendDocument(res); },
  }));
  routes.add('api_docs_asset', new Route(`${prefix}/docs/ui/{file}`, {
    methods: ['GET'],
    requirements: { file: UI_FILES.map(escapeRegExp).join('|') },
    controller: (req: Request, res: Response, next) => {
      const file = String(req.params.file);
      const root = SWAGGER_UI_FILES.includes(file) ? swaggerUi : OWN_DIR;
      if (typeof root !== 'string') throw new NotFoundHttpError(root.message);
      res.sendFile(file, { root, maxAge: '1h', dotfiles: 'deny' }, (err) => { if (err) next(err); });
    },
  }));
  return routes;
}
