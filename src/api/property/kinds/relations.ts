import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import { itemIri } from '../../serializer/iri';
import type { ItemId } from '../../state/identifier';
import { violationMessages } from '../../write/violationMessages';
import { defineKind, phpTypeOf } from '../kindSupport';
import { RELATION_KIND, relatedId } from './relation';

/**
 * `relations` (`toMany('Tag')`, a to-many relation, API Platform's `relatedDummies`): an array of
 * the target items' IRIs on the wire, their ids (distinct, ascending) in stores (an array in
 * `MemoryState`, a join table in SQL: `src/api/sql/joinTables.ts`, no column of its own), `exact`
 * search (linked to any of the IRIs or ids) and `exists`. A value that is not an array is API
 * Platform's `must be "array"` 400; each element is read as a to-one relation's value.
 * @module
 */

/** The to-many relation kind. */
export const RELATIONS_KIND = defineKind<'relations'>({
  kind: 'relations',
  schemaHint: 'toMany()',
  fromSchema: (u) => (u.meta.relation !== undefined && u.meta.many === true && zodDef(u.inner).type === 'array'
    ? { kind: 'relations', relation: u.meta.relation } : undefined),
  phpType: 'array',
  typeError: (value, p, wire) => {
    if (!Array.isArray(value)) {
      return `The type of the "${p.name}" attribute must be "array", "${phpTypeOf(value)}" given.`;
    }
    for (const element of value as unknown[]) {
      const error = RELATION_KIND.typeError(element, p, wire);
      if (error !== undefined) return error;
    }
    return undefined;
  },
  toStored: (value, p, wire) => {
    const prefix = wire.prefixes[p.relation ?? ''] ?? '';
    const ids: ItemId[] = [];
    for (const [i, iri] of (Array.isArray(value) ? value as unknown[] : []).entries()) {
      const id = typeof iri === 'string' ? relatedId(iri, p, wire) : null;
      if (id === null) {
        return {
          violation: {
            propertyPath: `${p.name}[${i}]`, code: 'invalid_iri',
            message: (wire.messages ?? violationMessages(undefined)).invalidIri(p.relation ?? '', prefix),
          },
        };
      }
      ids.push(id);
    }
    return { value: ids };
  },
  toWire: (value, p, wire) => (Array.isArray(value)
    ? (value as ItemId[]).map((id) => itemIri(wire.prefixes[p.relation ?? ''] ?? '', id,
      wire.root?.(p.relation ?? '') ?? wire.baseUrl)) : []),
  filters: new Set<FilterType>(['search', 'exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string' }),
  fromQuery: (value, p, target) => RELATION_KIND.fromQuery(value, p, target),
  hydraRange: (p) => `#${p.relation ?? ''}`,
  link: true,
  // no column: the join table holds the links (sql/columns.ts `hasColumn`)
  sql: { columnType: () => 'integer', toColumn: (v: unknown) => v, fromColumn: (v: unknown) => v, integerColumn: true },
});
