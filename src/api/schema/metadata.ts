import type { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import type { PropertyKind, PropertyMetadata } from '../state/types';
import type { PropertyMeta } from './relation';

/**
 * Reads a resource's zod object schema into the {@link PropertyMetadata} the stores and the
 * resource layer share (API Platform's property metadata factory). See `relation.ts` for how a
 * schema marks relations, `readOnly` and `writeOnly`.
 * @module
 */

/** A zod schema's internals this module reads (zod 4's `_zod.def`). */
interface ZodInternals {
  readonly _zod: { readonly def: { readonly type: string; readonly format?: string; readonly innerType?: z.ZodType } };
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
  let current = schema as unknown as ZodInternals;
  let nullable = false;
  let optional = false;
  let readOnly = false;
  let meta: Record<string, unknown> = {};
  for (;;) {
    meta = { ...meta, ...(current.meta() ?? {}) };
    const def = current._zod.def;
    if (def.type === 'nullable') nullable = true;
    else if (def.type === 'optional' || def.type === 'default') optional = true;
    else if (def.type === 'readonly') readOnly = true;
    else break;
    current = def.innerType as unknown as ZodInternals;
  }
  const m = meta as PropertyMeta;
  return {
    inner: current as unknown as z.ZodType,
    nullable,
    optional,
    readOnly: readOnly || m.readOnly === true,
    writeOnly: m.writeOnly === true,
    meta: m,
  };
}

function kindOf(u: UnwrappedSchema, option: string): Pick<PropertyMetadata, 'kind' | 'enumValues' | 'relation'> {
  const def = (u.inner as unknown as ZodInternals)._zod.def;
  if (u.meta.relation !== undefined) return { kind: 'relation', relation: u.meta.relation };
  switch (def.type) {
    case 'string':
      if (def.format === 'date') return { kind: 'date' };
      if (def.format === 'datetime') return { kind: 'datetime' };
      return { kind: u.meta.kind === 'text' ? 'text' : 'string' };
    case 'number': {
      const isInt = (u.inner as unknown as { isInt?: boolean }).isInt === true
        || (def.format !== undefined && /int/.test(def.format));
      return { kind: isInt ? 'integer' : 'number' };
    }
    case 'boolean': return { kind: 'boolean' };
    case 'enum': {
      const values = (u.inner as unknown as { options: unknown[] }).options;
      if (!values.every((v) => typeof v === 'string')) {
        throw invalidOption(option, 'expected an enum of strings', values);
      }
      return { kind: 'enum', enumValues: Object.freeze([...values]) };
    }
    default:
      throw invalidOption(option, 'expected a string, date (z.iso.date()), datetime (z.iso.datetime()), number, '
        + 'boolean, enum or relation() schema', def.type);
  }
}

/** The kinds a property may have, for messages. */
export const PROPERTY_KINDS: readonly PropertyKind[] = [
  'string', 'text', 'integer', 'number', 'boolean', 'date', 'datetime', 'enum', 'relation',
];

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
    const kind = kindOf(u, `${option}.${name}`);
    properties.push(Object.freeze({
      name,
      ...kind,
      nullable: u.nullable || u.optional,
      readOnly: u.readOnly,
      writeOnly: u.writeOnly,
      ...(typeof u.meta.description === 'string' ? { description: u.meta.description } : {}),
    }));
  }
  return properties;
}
