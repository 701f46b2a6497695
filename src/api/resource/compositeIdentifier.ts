import type { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { unwrapSchema } from '../schema/metadata';
import { isIntegerSchema, zodDef } from '../schema/zodDef';
import { compositeIdText, parseItemId, type ItemId } from '../state/identifier';
import type { PropertyMetadata } from '../state/types';

/**
 * Composite identifiers (API Platform 3.4's `compositeIdentifier`, features/main/composite.feature):
 * a resource identified by several of its properties (`identifiers: ['name', 'year']`) has one
 * `{id}` in its URLs, written as API Platform's `CompositeIdentifierParser` reads it:
 * `/api/composite_primitive_items/name=Bar;year=2017`, each part `<property>=<value>`, separated
 * by `;`. The item's id, for the stores, is that text in the declared order of the parts (the
 * canonical form); a URL may name the parts in any order.
 *
 * A part is a string property (non-empty, no `;`, `/` or U+0000: the separators and a path's) or
 * an integer one (a signed 32-bit integer, the SQL stores' column), neither nullable nor optional
 * nor a relation. Its schema still applies: a URL whose part the schema refuses names no item.
 * @module
 */

/** One property of a composite identifier. */
export interface IdentifierPart {
  /** The property's name, e.g. `year`. */
  readonly name: string;
  /** How its value is read from a URL. */
  readonly type: 'integer' | 'string';
  /** The property's schema (unwrapped): a URL's value it refuses names no item. */
  readonly schema: z.ZodType;
}

const EXPECTED = 'expected two or more names of string or integer properties of the schema, neither nullable '
  + 'nor optional, and no `id` property';
const INT32 = /^-?\d{1,10}$/;
const MIN_INT = -2147483648;
const MAX_INT = 2147483647;

/**
 * The parts the `identifiers` option names, checked against the schema.
 * @param names - the option's value, e.g. `['name', 'year']`
 * @param shape - the resource schema's shape
 * @param properties - the resource's properties (their kinds)
 * @param option - the option path for messages (`resources.Item.identifiers`)
 * @throws KernelConfigError (`<option>`) for fewer than two names, a repeated or unknown one, a
 *   property of another type, nullable or optional, or a schema that declares `id` as well
 */
export function compositePartsOf(
  names: readonly string[], shape: Readonly<Record<string, z.ZodType>>, properties: readonly PropertyMetadata[],
  option: string,
): readonly IdentifierPart[] {
  if (names.length < 2 || new Set(names).size !== names.length) throw invalidOption(option, EXPECTED, names);
  if (shape.id !== undefined) throw invalidOption(option, EXPECTED, names, { got: 'a schema with an id property' });
  return Object.freeze(names.map((name) => {
    const declared = shape[name];
    if (declared === undefined) throw invalidOption(option, EXPECTED, names, { got: `"${name}", not a property` });
    const u = unwrapSchema(declared);
    const def = zodDef(u.inner);
    const kind = properties.find((p) => p.name === name)?.kind;
    if (u.nullable || u.optional || !(kind === 'string' || kind === 'integer')
      || !(def.type === 'string' || (def.type === 'number' && isIntegerSchema(u.inner)))) {
      throw invalidOption(option, EXPECTED, names, { got: `"${name}", not a plain string or integer` });
    }
    const type = def.type === 'string' ? 'string' as const : 'integer' as const;
    return Object.freeze({ name, type, schema: u.inner });
  }));
}

/**
 * Why a part's value cannot be in a composite id, or undefined when it can.
 * @param value - the property's value (a string or a number)
 */
export function partValueProblem(part: IdentifierPart, value: unknown): string | undefined {
  if (part.type === 'integer') {
    return Number.isInteger(value) && (value as number) >= MIN_INT && (value as number) <= MAX_INT ? undefined
      : `This value should be an integer from ${MIN_INT} to ${MAX_INT}.`;
  }
  if (typeof value !== 'string' || value === '') return 'This value should not be blank.';
  return /[;/\0]/.test(value) ? 'This value should not contain ";", "/" or U+0000 (it is part of the id).' : undefined;
}

/**
 * The canonical id of the parts' values (`name=Bar;year=2017`), or null when a value cannot be a
 * part ({@link partValueProblem}) or the id is not a `string` id (longer than 255 characters).
 * @param data - the item's properties, by name
 */
export function compositeIdOf(
  parts: readonly IdentifierPart[], data: Readonly<Record<string, unknown>>,
): string | null {
  if (parts.some((p) => partValueProblem(p, data[p.name]) !== undefined)) return null;
  const id = compositeIdText(parts.map((p) => p.name), data);
  return parseItemId('string', id) === id ? id : null;
}

/**
 * The parts' values a composite id names (`{ name: 'Bar', year: 2017 }`), or null when the text
 * is not one: each part exactly once as `<name>=<value>` (any order), separated by `;`, nothing
 * else, each value of its type and accepted by its schema.
 * @param raw - the decoded path segment, e.g. `year=2017;name=Bar`
 */
export function compositePartsFromText(
  parts: readonly IdentifierPart[], raw: string,
): Record<string, string | number> | null {
  const values: Record<string, string | number> = {};
  const pieces = raw.split(';');
  if (pieces.length !== parts.length) return null;
  for (const piece of pieces) {
    const at = piece.indexOf('=');
    const part = parts.find((p) => p.name === piece.slice(0, at));
    if (at < 0 || part === undefined || Object.hasOwn(values, part.name)) return null;
    const text = piece.slice(at + 1);
    const value = part.type === 'integer' ? (INT32.test(text) ? Number(text) : Number.NaN) : text;
    if (partValueProblem(part, value) !== undefined || !part.schema.safeParse(value).success) return null;
    values[part.name] = value;
  }
  return values;
}

/**
 * The canonical id a URL's composite id names, or null when it names none (a 404).
 * @param raw - the decoded path segment
 */
export function compositeIdFromText(parts: readonly IdentifierPart[], raw: string): ItemId | null {
  const values = compositePartsFromText(parts, raw);
  return values === null ? null : compositeIdOf(parts, values);
}
