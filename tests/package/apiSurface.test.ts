/**
 * `express-kernel/api` is the door of what a user declares and plugs in (issue 25: "the public
 * door stays small"): resources, operations, filters, formats, providers, processors, stores,
 * errors. The request path's own pieces, which the issue named as leaked internals, are not
 * exported: a user who imported them would pin the layer's insides.
 */
import * as api from '../../src/api';

/** The internals `express-kernel/api` exported before (issue 25 lists the first six). */
const INTERNALS = [
  'negotiateFormat', 'etagOf', 'parseCollectionQuery', 'MAX_PAGE', 'unwrapSchema', 'mergePatch',
  'formatCollectionQuery', 'parseQueryString', 'MAX_QUERY_LENGTH', 'toStoredData', 'invalidRelation', 'idFromIri',
  'idFromPath', 'isAtomic', 'propertyPath', 'isResolvedPath', 'MAX_RELATIONS_CROSSED', 'paginationParameters',
  'plural', 'snakeCase', 'RELATION_META', 'MANY_META', 'OPERATION_METHODS', 'ITEM_KINDS',
];

describe('express-kernel/api', () => {
  test('exports none of the request path\'s internals', () => {
    expect(INTERNALS.filter((name) => name in api)).toEqual([]);
  });

  test('exports what a resource declaration needs', () => {
    for (const name of ['defineResource', 'apiRoutes', 'GetCollection', 'Get', 'Post', 'Put', 'Patch', 'Delete',
      'relation', 'toMany', 'groups', 'SearchFilter', 'MemoryState', 'FormatRegistry', 'storeProcessor',
      'storeProvider', 'link']) {
      expect(typeof (api as Record<string, unknown>)[name]).toBe('function');
    }
  });
});
