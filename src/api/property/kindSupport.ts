import type { SqlFlavour } from '../sql/LoggedDialect';
import type { PropertyKind } from '../state/types';
import type { PropertyKindDefinition, QueryValue } from './PropertyKindDefinition';

/**
 * What several kinds share: PHP's names of JSON types (API Platform's 400s), the type check of a
 * scalar, the identity conversions and the text column.
 * @module
 */

/** PHP's `gettype` of a JSON value, as API Platform's messages name types. */
export function phpTypeOf(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'double';
  if (typeof value === 'string') return 'string';
  return 'array';
}

/**
 * A `typeError` that refuses a value `fits` rejects with API Platform's message: `The type of
 * the "title" attribute must be "string", "integer" given.`
 * @param phpType - the declared type, as PHP names it (`string`, `int`, `float`, `bool`)
 */
export function typeCheck(
  phpType: string, fits: (value: unknown) => boolean,
): PropertyKindDefinition['typeError'] {
  return (value, property) => (fits(value) ? undefined
    : `The type of the "${property.name}" attribute must be "${phpType}", "${phpTypeOf(value)}" given.`);
}

/** The value as it is (a kind whose stored and wire shapes are the same). */
export const same = (value: unknown): unknown => value;

/** `toStored` of a kind whose stored shape is the validated value. */
export const storedAsIs: PropertyKindDefinition['toStored'] = (value) => ({ value });

/** A text column: on PostgreSQL with the `C` collation, so ordering compares code points as SQLite's `BINARY`. */
export const TEXT_COLUMN: PropertyKindDefinition['sql'] = Object.freeze({
  columnType: (flavour: SqlFlavour) => (flavour === 'postgres' ? 'text collate "C"' : 'text'),
  toColumn: same,
  fromColumn: (value: unknown) => {
    if (value instanceof Date) return value.toISOString();
    return typeof value === 'string' ? value : JSON.stringify(value);
  },
  integerColumn: false,
});

/** A non-empty query value as it is. */
export function textFromQuery(value: string): QueryValue {
  return value === '' ? { expected: 'a non-empty value' } : { value };
}

/**
 * A kind's definition, frozen (a kind module's one export; the parameter's type checks it).
 * @returns `definition`, frozen
 */
export function defineKind<K extends PropertyKind>(definition: PropertyKindDefinition<K>): PropertyKindDefinition<K> {
  return Object.freeze(definition);
}

/**
 * The wire half of a scalar kind whose stored and sent values are the client's: the type check
 * (`typeCheck`) and the identity conversions.
 * @param phpType - the declared type, as PHP names it
 * @param fits - whether a client's value is of the kind
 */
export function scalarWire(
  phpType: string, fits: (value: unknown) => boolean,
): Pick<PropertyKindDefinition, 'phpType' | 'typeError' | 'toStored' | 'toWire'> {
  return { phpType, typeError: typeCheck(phpType, fits), toStored: storedAsIs, toWire: same };
}

/** Whether a value is a string. */
export const isString = (value: unknown): boolean => typeof value === 'string';
