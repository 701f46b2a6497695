import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import type { SqlFlavour } from '../../sql/LoggedDialect';
import { defineKind, scalarWire } from '../kindSupport';

/**
 * `boolean` (`z.boolean()`): `integer` 0/1 on SQLite (it has no boolean type, and better-sqlite3
 * binds none), `boolean` on PostgreSQL; a query reads `true`, `false`, `1` or `0` (API
 * Platform's `BooleanFilter`).
 * @module
 */

const BOOL: Readonly<Record<string, boolean>> = { true: true, false: false, 1: true, 0: false };
const BOOLEAN_FILTERS: ReadonlySet<FilterType> = new Set(['search', 'order', 'boolean', 'exists']);

/** The boolean kind. */
export const BOOLEAN_KIND = defineKind<'boolean'>({
  kind: 'boolean',
  schemaHint: 'boolean',
  fromSchema: (u) => (zodDef(u.inner).type === 'boolean' ? { kind: 'boolean' } : undefined),
  ...scalarWire('bool', (v) => typeof v === 'boolean'),
  filters: BOOLEAN_FILTERS,
  textSearch: false,
  queryValueSchema: () => ({ type: 'boolean' }),
  fromQuery: (value) => (value in BOOL ? { value: BOOL[value] } : { expected: 'true, false, 1 or 0' }),
  hydraRange: () => 'xmls:boolean',
  link: false,
  sql: {
    columnType: (flavour: SqlFlavour) => (flavour === 'postgres' ? 'boolean' : 'integer'),
    toColumn: (value: unknown, flavour: SqlFlavour) => (flavour === 'sqlite' ? (value === true ? 1 : 0) : value),
    fromColumn: (value: unknown) => value === true || value === 1 || value === '1' || value === 't',
    integerColumn: false,
  },
});
