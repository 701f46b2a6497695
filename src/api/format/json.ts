import { HttpError } from '../../http/errors';
import { linkHeader } from '../serializer/pagination';
import type { Format } from './Format';

/** The media type of plain JSON. */
export const JSON_TYPE = 'application/json';

/**
 * A JSON body as an object (a copy of its members).
 * @throws HttpError 400 `Expected a JSON object body.` for anything else (an array, a scalar, no body)
 */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError('ERR_HTTP_BAD_REQUEST', 'Expected a JSON object body.');
  }
  return { ...(body as Record<string, unknown>) };
}

/**
 * Plain JSON (API Platform's `json`): an item is its normalization (`id`, the readable
 * properties, relations as IRIs); a collection is the array of its page's items, with the
 * pages linked in an RFC 8288 `Link` header; errors are problem details, and a client that
 * accepts only `application/problem+json` gets them too. Bodies are the same objects.
 */
export const json: Format = {
  name: 'json',
  mimeTypes: [JSON_TYPE],
  errorMimeTypes: ['application/problem+json'],
  embeddedHead: () => ({}),
  item: (c) => JSON.stringify(c.normalize(c.item)),
  collection: (c) => {
    const link = linkHeader(c.links);
    if (link !== '') c.header('Link', link);
    return JSON.stringify(c.items.map((item) => c.normalize(item)));
  },
  entrypoint: (c) => JSON.stringify(c.collections),
  nestedDocumentId: 'id',
  decode: (body) => jsonObject(body),
  docs: {
    item: (c) => c.ref(c.names.output),
    collection: (c) => ({ type: 'array', items: c.ref(c.names.output) }),
    input: (c) => c.ref(c.names.input),
    patch: (c) => c.ref(c.names.patch),
  },
};
