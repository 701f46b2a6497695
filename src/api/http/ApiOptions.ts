import type { RequestHandler } from 'express';
import type { Resource } from '../resource/defineResource';

/** Options of `apiRoutes` (the routes of a set of resources). All optional but `resources`. */
export interface ApiOptions {
  /** The resources, as `defineResource` returned them. Relations must name one of them. */
  resources: readonly Resource[];
  /** The entrypoint's path (`GET`). @default '/api' */
  entrypoint?: string;
  /** The entrypoint's route name. @default 'api_entrypoint' */
  entrypointName?: string;
  /**
   * Answers a client that accepts HTML and none of the API's formats (a browser), on every API
   * route (API Platform's documentation page). @default a small HTML page linking to `docs`
   */
  documentationPage?: RequestHandler;
  /** The API's title (Hydra `hydra:title`). @default 'API' */
  title?: string;
  /** Where the HTML documentation lives, linked from the default page. @default '/api/docs' */
  docsPath?: string;
}
