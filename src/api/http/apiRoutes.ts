import type { Request, RequestHandler, Response } from 'express';
import { KernelConfigError } from '../../config/KernelConfigError';
import { invalidOption } from '../../config/optionError';
import { ID_REQUIREMENTS, type IdentifierType } from '../state/identifier';
import { parseOptions } from '../../config/parseOptions';
import { Route } from '../../routing/Route';
import { RouteCollection } from '../../routing/RouteCollection';
import type { SecuredRouteOptions } from '../../security/RouteSecurity';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import { completeFilters } from '../resource/completeFilters';
import { completeLinks } from '../resource/completeLinks';
import type { StateContext } from '../state/types';
import { type ApiPaths, iriRoot, requestBase } from '../serializer/ApiContext';
import { DEFAULT_URL_GENERATION_STRATEGY, type UrlGenerationStrategy } from '../resource/urlGenerationStrategy';
import { type ApiFormats, resolveFormats } from '../format/apiFormats';
import type { Format } from '../format/Format';
import { HTML } from '../format/FormatRegistry';
import { json, JSON_TYPE } from '../format/json';
import { hydraDocumentation } from '../serializer/hydraDocumentation';
import { BUILT_IN_CLASSES, contextDocument, entrypointKey } from '../serializer/jsonld';
import { describeApi } from '../describeApi';
import { createOpenApiDocument } from '../openapi/createOpenApiDocument';
import { createDocsPage, createDocsRoutes } from '../openapi/docsRoutes';
import { apiOptionsSchema, type ApiOptions } from './ApiOptions';
import { ItemNotFoundError } from './ApiErrors';
import { apiErrorRenderer } from './apiErrorRenderer';
import './ApiRequestState';
import { negotiateFormat } from './negotiation';
import { HttpCache } from '../httpCache/HttpCache';
import { ResourceEndpoint } from './ResourceEndpoint';
import { apiResponseHeaders, contentTypeOf, defaultDocumentationPage, sendText } from './respond';

/** The route options of every API route, besides those of its operations. */
interface ApiRouteOptions extends SecuredRouteOptions {
  errorRenderer: ReturnType<typeof apiErrorRenderer>;
  /** The renderer also answers the 404s and 405s under the entrypoint (`scopedErrorRenderers`). */
  errorRendererPrefix: string;
}

function resolvePaths(options: ApiOptions): ApiPaths {
  const entrypoint = options.entrypoint ?? '/api';
  const resources = new Map<string, Resource>();
  const prefixes: Record<string, string> = {};
  const identifiers: Record<string, IdentifierType> = {};
  for (const [i, r] of options.resources.entries()) {
    if (resources.has(r.shortName)) {
      throw invalidOption(`api.resources[${i}]`, 'expected one resource per short name', r.shortName);
    }
    if ((BUILT_IN_CLASSES as readonly string[]).includes(r.shortName)) {
      const what = 'this name is the API\'s own class; choose another';
      throw invalidOption(`api.resources[${i}].shortName`, what, r.shortName);
    }
    resources.set(r.shortName, r);
    prefixes[r.shortName] = r.routePrefix;
    identifiers[r.shortName] = r.identifier.type;
  }
  for (const r of resources.values()) {
    for (const p of r.metadata.properties) {
      if (p.relation !== undefined && !resources.has(p.relation)) {
        const what = `relation() names no resource of the API (known: ${[...resources.keys()].join(', ')})`;
        throw invalidOption(`resources.${r.shortName}.schema.${p.name}`, what, p.relation);
      }
    }
  }
  // filters on dotted paths (author.name) and subresource links resolve now that every resource is known
  for (const r of completeLinks(completeFilters([...resources.values()]))) resources.set(r.shortName, r);
  const urlGenerationStrategy = options.urlGenerationStrategy ?? DEFAULT_URL_GENERATION_STRATEGY;
  // a resource's items are named as its Get names them (API Platform's IriConverter), else as it says
  const strategies: Record<string, UrlGenerationStrategy> = {};
  for (const r of resources.values()) {
    const get = r.operations.find((op) => op.kind === 'Get' && op.links.length === 0)
      ?? r.operations.find((op) => op.kind === 'Get');
    strategies[r.shortName] = get?.urlGenerationStrategy ?? r.urlGenerationStrategy ?? urlGenerationStrategy;
  }
  return { entrypoint, contexts: `${entrypoint}/contexts`, docs: `${entrypoint}/docs.jsonld`, resources, prefixes,
    identifiers, strategies, urlGenerationStrategy };
}

/** The operations of a resource grouped by route name, in declaration order. */
function routeGroups(resource: Resource): ResolvedOperation[][] {
  const groups = new Map<string, ResolvedOperation[]>();
  for (const op of resource.operations) groups.set(op.name, [...(groups.get(op.name) ?? []), op]);
  return [...groups.values()];
}

function operationRoute(
  resource: Resource, ops: ResolvedOperation[], paths: ApiPaths, page: RequestHandler, base: ApiRouteOptions,
  cache: HttpCache, formats: ApiFormats, context?: (req: Request) => StateContext,
): Route {
  const endpoint = new ResourceEndpoint(resource, ops, paths, page, formats, context, cache);
  const writes = ops.some((op) => op.kind === 'Post' || op.kind === 'Put' || op.kind === 'Patch');
  const first = (key: 'securityMessage' | 'securityPostDenormalizeMessage'): string | undefined =>
    ops.find((op) => op[key] !== undefined)?.[key];
  const security = endpoint.security();
  const postDenormalize = endpoint.securityPostDenormalize();
  const options: ApiRouteOptions = {
    ...base,
    provider: cache.provider(endpoint.provide),
    ...(security !== undefined ? { security } : {}),
    ...(first('securityMessage') !== undefined ? { securityMessage: first('securityMessage') } : {}),
    ...(writes ? { denormalize: endpoint.denormalize } : {}),
    ...(postDenormalize !== undefined ? { securityPostDenormalize: postDenormalize } : {}),
    ...(first('securityPostDenormalizeMessage') !== undefined
      ? { securityPostDenormalizeMessage: first('securityPostDenormalizeMessage') }
      : {}),
  };
  const { path, requirements, defaults } = routePath(resource, ops[0], formats);
  return new Route(path, {
    methods: ops.map((op) => op.method),
    requirements,
    defaults,
    options: options as unknown as Record<string, unknown>,
    controller: endpoint.controller,
  });
}

/**
 * An operation's route path, requirements and defaults: with the format suffix, symfony's
 * optional `.{_format}` (API Platform's route loader turns `{._format}` into it, `_format`
 * defaulting to null). After a string id (`[^/]+`, which may hold dots) the suffix is one of the
 * API's format names and the id takes the shortest match: `/api/things/a.b.json` is `a.b` in
 * JSON, `/api/things/a.b` and `/api/things/a.yaml` the things `a.b` and `a.yaml`.
 */
function routePath(resource: Resource, op: ResolvedOperation, formats: ApiFormats): {
  path: string; requirements: Record<string, string>; defaults: Record<string, null>;
} {
  const requirements: Record<string, string> = { ...op.requirements };
  if (!op.formatSuffix) return { path: op.path, requirements, defaults: {} };
  if (resource.identifier.type === 'string' && op.path.endsWith('{id}') && requirements.id === ID_REQUIREMENTS.string
    && requirements._format === undefined) {
    requirements.id = `${ID_REQUIREMENTS.string}?`;
    requirements._format = formats.registry.names().join('|');
  }
  return { path: `${op.path}.{_format}`, requirements, defaults: { _format: null } };
}

/**
 * The routes of a set of resources (API Platform's route loader), to add to the kernel's
 * routing table (`createKernel({ routes })`), so `debug:router`, the profiler and the 404/405
 * rules see them. In order: the entrypoint, each resource's operations (operations sharing a
 * route name share one route), the JSON-LD contexts (`<entrypoint>/contexts/{shortName}`), the
 * Hydra documentation (`<entrypoint>/docs.jsonld`) and, unless `docs: false`, the OpenAPI
 * documentation of {@link createDocsRoutes}: `<entrypoint>/docs` (Swagger UI for `Accept:
 * text/html`, else the OpenAPI document), `<entrypoint>/docs.json` and the page's assets.
 *
 * Each operation route runs the kernel's route handlers with API options: the `provider`
 * negotiates the format (406) and reads the item (404) before `security` (401/403); the body is
 * read (400 malformed, 413 too large, 415) and denormalized (PATCH: merge-patch); then
 * `securityPostDenormalize` (403); the controller validates (422), writes (412 stale `If-Match`)
 * and answers in JSON-LD, HAL or JSON with `Vary: Accept`. Errors of these routes are written
 * as problem details or JSON-LD errors (`errorRenderer`).
 * @returns a new collection; route names: `api_entrypoint`, the operations', `api_jsonld_context`,
 *   `api_doc`, then `api_docs_page`, `api_docs_openapi`, `api_docs_asset`
 * @throws KernelConfigError for an unknown option, two resources with one short name or one
 *   route name, a relation to a resource not in `resources`
 */
export function apiRoutes(given: ApiOptions): RouteCollection {
  const options = parseOptions(apiOptionsSchema, given, 'api');
  const paths = resolvePaths(options);
  const docsPath = options.docsPath ?? `${paths.entrypoint}/docs`;
  const docs = options.docs ?? true;
  const title = options.title ?? 'API';
  const page: RequestHandler = options.documentationPage ?? (docs === false
    ? defaultDocumentationPage(paths, docsPath)
    : createDocsPage({ prefix: paths.entrypoint, title }));
  const formats = resolveFormats(options.formats, options.patchFormats);
  const base: ApiRouteOptions = {
    errorRenderer: apiErrorRenderer(paths, formats), errorRendererPrefix: paths.entrypoint,
  };
  const cache = new HttpCache(options.cacheHeaders ?? {}, options.purger, paths);
  const routes = new RouteCollection();
  const add = (name: string, route: Route): void => {
    if (routes.get(name) !== undefined) {
      throw new KernelConfigError(
        'api.resources', `two routes are named "${name}"; give the operations distinct names.`,
      );
    }
    routes.add(name, route);
  };
  const negotiated = (req: Request): object | null => {
    if (req.res !== undefined) apiResponseHeaders(req, req.res, paths);
    req.api = { format: negotiateFormat(req, formats.all, true) };
    return null;
  };
  add(options.entrypointName ?? 'api_entrypoint', new Route(paths.entrypoint, {
    methods: ['GET'],
    options: { ...base, provider: cache.provider(negotiated) },
    controller: (req: Request, res: Response, next) => {
      const format = req.api!.format!;
      if (format === HTML) return page(req, res, next);
      const b = requestBase(req, paths.urlGenerationStrategy);
      const collections: Record<string, string> = {};
      for (const r of paths.resources.values()) {
        // a collection's IRI as its GetCollection writes it (API Platform's EntrypointNormalizer)
        const list = r.operations.find((op) => op.kind === 'GetCollection' && op.links.length === 0);
        const root = iriRoot(b, list?.urlGenerationStrategy ?? r.urlGenerationStrategy ?? paths.urlGenerationStrategy);
        collections[entrypointKey(r.shortName)] = `${root}${r.routePrefix}`;
      }
      if (format.entrypoint === undefined) {
        return sendText(res, `${JSON_TYPE}; charset=utf-8`, 200, JSON.stringify(collections));
      }
      sendText(res, contentTypeOf(format), 200, format.entrypoint({ paths, base: b, request: req, collections }));
    },
  }));
  for (const resource of paths.resources.values()) {
    for (const ops of routeGroups(resource)) {
      add(ops[0].name, operationRoute(resource, ops, paths, page, base, cache, formats, options.stateContext));
    }
  }
  // the JSON-LD documents: in JSON-LD when the client chose it, else as plain JSON
  const jsonOnly = (req: Request): object | null => {
    if (req.res !== undefined) apiResponseHeaders(req, req.res, paths);
    const format = negotiateFormat(req, formats.all, false);
    req.api = { format: format !== HTML && format.name === 'jsonld' ? format : formats.registry.get('json') ?? json };
    return null;
  };
  const sendDocument = (req: Request, res: Response, doc: unknown): void => {
    sendText(res, contentTypeOf(req.api!.format as Format), 200, JSON.stringify(doc));
  };
  add('api_jsonld_context', new Route(`${paths.contexts}/{shortName}`, {
    methods: ['GET'],
    requirements: { shortName: '[A-Za-z][A-Za-z0-9]*' },
    options: { ...base, provider: cache.provider(jsonOnly) },
    controller: (req: Request, res: Response) => {
      const doc = contextDocument(String(req.params.shortName), paths, requestBase(req));
      if (doc === undefined) throw new ItemNotFoundError('JSON-LD context', String(req.params.shortName));
      sendDocument(req, res, doc);
    },
  }));
  add('api_doc', new Route(paths.docs, {
    methods: ['GET'],
    options: { ...base, provider: cache.provider(jsonOnly) },
    controller: (req: Request, res: Response) => {
      sendDocument(req, res, hydraDocumentation(paths, requestBase(req), title));
    },
  }));
  if (docs !== false) {
    const info = docs === true ? {} : docs;
    const resources = [...paths.resources.values()];
    const openApi = createDocsRoutes({
      prefix: paths.entrypoint,
      title,
      document: () => createOpenApiDocument(
        describeApi(resources, { entrypoint: paths.entrypoint, formats }), { title, ...info },
      ),
    });
    for (const [name, route] of openApi.all()) add(name, route);
  }
  return routes;
}
