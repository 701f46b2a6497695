import type { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { unwrapSchema } from '../schema/metadata';
import { isIntegerSchema, zodDef } from '../schema/zodDef';
import { compositeIdFromText, type IdentifierPart } from './compositeIdentifier';
import { parseItemId, type IdentifierType, type ItemId } from '../state/identifier';

/**
 * A resource's identifier as its schema declares it (API Platform's `#[ApiProperty(identifier:
 * true)]` on the `id` property), read once by `defineResource`:
 *
 * | the schema's `id` | type | who chooses it |
 * |---|---|---|
 * | absent, or an integer (`readOnly(z.number().int())`) | `integer` | the store (auto-increment) |
 * | `z.uuid()` (any UUID format of zod) | `uuid` | the client on POST if it sends one, else the store (v7) |
 * | `readOnly(z.uuid())` | `uuid` | the store (v7) |
 * | any other string (`z.string().regex(/^97[89]\d{10}$/)`) | `string` | the client (required on POST) |
 * @module
 */

/** The identifier of a resource, resolved. */
export interface ResolvedIdentifier {
  readonly type: IdentifierType;
  /** Whether a client may choose the id (in a POST body, or with a PUT that creates). */
  readonly writable: boolean;
  /** The schema a `string` id's text must pass (a URL's id that fails it names no item: a 404). */
  readonly schema?: z.ZodType;
  /**
   * A composite identifier's properties, in declared order (`compositeIdentifier.ts`): the id is
   * then a `string` the parts make (`name=Bar;year=2017`), no property of its own.
   */
  readonly parts?: readonly IdentifierPart[];
}

const EXPECTED = 'expected no id (an integer chosen by the store), an integer, z.uuid() or a string schema, '
  + 'neither nullable nor optional';

/**
 * The identifier the schema's `id` declares (see the module's table).
 * @param shape - the resource schema's shape
 * @param option - the option path for messages (`resources.Book.schema`)
 * @throws KernelConfigError (`<option>.id`) for an `id` of another type, nullable or optional, or
 *   a readOnly string (nobody could choose it)
 */
export function identifierOf(shape: Readonly<Record<string, z.ZodType>>, option: string): ResolvedIdentifier {
  const declared = shape.id;
  if (declared === undefined) return INTEGER;
  const u = unwrapSchema(declared);
  const def = zodDef(u.inner);
  const at = `${option}.id`;
  if (u.nullable || u.optional) throw invalidOption(at, EXPECTED, undefined, { got: 'a nullable or optional id' });
  if (def.type === 'number' && isIntegerSchema(u.inner)) return INTEGER;
  if (def.type !== 'string') throw invalidOption(at, EXPECTED, undefined, { got: `a ${def.type} schema` });
  if (def.format === 'uuid' || def.format === 'guid') return Object.freeze({ type: 'uuid', writable: !u.readOnly });
  if (u.readOnly) {
    throw invalidOption(at, 'expected a writable string id: the client chooses a string id (or use z.uuid())',
      undefined, { got: 'a readOnly string' });
  }
  return Object.freeze({ type: 'string', writable: true, schema: u.inner });
}

/**
 * The identifier of a resource the `identifiers` option gives several properties: a `string` id
 * made of them (`compositeIdentifier.ts`), which a POST's body or a creating PUT's URL gives.
 * @param parts - `compositePartsOf`'s
 */
export function compositeIdentifierOf(parts: readonly IdentifierPart[]): ResolvedIdentifier {
  return Object.freeze({ type: 'string', writable: true, parts });
}

const INTEGER: ResolvedIdentifier = Object.freeze({ type: 'integer', writable: false });

/**
 * The id a URL's `{id}` names, or null when it cannot name an item of the resource (the
 * operation's 404): not of the type (`parseItemId`), or a string its schema refuses; a composite
 * id as `compositeIdFromText` reads it (its canonical form).
 * @param raw - the decoded path segment
 */
export function idFromPath(identifier: ResolvedIdentifier, raw: string): ItemId | null {
  if (identifier.parts !== undefined) return compositeIdFromText(identifier.parts, raw);
  const id = parseItemId(identifier.type, raw);
  if (id === null || identifier.schema === undefined) return id;
  return identifier.schema.safeParse(id).success ? id : null;
}
