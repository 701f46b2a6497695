/**
 * UUID and string identifiers in the OpenAPI document (issue 25, API Platform's uuid.feature and
 * custom_identifier.feature resources documented as its OpenApiFactory does): a uuid resource's
 * `{id}` path parameter and `id` property say `format: uuid`, a string one's `type: string`, and a
 * subresource's link variable is typed as its parent's id (`/authors/{authorId}/books`), so a
 * generated client sends a UUID where the server matches one.
 */
import { validate } from '@readme/openapi-parser';
import { z } from 'zod';
import {
  defineResource, describeApi, Get, GetCollection, link, MemoryState, Post, readOnly, relation,
} from '../../../src/api';
import { createOpenApiDocument } from '../../../src/api/openapi/createOpenApiDocument';

interface Schema {
  type?: string; format?: string; pattern?: string; minimum?: number; properties?: Record<string, Schema>;
}
interface Parameter { name: string; in: string; schema: Schema }
interface Doc {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components: { schemas: Record<string, Schema> };
}

function document(): Doc {
  const state = new MemoryState();
  const author = defineResource({
    shortName: 'Author', schema: z.object({ id: z.uuid(), name: z.string() }), provider: state, processor: state,
  });
  const publisher = defineResource({
    shortName: 'Publisher', schema: z.object({ id: z.string().max(40), name: z.string() }),
    provider: state, processor: state,
  });
  const genre = defineResource({
    shortName: 'Genre', schema: z.object({ name: z.string() }), provider: state, processor: state,
  });
  const book = defineResource({
    shortName: 'Book',
    schema: z.object({
      id: readOnly(z.uuid()), title: z.string(), author: relation('Author'), publisher: relation('Publisher'),
      genre: relation('Genre').nullable(),
    }),
    operations: [
      GetCollection(), Get(), Post(),
      GetCollection({ name: 'author_books', uriTemplate: '/authors/{authorId}/books',
        uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) } }),
      GetCollection({ name: 'publisher_books', uriTemplate: '/publishers/{publisherId}/books',
        uriVariables: { publisherId: link({ fromClass: 'Publisher', toProperty: 'publisher' }) } }),
      GetCollection({ name: 'genre_books', uriTemplate: '/genres/{genreId}/books',
        uriVariables: { genreId: link({ fromClass: 'Genre', toProperty: 'genre' }) } }),
    ],
    provider: state, processor: state,
  });
  return createOpenApiDocument(describeApi([author, publisher, genre, book]), { title: 'Library', version: '1.0.0' }) as
    unknown as Doc;
}

const pathParameter = (doc: Doc, path: string, name: string) =>
  doc.paths[path].get.parameters?.find((p) => p.in === 'path' && p.name === name)?.schema;

describe('identifiers in the OpenAPI document', () => {
  const doc = document();

  test('a uuid resource: {id} and the id property say format uuid', () => {
    expect(pathParameter(doc, '/authors/{id}', 'id')).toMatchObject({ type: 'string', format: 'uuid' });
    expect(pathParameter(doc, '/books/{id}', 'id')).toMatchObject({ type: 'string', format: 'uuid' });
    for (const name of ['Author', 'Author.jsonld', 'Book', 'Book.jsonld']) {
      expect([name, doc.components.schemas[name].properties?.id]).toEqual([name, expect.objectContaining({
        type: 'string', format: 'uuid',
      })]);
    }
  });

  test('a string resource: {id} and the id property are strings, with no format', () => {
    const id = pathParameter(doc, '/publishers/{id}', 'id');
    expect([id?.type, id?.format]).toEqual(['string', undefined]);
    const property = doc.components.schemas.Publisher.properties?.id;
    expect([property?.type, property?.format]).toEqual(['string', undefined]);
  });

  test('a link variable is typed as its parent\'s id: uuid, string, integer', () => {
    expect(pathParameter(doc, '/authors/{authorId}/books', 'authorId')).toEqual({
      type: 'string', format: 'uuid', pattern: expect.stringContaining('[0-9a-fA-F]{8}'),
    });
    expect(pathParameter(doc, '/publishers/{publisherId}/books', 'publisherId')).toEqual({
      type: 'string', pattern: '^(?:[^/]+)$',
    });
    expect(pathParameter(doc, '/genres/{genreId}/books', 'genreId')).toEqual({ type: 'integer', minimum: 0 });
  });

  test('the document is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });
});
