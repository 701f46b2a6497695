import { z } from 'zod';
import {
  BooleanFilter, DateFilter, defineResource, Delete, ExistsFilter, Get, GetCollection, OrderFilter, Patch, Post, Put,
  RangeFilter, readOnly, relation, SearchFilter, type Resource,
} from '../api';
import type { StateProcessor, StateProvider } from '../api/state/types';
import type { PostDenormalizeContext } from '../security/RouteSecurity';

/** ISBN-10 or ISBN-13, digits (and a final X for ISBN-10), hyphens allowed. */
const ISBN = /^(?:\d[- ]?){9}[\dX]$|^(?:\d[- ]?){12}\d$/;

/** The demo's Author: a name and an optional birth date. */
export const authorSchema = z.object({
  id: readOnly(z.int()),
  name: z.string().trim().min(1).max(255),
  birthDate: z.iso.date().nullable().optional(),
});

/** The demo's Book. */
export const bookSchema = z.object({
  id: readOnly(z.int()),
  title: z.string().trim().min(1).max(255),
  isbn: z.string().regex(ISBN, 'Expected an ISBN-10 or ISBN-13.').nullable().optional(),
  publishedAt: z.iso.date().nullable().optional(),
  price: z.number().min(0).max(1_000_000).nullable().optional(),
  featured: z.boolean().default(false),
  author: relation('Author').nullable().optional(),
});

/**
 * Only an admin may feature a book: a user may edit a book that is already featured (the value
 * does not change), but not set `featured: true` (API Platform's `securityPostDenormalize`
 * with `previous_object`).
 */
export function featuredOnlyByAdmin({ object, previousObject, isGranted }: PostDenormalizeContext): boolean {
  const wants = (object as { featured?: unknown }).featured === true;
  const had = (previousObject as { featured?: unknown } | null)?.featured === true;
  return !wants || had || isGranted('ROLE_ADMIN');
}

const FEATURED_MESSAGE = 'Only an admin may feature a book.';

/**
 * The demo's resources: Book and Author. Reads are anonymous, writes need ROLE_USER,
 * DELETE and `featured: true` need ROLE_ADMIN. Book's operations keep the reference routing
 * table (`book_list`, `book_create`, `book_show` with `id: \d+`, `book_update` PUT|PATCH and
 * `book_delete` without requirement: `PUT /api/books/abc` matches and answers 404).
 * @param store - where items are kept (the SQL store, or a MemoryState)
 */
export function createDemoResources(store: StateProvider & StateProcessor): Resource[] {
  const author = defineResource({
    shortName: 'Author',
    description: 'Authors of books.',
    schema: authorSchema,
    provider: store,
    processor: store,
    operations: [
      GetCollection(), Get(),
      Post({ security: 'ROLE_USER' }), Put({ security: 'ROLE_USER' }), Patch({ security: 'ROLE_USER' }),
      Delete({ security: 'ROLE_ADMIN' }),
    ],
    filters: [SearchFilter({ name: 'partial' }), OrderFilter(['name', 'birthDate']), DateFilter(['birthDate'])],
  });
  const book = defineResource({
    shortName: 'Book',
    description: 'Books of the demo library.',
    schema: bookSchema,
    provider: store,
    processor: store,
    operations: [
      GetCollection({ name: 'book_list' }),
      Post({
        name: 'book_create', security: 'ROLE_USER',
        securityPostDenormalize: featuredOnlyByAdmin, securityPostDenormalizeMessage: FEATURED_MESSAGE,
      }),
      Get({ name: 'book_show', requirements: { id: '\\d+' } }),
      Put({
        name: 'book_update', requirements: {}, security: 'ROLE_USER',
        securityPostDenormalize: featuredOnlyByAdmin, securityPostDenormalizeMessage: FEATURED_MESSAGE,
      }),
      Patch({
        name: 'book_update', requirements: {}, security: 'ROLE_USER',
        securityPostDenormalize: featuredOnlyByAdmin, securityPostDenormalizeMessage: FEATURED_MESSAGE,
      }),
      Delete({ name: 'book_delete', requirements: {}, security: 'ROLE_ADMIN' }),
    ],
    filters: [
      SearchFilter({ title: 'partial', isbn: 'exact', author: 'exact' }),
      OrderFilter(['title', 'publishedAt', 'price']),
      RangeFilter(['price']),
      BooleanFilter(['featured']),
      DateFilter(['publishedAt']),
      ExistsFilter(['author', 'publishedAt']),
    ],
  });
  return [book, author];
}
