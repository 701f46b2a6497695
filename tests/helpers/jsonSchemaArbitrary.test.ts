/**
 * The JSON Schema arbitraries agree with a real validator (ajv, draft 2020-12, ajv-formats): every
 * value {@link validValue} makes is accepted and every value {@link invalidValue} makes is
 * rejected, on hand-written schemas and on what zod 4 writes for a resource like the demo's Book.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { z } from 'zod';
import { invalidValue, validValue, type JsonSchema } from './jsonSchemaArbitrary';

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addFormat('iri-reference', true);

const BOOK = z.object({
  title: z.string().min(1).max(255),
  isbn: z.string().regex(/^97[89]\d{10}$/).nullable().optional(),
  publishedAt: z.iso.date().nullable(),
  updatedAt: z.iso.datetime().optional(),
  contact: z.email().optional(),
  price: z.number().min(0).max(10000),
  pages: z.int().positive().max(5000),
  featured: z.boolean().default(false),
  format: z.enum(['hardcover', 'paperback']),
  author: z.string().meta({ format: 'iri-reference' }).nullable(),
  tags: z.array(z.string().min(1)).min(1).max(3),
}).strict();

const ROOT = {
  components: {
    schemas: {
      Author: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 2 }, born: { type: ['integer', 'null'], minimum: 1000 } },
        required: ['name'],
        additionalProperties: false,
      },
      Named: { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'] },
    },
  },
};

const SCHEMAS: ReadonlyArray<[string, JsonSchema]> = [
  ['zod Book (input)', z.toJSONSchema(BOOK, { io: 'input' })],
  ['zod Book (output)', z.toJSONSchema(BOOK, { io: 'output' })],
  ['a $ref to a component', { $ref: '#/components/schemas/Author' }],
  ['an array of refs', { type: 'array', items: { $ref: '#/components/schemas/Author' }, maxItems: 2 }],
  ['a query integer', { type: 'integer', minimum: 1, maximum: 100, default: 30 }],
  ['an exclusive number', { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 }],
  ['an enum', { type: 'string', enum: ['asc', 'desc'] }],
  ['a const', { const: 'Book' }],
  ['allOf', {
    allOf: [{ $ref: '#/components/schemas/Named' }, { properties: { id: { type: 'integer' } }, required: ['id'] }],
  }],
];

describe('validValue(schema) and invalidValue(schema)', () => {
  test.each(SCHEMAS)('%s: every valid value is accepted by ajv', (_name, schema) => {
    const validate = ajv.compile({ ...schema, components: ROOT.components });
    fc.assert(fc.property(validValue(schema, { root: ROOT }), (value) => {
      expect({ value, errors: validate(value) ? null : validate.errors }).toEqual({ value, errors: null });
    }), { numRuns: 200 });
  });

  const rejecting = SCHEMAS.filter(([name]) => name !== 'allOf');
  test.each(rejecting)('%s: every invalid value is rejected by ajv', (_name, schema) => {
    const validate = ajv.compile({ ...schema, components: ROOT.components });
    const invalid = invalidValue(schema, { root: ROOT });
    expect(invalid).toBeDefined();
    fc.assert(fc.property(invalid!, (bad) => {
      expect({ ...bad, accepted: validate(bad.value) }).toEqual({ ...bad, accepted: false });
    }), { numRuns: 200 });
  });

  test('zod accepts every valid Book and rejects every invalid one (the schema it wrote agrees with it)', () => {
    const input = SCHEMAS[0][1];
    fc.assert(fc.property(validValue(input), (value) => {
      expect(BOOK.safeParse(value).error?.issues).toBeUndefined();
    }), { numRuns: 200 });
    fc.assert(fc.property(invalidValue(input)!, (bad) => {
      expect({ ...bad, accepted: BOOK.safeParse(bad.value).success }).toEqual({ ...bad, accepted: false });
    }), { numRuns: 200 });
  });

  test('invalid values cover each kind of mistake on the Book', () => {
    const reasons = fc.sample(invalidValue(SCHEMAS[0][1])!, { numRuns: 2000, seed: 7 }).map((i) => i.reason);
    const kinds = ['wrong type', 'missing required', 'longer than maxLength', 'below minimum', 'above maximum',
      'not matching', 'not a date', 'not in the enum', 'not an integer', 'fewer than minItems', 'unknown property'];
    for (const kind of kinds) expect(reasons.some((r) => r.includes(kind))).toBe(true);
  });

  test('a request leaves out readOnly properties, a response writeOnly ones', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer', readOnly: true },
        password: { type: 'string', writeOnly: true },
        name: { type: 'string' },
      },
      required: ['id', 'password', 'name'],
    };
    const request = fc.sample(validValue(schema, { direction: 'request' }), 50) as Array<Record<string, unknown>>;
    const response = fc.sample(validValue(schema, { direction: 'response' }), 50) as Array<Record<string, unknown>>;
    expect(request.every((v) => !('id' in v) && 'password' in v && 'name' in v)).toBe(true);
    expect(response.every((v) => 'id' in v && !('password' in v) && 'name' in v)).toBe(true);
  });

  test('a schema that accepts anything has no invalid value; a dangling $ref throws', () => {
    expect(invalidValue({})).toBeUndefined();
    expect(() => validValue({ $ref: '#/components/schemas/Nope' }, { root: ROOT }))
      .toThrow('$ref #/components/schemas/Nope: not found');
  });
});
