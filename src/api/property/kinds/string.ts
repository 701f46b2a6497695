import { zodDef } from '../../schema/zodDef';
import type { FilterType } from '../../resource/filters';
import type { PropertyKindDefinition } from '../PropertyKindDefinition';
import { defineKind, isString, scalarWire, TEXT_COLUMN, textFromQuery } from '../kindSupport';

/**
 * `string` (`z.string()`) and `text` (`text(z.string())`, a long string): a string on the wire and
 * in stores, a `text` column, every search strategy. A string with a format the other kinds claim
 * (`z.iso.date()`, `z.iso.datetime()`) or a relation's is not one of them.
 * @module
 */

/** The filters of text-valued kinds (string, text, enum). */
export const TEXT_FILTERS: ReadonlySet<FilterType> = new Set(['search', 'order', 'exists']);

function stringKind<K extends 'string' | 'text'>(kind: K, textMeta: boolean): PropertyKindDefinition<K> {
  return defineKind<K>({
    kind,
    ...(kind === 'string' ? { schemaHint: 'string' } : {}),
    fromSchema: (u) => {
      const def = zodDef(u.inner);
      if (def.type !== 'string' || u.meta.relation !== undefined) return undefined;
      if (def.format === 'date' || def.format === 'datetime') return undefined;
      return (u.meta.kind === 'text') === textMeta ? { kind } : undefined;
    },
    ...scalarWire('string', isString),
    filters: TEXT_FILTERS,
    textSearch: true,
    queryValueSchema: () => ({ type: 'string' }),
    fromQuery: textFromQuery,
    hydraRange: () => 'xmls:string',
    link: false,
    sql: TEXT_COLUMN,
  });
}

/** A short string. */
export const STRING_KIND = stringKind('string', false);
/** A long text: a textarea in the back office, not sorted by. */
export const TEXT_KIND = stringKind('text', true);
