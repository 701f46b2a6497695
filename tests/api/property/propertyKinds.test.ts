import { z } from 'zod';
import { relation, text, toMany } from '../../../src/api/schema/relation';
import { propertiesOf, unwrapSchema } from '../../../src/api/schema/metadata';
import { embeddable } from '../../../src/api/schema/embeddable';
import { kindDefinition, kindOfSchema, PROPERTY_KINDS } from '../../../src/api/property/propertyKinds';
import type { PropertyKind } from '../../../src/api/state/types';

/** One schema of each kind, as a resource declares it. */
const SCHEMAS: Readonly<Record<PropertyKind, z.ZodType>> = {
  string: z.string(),
  text: text(z.string()),
  date: z.iso.date(),
  datetime: z.iso.datetime().nullable(),
  integer: z.int(),
  number: z.number().optional(),
  boolean: z.boolean().default(false),
  enum: z.enum(['draft', 'published']),
  relation: relation('Author').nullable(),
  relations: toMany('Tag'),
  json: z.array(z.string()).optional(),
  embedded: embeddable(z.object({ city: z.string() }), { name: 'Address' }).nullable(),
};

const READER = { properties: propertiesOf };

describe('kindOfSchema(schema, option)', () => {
  it.each(PROPERTY_KINDS)('reads a %s schema as that kind, and no other kind claims it', (kind) => {
    const u = unwrapSchema(SCHEMAS[kind]);
    expect(kindOfSchema(u, 'p', READER).kind).toBe(kind);
    const claimed = PROPERTY_KINDS.filter((k) => kindDefinition(k).fromSchema(u, 'p', READER) !== undefined);
    expect(claimed).toEqual([kind]);
  });

  it('names the supported schemas when none applies', () => {
    expect(() => kindOfSchema(unwrapSchema(z.bigint()), 'resources.Book.schema.n', READER)).toThrow(
      'Invalid option "resources.Book.schema.n": expected a string, date (z.iso.date()), '
        + 'datetime (z.iso.datetime()), number, boolean, enum, relation(), toMany(), JSON (z.array(), z.record(), '
        + 'z.object()) or embeddable (embeddable(z.object({...}), { name })) schema (got "bigint").',
    );
  });
});

describe('the json kind', () => {
  it('reads arrays, records and nested objects as json', () => {
    for (const schema of [z.array(z.int()), z.record(z.string(), z.number()), z.object({ city: z.string() })]) {
      expect(kindOfSchema(unwrapSchema(schema), 'p', READER).kind).toBe('json');
    }
  });
});

describe('kindDefinition(kind)', () => {
  it('gives every kind of the contract a definition of that kind', () => {
    for (const kind of PROPERTY_KINDS) expect(kindDefinition(kind).kind).toBe(kind);
    expect([...PROPERTY_KINDS].sort()).toEqual(
      [
        'boolean', 'date', 'datetime', 'embedded', 'enum', 'integer', 'json', 'number', 'relation', 'relations',
        'string', 'text',
      ],
    );
  });
});
