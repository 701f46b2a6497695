import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import { idFromIri, itemIri } from '../../serializer/iri';
import { violationMessages } from '../../write/violationMessages';
import { defineKind, phpTypeOf } from '../kindSupport';
import { parseItemId } from '../../state/identifier';
import type { WireContext } from '../PropertyKindDefinition';
import type { PropertyMetadata } from '../../state/types';

/** The id a relation's IRI names (of the target's identifier type), or null. */
export function relatedId(value: string, p: PropertyMetadata, wire: WireContext): ReturnType<typeof idFromIri> {
  const target = p.relation ?? '';
  return idFromIri(value, wire.prefixes[target] ?? '', wire.baseUrl, wire.identifiers?.[target]);
}

/** A relation's column value as stored: integers as numbers (a driver's bigint or text), strings as they are. */
function idFromColumn(value: unknown): unknown {
  return typeof value === 'bigint' ? Number(value) : value;
}

/**
 * `relation` (`relation('Author')`, a to-one reference): the target item's IRI on the wire
 * (`/api/authors/3`), its id in stores (a number, or a string for a `uuid` or `string` target; a
 * foreign key in SQL, of the target's id column type), `exact` search by IRI or
 * id. A value that is not a string is API Platform's `Expected IRI or nested document` 400; a
 * string that is not an IRI of the target, its `Invalid IRI` 400; an object or an array, its
 * `Nested documents for attribute "author" are not allowed. Use IRIs instead.` 400.
 * @module
 */

/** The relation kind. */
export const RELATION_KIND = defineKind<'relation'>({
  kind: 'relation',
  schemaHint: 'relation()',
  fromSchema: (u) => (u.meta.relation !== undefined && zodDef(u.inner).type === 'string'
    ? { kind: 'relation', relation: u.meta.relation } : undefined),
  phpType: 'string',
  typeError: (value, p, wire) => {
    if (typeof value === 'object' && value !== null) {
      // a nested document where the denormalization groups allow none (API Platform's writable link)
      return `Nested documents for attribute "${p.name}" are not allowed. Use IRIs instead.`;
    }
    if (typeof value !== 'string') {
      return `Expected IRI or nested document for attribute "${p.name}", "${phpTypeOf(value)}" given.`;
    }
    return relatedId(value, p, wire) === null ? `Invalid IRI "${value.slice(0, 200)}".` : undefined;
  },
  toStored: (value, p, wire) => {
    const prefix = wire.prefixes[p.relation ?? ''] ?? '';
    const id = typeof value === 'string' ? relatedId(value, p, wire) : null;
    return id !== null ? { value: id } : {
      violation: {
        propertyPath: p.name,
        code: 'invalid_iri',
        message: (wire.messages ?? violationMessages(undefined)).invalidIri(p.relation ?? '', prefix),
      },
    };
  },
  toWire: (value, p, wire) => (typeof value === 'number' || typeof value === 'string'
    ? itemIri(wire.prefixes[p.relation ?? ''] ?? '', value, wire.root?.(p.relation ?? '') ?? wire.baseUrl) : value),
  filters: new Set<FilterType>(['search', 'order', 'exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string' }),
  fromQuery: (value, _p, target) => {
    // an IRI of the target, else the id itself (`?author=3`, `?author=0193a7b2-…`)
    const id = target === undefined ? null
      : idFromIri(value, target.prefix, '', target.identifier) ?? parseItemId(target.identifier, value);
    return id === null ? { expected: `an IRI (${target?.prefix ?? ''}/<id>) or an id` } : { value: id };
  },
  hydraRange: (p) => `#${p.relation ?? ''}`,
  link: true,
  // the column's type is the target's id column's (`sql/migrations.ts`); this one is an integer target's
  sql: { columnType: () => 'integer', toColumn: (v: unknown) => v, fromColumn: idFromColumn, integerColumn: true },
});
