import { invalidOption } from '../../config/optionError';
import type { UnwrappedSchema } from '../schema/metadata';
import { zodDef } from '../schema/zodDef';
import type { PropertyKind } from '../state/types';
import type { KindMetadata, PropertyKindDefinition, SchemaReader } from './PropertyKindDefinition';
import { BOOLEAN_KIND } from './kinds/boolean';
import { DATE_KIND, DATETIME_KIND } from './kinds/date';
import { EMBEDDED_KIND } from './kinds/embedded';
import { ENUM_KIND } from './kinds/enum';
import { JSON_KIND } from './kinds/json';
import { INTEGER_KIND, NUMBER_KIND } from './kinds/number';
import { RELATION_KIND } from './kinds/relation';
import { RELATIONS_KIND } from './kinds/relations';
import { STRING_KIND, TEXT_KIND } from './kinds/string';

/**
 * The registry of property kinds: each {@link PropertyKind} to its definition (one module under
 * `kinds/`). The schema reader, the serializer, the query parser, the filters, the SQL store, the
 * docs and the back office all ask it, so adding a kind is adding its module and its entry here;
 * the mapped type makes a kind of the union without an entry a compile error.
 * @module
 */

/** Every kind's definition, in the order the "expected …" message lists them. */
const DEFINITIONS: { readonly [K in PropertyKind]: PropertyKindDefinition<K> } = Object.freeze({
  string: STRING_KIND,
  text: TEXT_KIND,
  date: DATE_KIND,
  datetime: DATETIME_KIND,
  integer: INTEGER_KIND,
  number: NUMBER_KIND,
  boolean: BOOLEAN_KIND,
  enum: ENUM_KIND,
  relation: RELATION_KIND,
  relations: RELATIONS_KIND,
  json: JSON_KIND,
  embedded: EMBEDDED_KIND,
});

const ALL: readonly PropertyKindDefinition[] = Object.freeze(Object.values(DEFINITIONS));

/** Every property kind, for messages. */
export const PROPERTY_KINDS: readonly PropertyKind[] = Object.freeze(ALL.map((d) => d.kind));

/**
 * The definition of a kind.
 * @returns the registered definition (the registry covers the whole {@link PropertyKind} union)
 */
export function kindDefinition<K extends PropertyKind>(kind: K): PropertyKindDefinition<K> {
  return DEFINITIONS[kind];
}

/** `a, b or c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1) ?? ''}`;
}

/**
 * The kind of an unwrapped property schema, with what the kind reads from it (enum values, a
 * relation's target).
 * @param option - the option path for messages, e.g. `resources.Book.schema.tags`
 * @param reader - how a kind made of properties (an embeddable) reads its fields
 * @throws KernelConfigError when no kind recognises the schema, listing the supported ones
 */
export function kindOfSchema(schema: UnwrappedSchema, option: string, reader: SchemaReader): KindMetadata {
  for (const definition of ALL) {
    const found = definition.fromSchema(schema, option, reader);
    if (found !== undefined) return found;
  }
  const hints = [...new Set(ALL.flatMap((d) => (d.schemaHint === undefined ? [] : [d.schemaHint])))];
  throw invalidOption(option, `expected a ${listed(hints)} schema`, zodDef(schema.inner).type);
}
