/**
 * A subresource's link variables in the OpenAPI document (issue 25, API Platform's `uriVariables`):
 * `/authors/{authorId}/books` declares `authorId` as a required path parameter, matched by its
 * route requirement, so the document is valid OpenAPI 3.1 and a generated client can fill the path.
 */
import { validate } from '@readme/openapi-parser';
import { z } from 'zod';
import {
  defineResource, describeApi, Get, GetCollection, link, MemoryState, readOnly, relation,
} from '../../../src/api';
import { createOpenApiDocument } from '../../../src/api/openapi/createOpenApiDocument';

interface Parameter { name: string; in: string; required?: boolean }
type Operation = { parameters?: Parameter[] };

function document() {
  const state = new MemoryState();
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: readOnly(z.int()), name: z.string() }),
    operations: [
      GetCollection(), Get(),
      Get({ name: 'book_author', uriTemplate: '/books/{id}/author',
        uriVariables: { id: link({ fromClass: 'Book', fromProperty: 'author' }) } }),
    ],
    provider: state, processor: state,
  });
  const book = defineResource({
    shortName: 'Book', schema: z.object({ id: readOnly(z.int()), title: z.string(), author: relation('Author').nullable() }),
    operations: [
      GetCollection(), Get(),
      GetCollection({ name: 'author_books', uriTemplate: '/authors/{authorId}/books',
        uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) } }),
    ],
    provider: state, processor: state,
  });
  return createOpenApiDocument(describeApi([book, author]), { title: 'Library', version: '1.0.0' }) as unknown as {
    paths: Record<string, Record<string, Operation>>;
  };
}

describe('subresource paths in the OpenAPI document', () => {
  test('declare each link variable as a required path parameter', () => {
    const doc = document();
    const books = doc.paths['/authors/{authorId}/books'].get;
    const authorId = books.parameters?.find((p) => p.name === 'authorId');
    expect(authorId).toMatchObject({ in: 'path', required: true });
    const author = doc.paths['/books/{id}/author'].get;
    expect(author.parameters?.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['id']);
  });

  test('the document is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });
});
