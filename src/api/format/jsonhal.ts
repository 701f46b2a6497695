import { collectionHal, entrypointHal, itemHal } from '../serializer/hal';
import type { JsonSchema } from '../openapi/resourceSchemas';
import type { Format } from './Format';
import { iriRoot } from '../serializer/ApiContext';
import { jsonObject } from './json';

const LINK: JsonSchema = { type: 'object', properties: { href: { type: 'string' } }, required: ['href'] };

/**
 * HAL (`application/hal+json`, API Platform's `jsonhal`): `_links.self`, relations as links,
 * collections with `_embedded.item` and page links (`serializer/hal.ts`). Errors are problem
 * details. A body in HAL is read as plain JSON (not documented: HAL is an output format).
 */
export const jsonhal: Format = {
  name: 'jsonhal',
  mimeTypes: ['application/hal+json'],
  embeddedHead: () => ({}),
  item: (c) => JSON.stringify(itemHal(c.resource, c.normalize(c.item), c.paths, c.base, c.itemIri)),
  collection: (c) => JSON.stringify(collectionHal(
    c.resource, c.items.map((item) => c.normalize(item)), c.page, c.links, c.paths, c.base, c.itemsPerPage,
  )),
  entrypoint: (c) => JSON.stringify(entrypointHal(`${iriRoot(c.base)}${c.paths.entrypoint}`, c.collections)),
  decode: (body) => jsonObject(body),
  docs: {
    item: (c) => c.ref(c.names.jsonhal),
    collection: (c) => ({
      type: 'object',
      properties: {
        _links: {
          type: 'object',
          properties: {
            ...Object.fromEntries(['self', 'first', 'last', 'prev', 'next'].map((k) => [k, LINK])),
            item: { type: 'array', items: LINK },
          },
          required: ['self'],
        },
        _embedded: {
          type: 'object',
          description: 'Absent from an empty page.',
          properties: { item: { type: 'array', items: c.ref(c.names.jsonhal) } },
        },
        totalItems: { type: 'integer', minimum: 0, description: 'Absent in partial pagination.' },
        itemsPerPage: { type: 'integer', minimum: 0, description: 'The page size; absent without pagination.' },
      },
      required: ['_links'],
    }),
  },
};
