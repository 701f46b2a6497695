import type { FilterType } from '../../resource/filters';
import { isIntegerSchema, zodDef } from '../../schema/zodDef';
import type { SqlFlavour } from '../../sql/LoggedDialect';
import { defineKind, same, scalarWire } from '../kindSupport';

/**
 * `integer` (`z.int()`, `z.number().int()`) and `number` (`z.number()`): a JSON number, an
 * `integer` or floating-point column, range filters. A query value has at most 15 digits on each
 * side of the point (a double holds them exactly).
 * @module
 */

const NUMBER_FILTERS: ReadonlySet<FilterType> = new Set(['search', 'order', 'range', 'exists']);

/** A column's number (PostgreSQL's driver returns some as text). */
export const numberFromColumn = (value: unknown): unknown => (typeof value === 'number' ? value : Number(value));

/** The integer kind. */
export const INTEGER_KIND = defineKind<'integer'>({
  kind: 'integer',
  schemaHint: 'number',
  fromSchema: (u) => (zodDef(u.inner).type === 'number' && isIntegerSchema(u.inner) ? { kind: 'integer' } : undefined),
  ...scalarWire('int', (v) => typeof v === 'number' && Number.isInteger(v)),
  filters: NUMBER_FILTERS,
  textSearch: false,
  queryValueSchema: () => ({ type: 'integer' }),
  fromQuery: (value) => (/^-?\d{1,15}$/.test(value) ? { value: Number(value) } : { expected: 'an integer' }),
  hydraRange: () => 'xmls:integer',
  link: false,
  sql: { columnType: () => 'integer', toColumn: same, fromColumn: numberFromColumn, integerColumn: true },
});

/** The number kind (a double). */
export const NUMBER_KIND = defineKind<'number'>({
  kind: 'number',
  schemaHint: 'number',
  fromSchema: (u) => (zodDef(u.inner).type === 'number' && !isIntegerSchema(u.inner) ? { kind: 'number' } : undefined),
  ...scalarWire('float', (v) => typeof v === 'number'),
  filters: NUMBER_FILTERS,
  textSearch: false,
  queryValueSchema: () => ({ type: 'number' }),
  fromQuery: (value) => (/^-?\d{1,15}(\.\d{1,15})?$/.test(value) ? { value: Number(value) } : { expected: 'a number' }),
  hydraRange: () => 'xmls:decimal',
  link: false,
  sql: {
    columnType: (flavour: SqlFlavour) => (flavour === 'postgres' ? 'double precision' : 'real'),
    toColumn: same,
    fromColumn: numberFromColumn,
    integerColumn: false,
  },
});
