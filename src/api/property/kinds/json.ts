import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import type { SqlFlavour } from '../../sql/LoggedDialect';
import { defineKind, phpTypeOf, same } from '../kindSupport';

/**
 * `json` (`z.array(...)`, `z.record(...)`, `z.object({...})`): an array or object value, API
 * Platform's `array`/`json` typed properties. Sent and stored as the client wrote it (after the
 * schema validated it): JSON text on SQLite, `jsonb` on PostgreSQL, the value itself (a copy) in
 * `MemoryState`. Only the exists filter applies; the back office shows it and does not edit it.
 * @module
 */

const JSON_TYPES = new Set(['array', 'record', 'object', 'tuple']);

/** The JSON kind. */
export const JSON_KIND = defineKind<'json'>({
  kind: 'json',
  schemaHint: 'JSON (z.array(), z.record(), z.object())',
  fromSchema: (u) => (JSON_TYPES.has(zodDef(u.inner).type) && u.meta.relation === undefined
    && u.meta.embeddable === undefined ? { kind: 'json' } : undefined),
  phpType: 'array',
  typeError: (value, p) => (typeof value === 'object' && value !== null ? undefined
    : `The type of the "${p.name}" attribute must be "array", "${phpTypeOf(value)}" given.`),
  toStored: (value) => ({ value: structuredClone(value) }),
  toWire: same,
  filters: new Set<FilterType>(['exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string' }),
  fromQuery: () => ({ expected: 'no value (a JSON property is not filtered by value)' }),
  hydraRange: () => undefined,
  link: false,
  sql: {
    columnType: (flavour: SqlFlavour) => (flavour === 'postgres' ? 'jsonb' : 'text'),
    toColumn: (value: unknown) => JSON.stringify(value),
    fromColumn: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) as unknown : value),
    integerColumn: false,
  },
});
