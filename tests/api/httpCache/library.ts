/** The resources the HTTP cache tests serve: authors, and books with a relation to one. Not a test file. */
import { z } from 'zod';
import {
  defineResource, Delete, Get, GetCollection, Patch, Post, readOnly, relation, type CacheHeaders, type Resource,
} from '../../../src/api';
import type { MemoryState } from '../../../src/api/state/MemoryState';

/** Author and Book on `state`; `book` and `show` are the Book resource's and its Get's `cacheHeaders`. */
export function libraryResources(
  state: MemoryState, cache: { book?: CacheHeaders; show?: CacheHeaders } = {},
): { author: Resource; book: Resource } {
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: readOnly(z.int()), name: z.string() }), provider: state, processor: state,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({ id: readOnly(z.int()), title: z.string(), author: relation('Author').nullable() }),
    provider: state,
    processor: state,
    ...(cache.book !== undefined ? { cacheHeaders: cache.book } : {}),
    operations: [
      GetCollection(), Get(cache.show !== undefined ? { cacheHeaders: cache.show } : {}), Post(), Patch(), Delete(),
    ],
  });
  return { author, book };
}
