/**
 * `defineResource` validates its options once, with the one option error format
 * (`Invalid option "resources.<ShortName>.<path>": … (got …)`, did-you-mean for a mistyped key).
 */
import { z } from 'zod';
import {
  defineResource, Delete, Get, GetCollection, Post, relation, SearchFilter, type ResourceOptions,
} from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';

const store = new MemoryState();
const book = (extra: Record<string, unknown> = {}): ResourceOptions => ({
  shortName: 'Book',
  schema: z.object({ title: z.string(), author: relation('Author').nullable().optional() }),
  provider: store,
  processor: store,
  ...extra,
});
const define = (options: unknown) => (): unknown => defineResource(options as ResourceOptions);

describe('defineResource options', () => {
  it('resolves the defaults of a valid declaration', () => {
    const r = defineResource(book({ operations: [GetCollection(), Get()], pagination: { maximumItemsPerPage: 20 } }));
    expect(r.routePrefix).toBe('/api/books');
    expect(r.metadata.table).toBe('books');
    expect(r.operations.map((op) => [op.name, op.method, op.path])).toEqual([
      ['book_get_collection', 'GET', '/api/books'], ['book_get', 'GET', '/api/books/{id}'],
    ]);
    expect(r.pagination).toMatchObject({ itemsPerPage: 20, maximumItemsPerPage: 20, enabled: true });
  });

  it.each([
    ['a mistyped option', book({ paginaton: {} }),
      'Invalid option "resources.Book.paginaton": unknown option; did you mean "pagination"?'],
    ['a mistyped pagination option', book({ pagination: { itemPerPage: 10 } }),
      'Invalid option "resources.Book.pagination.itemPerPage": unknown option; did you mean "itemsPerPage"?'],
    ['a mistyped operation option', book({ operations: [GetCollection(), Get({ pth: '/b/{id}' } as object)] }),
      'Invalid option "resources.Book.operations[1].pth": unknown option; did you mean "path"?'],
  ])('names %s and the option it meant', (_, options, message) => {
    expect(define(options)).toThrow(message);
  });

  it.each([
    ['a short name that is not PascalCase', { ...book(), shortName: 'book' },
      'Invalid option "resource.shortName": expected a PascalCase name such as "Book" (got "book").'],
    ['options that are not an object', null, 'Invalid option "resource": expected an object (got null).'],
    ['a schema that is not a zod object', book({ schema: { title: 'string' } }),
      'Invalid option "resources.Book.schema": expected a zod object (z.object({...})) (got {"title":"string"}).'],
    ['a missing provider', book({ provider: undefined }),
      'Invalid option "resources.Book.operations[0].provider": expected a provider here or on the resource '
        + '(a store, a Provider or a function): GetCollection reads (got nothing).'],
    ['a provider that is neither a store nor a Provider', book({ provider: { provideItem: () => null } }),
      'Invalid option "resources.Book.provider": expected a Provider (provide), a function (operation, uriVariables, '
        + 'context) or a store (provideCollection, provideItem) (got {}).'],
    ['write operations without a processor', book({ processor: undefined, operations: [Post()] }),
      'Invalid option "resources.Book.operations[0].processor": expected a processor here or on the resource '
        + '(a store, a Processor or a function): Post writes (got nothing).'],
    ['a processor on a read', book({ operations: [Get({ processor: () => null })] }),
      'Invalid option "resources.Book.operations[0].processor": only Post, Put, Patch and Delete write (got a processor).'],
    ['deserialize on a Delete', book({ operations: [Delete({ deserialize: false })] }),
      'Invalid option "resources.Book.operations[0].deserialize": only Post, Put and Patch read a body (got false).'],
    ['a status out of 2xx', book({ operations: [Post({ status: 302 })] }),
      'Invalid option "resources.Book.operations[0].status": expected an HTTP status from 200 to 299 (got 302).'],
    ['both path and uriTemplate', book({ operations: [Get({ path: '/api/b/{id}', uriTemplate: '/b/{id}' })] }),
      'Invalid option "resources.Book.operations[0].uriTemplate": expected path or uriTemplate, not both (got "/b/{id}").'],
    ['an item uriTemplate without {id}', book({ operations: [Get({ uriTemplate: '/books/first' })] }),
      'Invalid option "resources.Book.operations[0].uriTemplate": expected a path with an {id} placeholder '
        + '(got "/api/books/first").'],
    ['an item path without {id}', book({ operations: [Get({ path: '/books/one' })] }),
      'Invalid option "resources.Book.operations[0].path": expected a path with an {id} placeholder '
        + '(got "/books/one").'],
    ['an unknown operation kind', book({ operations: [{ kind: 'List' }] }),
      'Invalid option "resources.Book.operations[0].kind": expected GetCollection, Get, Post, Put, Patch or Delete '
        + '(got "List").'],
    ['an empty security role', book({ security: '' }),
      'Invalid option "resources.Book.security": expected a role such as "ROLE_USER" '
        + 'or a function (context) => boolean (got "").'],
    ['more items per page than the maximum', book({ pagination: { itemsPerPage: 50, maximumItemsPerPage: 40 } }),
      'Invalid option "resources.Book.pagination.itemsPerPage": expected at most maximumItemsPerPage (40) '
        + '(got 50).'],
    ['a table name that is not snake_case', book({ table: 'Books' }),
      'Invalid option "resources.Book.table": expected a snake_case table name (got "Books").'],
    ['a filter on a mistyped property', book({ filters: [SearchFilter({ titel: 'partial' })] }),
      'Invalid option "resources.Book.filters[0].properties": unknown property of Book (got "titel"); '
        + 'did you mean "title"?'],
    ['a text strategy on a relation', book({ filters: [SearchFilter({ author: 'partial' })] }),
      'Invalid option "resources.Book.filters[0].properties.author": only "exact" applies to a relation property '
        + '(got "partial").'],
    ['a schema property of an unsupported type', book({ schema: z.object({ tags: z.bigint() }) }),
      'Invalid option "resources.Book.schema.tags": expected a string, date (z.iso.date()), '
        + 'datetime (z.iso.datetime()), number, boolean, enum, relation(), toMany(), JSON (z.array(), z.record(), '
        + 'z.object()) or embeddable (embeddable(z.object({...}), { name })) schema (got "bigint").'],
  ])('rejects %s', (_, options, message) => {
    expect(define(options)).toThrow(message);
  });
});
