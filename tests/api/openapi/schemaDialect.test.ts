/**
 * zod's JSON Schema in OpenAPI 3.1's dialect: nullables as type arrays, unknown keywords as `x-`
 * extensions, through nested schemas, and the same values accepted before and after (ajv).
 */
import Ajv2020 from 'ajv/dist/2020';
import { z } from 'zod';
import { toOpenApiDialect } from '../../../src/api/openapi/schemaDialect';

describe('toOpenApiDialect(schema)', () => {
  test('a nullable scalar is one schema with a type array, the wrapper\'s keywords kept', () => {
    expect(toOpenApiDialect({ anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }], readOnly: true }))
      .toEqual({ type: ['number', 'null'], minimum: 0, readOnly: true });
  });

  test('an enum or a const takes null among its values', () => {
    expect(toOpenApiDialect({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'null' }] }))
      .toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(toOpenApiDialect({ anyOf: [{ type: 'string', const: 'a' }, { type: 'null' }] }))
      .toEqual({ type: ['string', 'null'], enum: ['a', null] });
  });

  test('a branch that cannot take a type array keeps the anyOf', () => {
    const ref = { anyOf: [{ $ref: '#/components/schemas/Author' }, { type: 'null' }] };
    expect(toOpenApiDialect(ref)).toEqual(ref);
  });

  test('a date-time has no pattern: the API writes `+00:00`, which zod\'s `Z`-only pattern refuses', () => {
    const zod = z.toJSONSchema(z.object({ at: z.iso.datetime().nullable() })) as Record<string, unknown>;
    const out = toOpenApiDialect(zod) as { properties: { at: Record<string, unknown> } };
    expect(out.properties.at).toEqual({ type: ['string', 'null'], format: 'date-time' });
    const validate = new Ajv2020({ strict: false }).compile(out);
    expect(validate({ at: '2015-03-01T10:00:00+00:00' })).toBe(true);
  });

  test('an unknown keyword becomes an x- extension, at any depth', () => {
    expect(toOpenApiDialect({
      type: 'object',
      properties: { author: { type: 'string', relation: 'Author' }, tags: { type: 'array', items: { kind: 'text' } } },
    })).toEqual({
      type: 'object',
      properties: { author: { type: 'string', 'x-relation': 'Author' }, tags: { type: 'array', items: { 'x-kind': 'text' } } },
    });
  });

  test('accepts the same values as the schema it rewrites', () => {
    const ajv = new Ajv2020({ strict: false });
    const zod = {
      type: 'object',
      properties: {
        price: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
        state: { anyOf: [{ type: 'string', enum: ['draft', 'published'] }, { type: 'null' }] },
      },
    };
    const before = ajv.compile(zod);
    const after = ajv.compile(toOpenApiDialect(zod));
    const values = [{ price: null }, { price: 3 }, { price: -1 }, { price: '3' }, { state: null }, { state: 'draft' },
      { state: 'gone' }, { state: 1 }, {}];
    expect(values.map((v) => after(v))).toEqual(values.map((v) => before(v)));
  });
});
