/**
 * A composite identifier in the OpenAPI document (issue 25, API Platform's composite.feature):
 * the item path's `id` parameter is the parts' text (`name=<name>;year=<year>`), the output
 * schemas have no `id` property (the parts are the properties that identify an item), and the
 * document is valid OpenAPI 3.1.
 */
import { validate } from '@readme/openapi-parser';
import { z } from 'zod';
import { defineResource, describeApi, MemoryState, relation } from '../../../src/api';
import { createOpenApiDocument } from '../../../src/api/openapi/createOpenApiDocument';

interface Parameter { name: string; in: string; required?: boolean; schema?: Record<string, unknown> }
interface Schema { properties?: Record<string, unknown>; required?: string[] }

function document() {
  const state = new MemoryState();
  const item = defineResource({
    shortName: 'CompositePrimitiveItem',
    schema: z.object({ name: z.string(), year: z.int(), description: z.string() }),
    identifiers: ['name', 'year'], provider: state, processor: state,
  });
  const review = defineResource({
    shortName: 'Review', schema: z.object({ item: relation('CompositePrimitiveItem'), stars: z.int() }),
    provider: state, processor: state,
  });
  return createOpenApiDocument(describeApi([item, review]), { title: 'Composite', version: '1.0.0' }) as unknown as {
    paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
    components: { schemas: Record<string, Schema> };
  };
}

describe('a composite identifier in the OpenAPI document', () => {
  test('the item path\'s id is the parts\' text; the output schemas have no id property', () => {
    const doc = document();
    const [path] = Object.keys(doc.paths).filter((p) => p === '/composite_primitive_items/{id}');
    const id = doc.paths[path].get.parameters?.find((p) => p.in === 'path');
    expect(id).toMatchObject({
      name: 'id', required: true, schema: { type: 'string', description: 'name=<name>;year=<year>' },
    });
    for (const name of ['CompositePrimitiveItem', 'CompositePrimitiveItem.jsonld']) {
      const schema = doc.components.schemas[name];
      expect([name, Object.keys(schema.properties ?? {}).filter((k) => !k.startsWith('@'))])
        .toEqual([name, ['name', 'year', 'description']]);
      expect(schema.required).toEqual(expect.arrayContaining(['name', 'year']));
      expect(schema.required).not.toContain('id');
    }
  });

  test('the document is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document()) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });
});
