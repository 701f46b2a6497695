import type { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import type { SchemaReader } from '../property/PropertyKindDefinition';
import { kindOfSchema } from '../property/propertyKinds';
import type { PropertyMetadata } from '../state/types';
import type { PropertyMeta } from './relation';
import { zodDef } from './zodDef';

/**
 * Reads a resource's zod object schema into the {@link PropertyMetadata} the stores and the
 * resource layer share (API Platform's property metadata factory). See `relation.ts` for how a
 * schema marks relations, `readOnly` and `writeOnly`.
 * @module
 */

/** A zod schema's metadata (zod 4's `.meta()`). */
interface WithMeta {
  meta(): Record<string, unknown> | undefined;
}

/** The schema under `optional`, `nullable`, `default` and `readonly`, with what the wrappers say. */
export interface UnwrappedSchema {
  readonly inner: z.ZodType;
  readonly nullable: boolean;
  readonly optional: boolean;
  readonly readOnly: boolean;
  readonly writeOnly: boolean;
  /** Merged `.meta()` of the wrappers and the inner schema (the inner's wins). */
  readonly meta: PropertyMeta;
}

/** Unwraps a property's schema. */
export function unwrapSchema(schema: z.ZodType): UnwrappedSchema {
  let current = schema;
  let nullable = false;
  let optional = false;
  let readOnly = false;
  let meta: Record<string, unknown> = {};
  for (;;) {
    meta = { ...meta, ...((current as unknown as WithMeta).meta() ?? {}) };
    const def = zodDef(current);
    if (def.type === 'nullable') nullable = true;
    else if (def.type === 'optional' || def.type === 'default') optional = true;
    else if (def.type === 'readonly') readOnly = true;
    else break;
    current = def.innerType as z.ZodType;
  }
  const m = meta as PropertyMeta;
  return {
    inner: current,
    nullable,
    optional,
    readOnly: readOnly || m.readOnly === true,
    writeOnly: m.writeOnly === true,
    meta: m,
  };
}

/** How an embeddable reads its fields: as a schema's properties. */
const READER: SchemaReader = { properties: (shape, option) => propertiesOf(shape, option) };

/**
 * The properties of a resource's schema, `id` left out (the store's integer identifier).
 * @param shape - the zod object's shape
 * @param option - the option path for messages, e.g. `resources.Book.schema`
 * @throws KernelConfigError naming a property whose schema is not one of the supported kinds
 */
export function propertiesOf(shape: Readonly<Record<string, z.ZodType>>, option: string): PropertyMetadata[] {
  const properties: PropertyMetadata[] = [];
  for (const [name, schema] of Object.entries(shape)) {
    if (name === 'id') continue;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw invalidOption(`${option}.${name}`, 'expected a property name of letters, digits and _', name);
    }
    const u = unwrapSchema(schema);
    const kind = kindOfSchema(u, `${option}.${name}`, READER);
    properties.push(Object.freeze({
      name,
      ...kind,
      // a to-many relation is never null: none is []
      // validation groups (`validationGroups()`): a write outside them may leave it empty
      nullable: kind.kind !== 'relations' && (u.nullable || u.optional || Array.isArray(u.meta.validationGroups)),
      readOnly: u.readOnly,
      writeOnly: u.writeOnly,
      ...(typeof u.meta.description === 'string' ? { description: u.meta.description } : {}),
      ...(u.meta.groups !== undefined ? { groups: Object.freeze([...u.meta.groups]) } : {}),
      ...(u.meta.maxDepth !== undefined ? { maxDepth: u.meta.maxDepth } : {}),
    }));
  }
  return properties;
}
