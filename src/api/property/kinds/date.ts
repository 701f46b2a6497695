import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import { formatDateTime, utcDateTime } from '../../serializer/dateTime';
import { defineKind, isString, scalarWire, TEXT_COLUMN } from '../kindSupport';

/**
 * `date` (`z.iso.date()`, `YYYY-MM-DD`) and `datetime` (`z.iso.datetime()`): ISO 8601 text in
 * stores (it sorts as it compares), range and date filters. A datetime is kept in UTC with
 * milliseconds and sent as RFC 3339 with `+00:00`, as API Platform's `DateTimeNormalizer` writes
 * it (`serializer/dateTime.ts`).
 * @module
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Whether `value` is a calendar date `YYYY-MM-DD` (not `2021-02-30`). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** The date kind. */
export const DATE_KIND = defineKind<'date'>({
  kind: 'date',
  schemaHint: 'date (z.iso.date())',
  fromSchema: (u) => {
    const def = zodDef(u.inner);
    return def.type === 'string' && def.format === 'date' && u.meta.relation === undefined
      ? { kind: 'date' } : undefined;
  },
  ...scalarWire('string', isString),
  filters: new Set<FilterType>(['search', 'order', 'range', 'date', 'exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string', format: 'date' }),
  fromQuery: (value) => (isDate(value) ? { value } : { expected: 'a date (YYYY-MM-DD)' }),
  hydraRange: () => 'xmls:date',
  link: false,
  sql: TEXT_COLUMN,
});

/** The datetime kind. */
export const DATETIME_KIND = defineKind<'datetime'>({
  kind: 'datetime',
  schemaHint: 'datetime (z.iso.datetime())',
  fromSchema: (u) => {
    const def = zodDef(u.inner);
    return def.type === 'string' && def.format === 'datetime' && u.meta.relation === undefined
      ? { kind: 'datetime' } : undefined;
  },
  ...scalarWire('string', isString),
  beforeValidation: utcDateTime,
  toStored: (value) => ({ value: typeof value === 'string' ? new Date(value).toISOString() : value }),
  toWire: (value) => (typeof value === 'string' ? formatDateTime(value) : value),
  filters: new Set<FilterType>(['order', 'range', 'date', 'exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string', format: 'date-time' }),
  fromQuery: (value) => {
    if (isDate(value)) return { value: `${value}T00:00:00.000Z` };
    const t = DATETIME.test(value) ? Date.parse(value) : Number.NaN;
    return Number.isNaN(t) ? { expected: 'a date or date-time (ISO 8601)' } : { value: new Date(t).toISOString() };
  },
  hydraRange: () => 'xmls:dateTime',
  link: false,
  sql: TEXT_COLUMN,
});
