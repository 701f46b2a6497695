import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { functionOption, nonEmptyString, optionsObject } from '../../config/optionSchemas';
import type { StateContext } from '../state/types';
import type { Resource } from '../resource/defineResource';

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
  /** Where the HTML documentation lives, linked from the default page. @default '/api/docs' */
  docsPath: nonEmptyString.optional(),
});

/** Options of `apiRoutes` (the routes of a set of resources). All optional but `resources`. */
export type ApiOptions = z.input<typeof apiOptionsSchema>;
