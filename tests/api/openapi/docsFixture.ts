/** A small hand-written OpenAPI document and the docs routes serving it, for the page's tests. */
import { createDocsRoutes } from '../../../src/api/openapi/docsRoutes';
import type { RouteCollection } from '../../../src/routing/RouteCollection';

const item = {
  type: 'object',
  properties: { id: { type: 'integer', readOnly: true }, title: { type: 'string' } },
  required: ['title'],
};

/** Three operations on two paths. */
export const SMALL_DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Docs page test', version: '1.0.0' },
  paths: {
    '/api/things': {
      get: {
        operationId: 'listThings',
        responses: {
          200: { description: 'Things', content: { 'application/json': { schema: { type: 'array', items: item } } } },
        },
      },
      post: {
        operationId: 'createThing',
        requestBody: { content: { 'application/json': { schema: item } } },
        responses: { 201: { description: 'Created' } },
      },
    },
    '/api/things/{id}': {
      get: {
        operationId: 'getThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: { description: 'A thing', content: { 'application/json': { schema: item } } } },
      },
    },
  },
} as const;

/** The docs routes for {@link SMALL_DOCUMENT}, under `/api`. */
export function docsTestRoutes(): RouteCollection {
  return createDocsRoutes({ document: () => SMALL_DOCUMENT, title: 'Things API' });
}
