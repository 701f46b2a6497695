import type { FilterType } from '../../resource/filters';
import { zodDef } from '../../schema/zodDef';
import { idFromIri, itemIri } from '../../serializer/iri';
import { violationMessages } from '../../write/violationMessages';
import { defineKind, phpTypeOf } from '../kindSupport';
import { numberFromColumn } from './number';

/**
 * `relation` (`relation('Author')`, a to-one reference): the target item's IRI on the wire
 * (`/api/authors/3`), its integer id in stores (a foreign key in SQL), `exact` search by IRI or
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
    return idFromIri(value, wire.prefixes[p.relation ?? ''] ?? '', wire.baseUrl) === null
      ? `Invalid IRI "${value.slice(0, 200)}".` : undefined;
  },
  toStored: (value, p, wire) => {
    const prefix = wire.prefixes[p.relation ?? ''] ?? '';
    const id = typeof value === 'string' ? idFromIri(value, prefix, wire.baseUrl) : null;
    return id !== null ? { value: id } : {
      violation: {
        propertyPath: p.name,
        code: 'invalid_iri',
        message: (wire.messages ?? violationMessages(undefined)).invalidIri(p.relation ?? '', prefix),
      },
    };
  },
  toWire: (value, p, wire) => (typeof value === 'number'
    ? itemIri(wire.prefixes[p.relation ?? ''] ?? '', value, wire.baseUrl) : value),
  filters: new Set<FilterType>(['search', 'order', 'exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string' }),
  fromQuery: (value, _p, relationPrefix) => {
    const id = /^\d{1,15}$/.test(value)
      ? Number(value)
      : relationPrefix === undefined ? null : idFromIri(value, relationPrefix);
    return id === null || id < 1 ? { expected: `an IRI (${relationPrefix ?? ''}/<id>) or an id` } : { value: id };
  },
  hydraRange: (p) => `#${p.relation ?? ''}`,
  link: true,
  sql: { columnType: () => 'integer', toColumn: (v: unknown) => v, fromColumn: numberFromColumn, integerColumn: true },
});
