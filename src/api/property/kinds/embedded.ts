import { invalidOption } from '../../../config/optionError';
import type { FilterType } from '../../resource/filters';
import { unwrapSchema } from '../../schema/metadata';
import { objectShape, zodDef } from '../../schema/zodDef';
import type { EmbeddableMetadata, PropertyKind, PropertyMetadata } from '../../state/types';
import { kindDefinition } from '../propertyKinds';
import type { PropertyKindDefinition, StoredValue, WireContext } from '../PropertyKindDefinition';
import { defineKind, phpTypeOf, same } from '../kindSupport';

/**
 * `embedded` (`embeddable(z.object({...}), { name: 'Address' })`, `schema/embeddable.ts`): a value
 * object of named fields, Doctrine's embeddable. Each field is a property of its own kind (the
 * kinds' modules convert, check and store it); the value travels as a nested object (every
 * field, null when empty, as API Platform's serializer writes an embeddable), is validated field
 * by field (`address.city` in a 422), and is stored as a column per field on SQL
 * (`address_city`, Doctrine's `<property>_<field>`) and as the object in `MemoryState`. A nullable
 * embeddable whose fields are all null is null (SQL cannot tell them apart: every column null).
 * Filters and orders apply to its fields by a dotted path (`address.city`, see
 * `state/propertyPath.ts`); on the property itself, only `exists`.
 * @module
 */

/** Kinds a field may not have: Doctrine maps no association inside an embeddable, nor (here) another embeddable. */
const REFUSED_FIELD_KINDS: ReadonlySet<PropertyKind> = new Set(['relation', 'relations', 'embedded']);

/** The embeddable of a property of this kind (its metadata always has one). */
function embeddableOf(property: PropertyMetadata): EmbeddableMetadata {
  const e = property.embeddable;
  if (e === undefined) throw new Error(`${property.name} is an embedded property without its embeddable's fields`);
  return e;
}

const COLUMNS = new WeakMap<PropertyMetadata, readonly PropertyMetadata[]>();

/**
 * The SQL columns of an embedded property, each as the field it stores named `<property>_<field>`;
 * every column is nullable when the property is.
 */
function columnsOf(property: PropertyMetadata): readonly PropertyMetadata[] {
  let columns = COLUMNS.get(property);
  if (columns === undefined) {
    columns = Object.freeze(embeddableOf(property).fields.map((f) => Object.freeze({
      ...f, name: `${property.name}_${f.name}`, nullable: f.nullable || property.nullable,
    })));
    COLUMNS.set(property, columns);
  }
  return columns;
}

/** A field named by its path from the owner (`address.city`), for messages. */
function fieldAt(property: PropertyMetadata, field: PropertyMetadata): PropertyMetadata {
  return { ...field, name: `${property.name}.${field.name}` };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Each field's value through `convert` (null as null), or the first violation. */
function eachField(
  value: Readonly<Record<string, unknown>>, property: PropertyMetadata,
  convert: (v: unknown, field: PropertyMetadata) => StoredValue,
): StoredValue {
  const out: Record<string, unknown> = {};
  let empty = true;
  for (const f of embeddableOf(property).fields) {
    const v = value[f.name] ?? null;
    if (v === null) { out[f.name] = null; continue; }
    const converted = convert(v, f);
    if ('violation' in converted) return converted;
    out[f.name] = converted.value;
    empty = false;
  }
  return { value: empty && property.nullable ? null : out };
}

/** The embedded kind. */
export const EMBEDDED_KIND = defineKind<'embedded'>({
  kind: 'embedded',
  schemaHint: 'embeddable (embeddable(z.object({...}), { name }))',
  fromSchema: (u, option, reader) => {
    const name = u.meta.embeddable;
    if (name === undefined || zodDef(u.inner).type !== 'object') return undefined;
    const shape = objectShape(u.inner);
    if ('id' in shape) throw invalidOption(`${option}.id`, 'an embeddable has no identifier: rename the field', 'id');
    const fields = reader.properties(shape, option);
    for (const f of fields) {
      if (REFUSED_FIELD_KINDS.has(f.kind)) {
        throw invalidOption(`${option}.${f.name}`,
          `an embeddable's field may not be a ${f.kind === 'embedded' ? 'nested embeddable' : 'relation'}`, f.kind);
      }
    }
    const nullFields = fields.filter((f) => unwrapSchema(shape[f.name]).nullable).map((f) => f.name);
    return {
      kind: 'embedded',
      embeddable: Object.freeze({ name, fields: Object.freeze(fields), nullFields: Object.freeze(nullFields) }),
    };
  },
  phpType: 'object',
  typeError: (value, p, wire) => {
    if (!isPlainObject(value)) {
      return `The type of the "${p.name}" attribute must be "${embeddableOf(p).name}", "${phpTypeOf(value)}" given.`;
    }
    for (const f of embeddableOf(p).fields) {
      const v = value[f.name];
      if (v === undefined || v === null) continue;
      const message = kindDefinition(f.kind).typeError(v, fieldAt(p, f), wire);
      if (message !== undefined) return message;
    }
    return undefined;
  },
  beforeValidation: (value, p) => {
    if (!isPlainObject(value)) return value;
    const e = embeddableOf(p);
    const out: Record<string, unknown> = { ...value };
    for (const f of e.fields) {
      const v = out[f.name];
      // the API writes an empty field as null: read back as absent when its schema takes no null
      if (v === null && !e.nullFields.includes(f.name)) delete out[f.name];
      const before = kindDefinition(f.kind).beforeValidation;
      if (v !== null && v !== undefined && before !== undefined) out[f.name] = before(v, f);
    }
    return out;
  },
  toStored: (value, p, wire: WireContext) => (!isPlainObject(value) ? { value: null }
    : eachField(value, p, (v, f) => {
      const stored = kindDefinition(f.kind).toStored(v, f, wire);
      return 'violation' in stored
        ? { violation: { ...stored.violation, propertyPath: `${p.name}.${stored.violation.propertyPath}` } } : stored;
    })),
  toWire: (value, p, wire) => {
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const f of embeddableOf(p).fields) {
      const v = value[f.name] ?? null;
      out[f.name] = v === null ? null : kindDefinition(f.kind).toWire(v, f, wire);
    }
    return out;
  },
  filters: new Set<FilterType>(['exists']),
  textSearch: false,
  queryValueSchema: () => ({ type: 'string' }),
  fromQuery: () => ({ expected: 'no value (an embeddable is filtered by its fields: address.city)' }),
  // the value object's class, which the Hydra documentation lists (`#Address`)
  hydraRange: (p) => `#${embeddableOf(p).name}`,
  link: false,
  sql: {
    columnType: () => 'text',
    toColumn: same,
    fromColumn: same,
    integerColumn: false,
    split: {
      columns: columnsOf,
      toColumns: (value, p) => {
        const row: Record<string, unknown> = {};
        const object = isPlainObject(value) ? value : {};
        for (const f of embeddableOf(p).fields) row[`${p.name}_${f.name}`] = object[f.name] ?? null;
        return row;
      },
      fromColumns: (values, p) => {
        const out: Record<string, unknown> = {};
        let empty = true;
        for (const f of embeddableOf(p).fields) {
          const v = values[`${p.name}_${f.name}`] ?? null;
          out[f.name] = v;
          if (v !== null) empty = false;
        }
        return empty && p.nullable ? null : out;
      },
    },
  },
} satisfies PropertyKindDefinition<'embedded'>);
