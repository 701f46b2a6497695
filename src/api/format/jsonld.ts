import type { StoredItem } from '../state/types';
import { collectionJsonLd, entrypointJsonLd, itemJsonLdHead, typeEmbeddables } from '../serializer/jsonld';
import { HttpError } from '../../http/errors';
import { idFromPath } from '../resource/identifierSchema';
import { idFromIri } from '../serializer/iri';
import { updateNotAllowed } from '../write/denormalizationError';
import type { DecodeContext, Format, FormatContext } from './Format';
import { jsonObject } from './json';
import { HYDRA_ERROR_LINK, PROBLEM_CONTENT_TYPE, problemDetails } from './problemDetails';

/**
 * An item in JSON-LD: `@context` (a document of its own), `@id`, `@type`, then its properties
 * (an embeddable's value object with its `@type`).
 * @param iri - the document's `@id` (`ItemContext.itemIri`); a member's is its own IRI
 */
function jsonLdItem(c: FormatContext, item: StoredItem, withContext: boolean, iri?: string): Record<string, unknown> {
  const head = itemJsonLdHead(c.resource, item.id, c.paths, c.base, withContext, iri);
  return typeEmbeddables(c.resource, c.normalize(item, head));
}

/**
 * A body's `@id` where no item was read: refused on a POST ("Update is not allowed for this
 * operation."); on a Put that creates (`allowCreate`), the URL's item's IRI only (standard_put.feature).
 * @throws HttpError 400 otherwise
 */
function checkCreatedIri(sent: unknown, c: DecodeContext): void {
  if (c.operation.kind !== 'Put') throw updateNotAllowed();
  const raw = c.request.params.id as string | undefined;
  const own = raw === undefined ? null : idFromPath(c.resource.identifier, raw);
  const type = c.resource.identifier.type;
  const named = typeof sent === 'string' ? idFromIri(sent, c.resource.routePrefix, c.base.baseUrl, type) : null;
  if (own !== null && named === own) return;
  const shown = JSON.stringify(typeof sent === 'string' ? sent.slice(0, 200) : sent);
  throw new HttpError('ERR_HTTP_BAD_REQUEST', `The "@id" ${shown} is not the IRI of the item this PUT creates.`);
}

/**
 * JSON-LD with Hydra (`application/ld+json`, API Platform's `jsonld`, the default): items with
 * `@context`, `@id`, `@type`; collections as `hydra:Collection` (`serializer/jsonld.ts`); errors
 * as problem details with the Hydra keys (`hydra:Error`, `ConstraintViolationList`) and a `Link`
 * to Hydra's error context. A POST body with an `@id` is refused (API Platform: "Update is not
 * allowed for this operation.").
 */
export const jsonld: Format = {
  name: 'jsonld',
  mimeTypes: ['application/ld+json'],
  embeddedHead: (resource, item, paths, base) => itemJsonLdHead(resource, item.id, paths, base, false),
  item: (c) => JSON.stringify(jsonLdItem(c, c.item, true, c.itemIri)),
  collection: (c) => collectionJsonLd(
    c.resource, c.items.map((item) => jsonLdItem(c, item, false)), c.page, c.links, c.path, c.paths, c.base,
  ),
  entrypoint: (c) => JSON.stringify(entrypointJsonLd(c.paths, c.base, c.collections)),
  error: (c) => ({
    contentType: PROBLEM_CONTENT_TYPE,
    body: JSON.stringify(problemDetails(c.error, c.parts, c.paths, c.request, true)),
    headers: { Link: HYDRA_ERROR_LINK },
  }),
  nestedDocumentId: '@id',
  decode: (body, c) => {
    const object = jsonObject(body);
    if (c.previous === null && c.operation.kind !== 'Patch' && '@id' in object) checkCreatedIri(object['@id'], c);
    return object;
  },
  docs: {
    item: (c) => c.ref(c.names.jsonld),
    collection: (c) => ({
      type: 'object',
      properties: {
        '@context': { anyOf: [{ type: 'string' }, { type: 'object' }] },
        '@id': { type: 'string' },
        '@type': { type: 'string', const: 'hydra:Collection' },
        'hydra:member': { type: 'array', items: c.ref(c.names.jsonld) },
        'hydra:totalItems': { type: 'integer', minimum: 0, description: 'Absent in partial pagination.' },
        'hydra:view': {
          type: 'object',
          description: 'Hydra `PartialCollectionView`: the links between pages.',
          properties: Object.fromEntries(['@id', '@type', 'hydra:first', 'hydra:last', 'hydra:previous', 'hydra:next']
            .map((k) => [k, { type: 'string' }])),
          required: ['@id', '@type'],
        },
        'hydra:search': { type: 'object', description: 'Hydra `IriTemplate` of the filters.' },
      },
      required: ['@context', '@id', '@type', 'hydra:member'],
    }),
    input: (c) => c.ref(c.names.input),
  },
};
