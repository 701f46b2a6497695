import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { functionOption, nonEmptyString, objectWith, optionsObject } from '../../config/optionSchemas';
import type { StateContext } from '../state/types';
import { cacheHeadersSchema } from '../httpCache/cacheHeaders';
import type { Purger } from '../httpCache/Purger';
import type { Resource } from '../resource/defineResource';
import type { Format } from '../format/Format';
import { FormatRegistry, MEDIA_TYPE } from '../format/FormatRegistry';
import type { BuiltInFormatName } from '../format/builtInFormats';
import { urlGenerationStrategySchema } from '../resource/urlGenerationStrategy';

const RESOURCE = 'expected what defineResource() returns';
const ENTRYPOINT = 'expected a path such as "/api"';

/**
 * The schema of {@link ApiOptions}, validated once by `apiRoutes`; the checks across resources
 * (one per short name, relations to known resources, one route per name) follow the parse.
 */
export const apiOptionsSchema = optionsObject({
  /** The resources, as `defineResource` returned them. Relations must name one of them. */
  resources: z.array(z.custom<Resource>((r) => typeof r === 'object' && r !== null
    && typeof (r as Partial<Resource>).shortName === 'string' && (r as Partial<Resource>).metadata !== undefined,
  { error: RESOURCE }), { error: 'expected an array of resources' }).readonly(),
  /** The entrypoint's path (`GET`). @default '/api' */
  entrypoint: z.string({ error: ENTRYPOINT }).regex(/^\/[^{}]*[^/{}]$/, { error: ENTRYPOINT }).optional(),
  /** The entrypoint's route name. @default 'api_entrypoint' */
  entrypointName: nonEmptyString.optional(),
  /**
   * Answers a client that accepts HTML and none of the API's formats (a browser), on every API
   * route (API Platform's documentation page). @default a small HTML page linking to `docs`
   */
  documentationPage: functionOption<RequestHandler>('a function (req, res, next) => void').optional(),
  /**
   * The store context of a request (e.g. `queryLogFor` of `express-kernel/api` SQL, whose
   * statements the profiler's Database panel shows). The API panel counts them either way.
   */
  stateContext: functionOption<(req: Request) => StateContext>('a function (req) => StateContext').optional(),
  /** The API's title (Hydra `hydra:title`). @default 'API' */
  title: z.string().optional(),
  /**
   * The API's documentation routes, on by default (API Platform's `api_doc`): `<entrypoint>/docs`
   * (Swagger UI for a browser, the OpenAPI document for `curl` and JSON clients),
   * `<entrypoint>/docs.json` (OpenAPI 3.1) and the page's assets, and the Swagger UI page as the
   * answer of every API route to a browser. `{ description, version }` go into the OpenAPI
   * document's `info`; `false` leaves them out (mount `createDocsRoutes` yourself, or none).
   * The Hydra documentation (`<entrypoint>/docs.jsonld`) is served either way.
   * @default true
   */
  docs: z.union([z.boolean(), optionsObject({
    description: z.string().optional(),
    version: nonEmptyString.optional(),
  })], { error: 'expected true, false or { description, version }' }).optional(),
  /**
   * Where the HTML documentation lives, linked from the default page when `docs` is `false`.
   * @default '/api/docs'
   */
  docsPath: nonEmptyString.optional(),
  /**
   * The API-wide `cacheHeaders` (API Platform's `defaults.cache_headers`): the `Cache-Control`
   * and `Vary` of every successful GET, under each resource's and operation's own.
   * @default { vary: ['Accept'] }: `Cache-Control: no-cache, private` and `Vary: Accept`
   * @example { max_age: 0, shared_max_age: 3600, public: true }
   */
  cacheHeaders: cacheHeadersSchema.optional(),
  /**
   * Purges a shared cache after each write and names the tag headers of cacheable responses
   * (API Platform's `http_cache.invalidation.purger`), e.g. `new VarnishXKeyPurger({ urls })`.
   * @default none: cacheable responses carry `Cache-Tags`, writes purge nothing
   */
  purger: objectWith<Purger>(['purge', 'getResponseHeaders'], 'a Purger (purge, getResponseHeaders)').optional(),
  /**
   * The formats the API serves (API Platform's `formats`), in order of preference: the first
   * answers `Accept: *∕*` and requests without `Accept`. Built-in names (`jsonld`, `jsonhal`,
   * `json`, `jsonapi`, `csv`, `xml`) or {@link Format}s of your own, or a {@link FormatRegistry}.
   * Each format is validated here (a wrong one is a `KernelConfigError` at start-up).
   * @default ['jsonld', 'jsonhal', 'json']
   * @example ['jsonld', 'json', 'csv', yaml]
   */
  formats: z.union([
    z.instanceof(FormatRegistry),
    z.array(
      z.custom<Format | BuiltInFormatName>((f) => typeof f === 'string' || (typeof f === 'object' && f !== null)),
    )
      .min(1, { error: 'expected at least one format' }).readonly(),
  ], { error: 'expected an array of format names or formats, or a FormatRegistry' }).optional(),
  /**
   * The media types of PATCH bodies, by the format that reads them (API Platform's
   * `patch_formats`).
   * @default { json: ['application/merge-patch+json'] }
   * @example { json: ['application/merge-patch+json'], jsonapi: ['application/vnd.api+json'] }
   */
  patchFormats: z.record(z.string(), z.array(z.string().regex(MEDIA_TYPE,
    { error: 'expected a media type such as "application/merge-patch+json"' })).readonly()).optional(),
  /**
   * How the API writes IRIs (API Platform's `defaults.url_generation_strategy`), under each
   * resource's and operation's own `urlGenerationStrategy`: `ReferenceType.ABSOLUTE_PATH`
   * (`/api/books/3`), `ABSOLUTE_URL` (`https://example.com/api/books/3`: the request's scheme and
   * host as the kernel sees them, a trusted proxy's `X-Forwarded-*` applied) or `NETWORK_PATH`
   * (`//example.com/api/books/3`), from `express-kernel/routing`. The entrypoint follows it.
   * @default ReferenceType.ABSOLUTE_PATH
   * @example ReferenceType.ABSOLUTE_URL
   */
  urlGenerationStrategy: urlGenerationStrategySchema.optional(),
});

/** Options of `apiRoutes` (the routes of a set of resources). All optional but `resources`. */
export type ApiOptions = z.input<typeof apiOptionsSchema>;
