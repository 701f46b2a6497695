import type { z } from 'zod';

/**
 * Embeddable value objects (Doctrine's `#[Embeddable]` class held by an `#[Embedded]` property,
 * API Platform's `EmbeddableDummy` held by `EmbeddedDummy::$embeddedDummy`): an object property
 * with fields of its own, stored inline in its owner's table, written and read as a nested object
 * (no IRI, no identity), whose fields filters and orders name by a dotted path (`address.city`).
 * A plain `z.object()` property without it stays a JSON value (one JSON column, not filterable
 * inside). See the kind's module `property/kinds/embedded.ts`.
 * @module
 */

/** The metadata key naming an embeddable's class (see {@link embeddable}). */
export const EMBEDDABLE_META = 'embeddable';

/** What {@link embeddable} takes besides the object schema. */
export interface EmbeddableOptions {
  /**
   * The value object's class name: the JSON-LD `@type` of the nested object and the name of its
   * OpenAPI component schema. Letters, digits and `_`, not starting with a digit.
   * @example 'Address'
   */
  readonly name: string;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Declares an object property as an embeddable value object (Doctrine's embeddable). Its fields
 * are scalar properties (strings, numbers, booleans, dates, enums; a JSON value too), each
 * validated by its schema (a 422's `propertyPath` is `address.city`); no relation and no nested
 * embeddable (Doctrine maps none inside an embeddable either). Stored as one column per field,
 * `<property>_<field>` (`address_city`, Doctrine's default column prefix) on SQL, as the object
 * in `MemoryState`. Add `.nullable()` for an optional one: null is every column null.
 * @param schema - the fields, a `z.object({...})`
 * @param options - the class name ({@link EmbeddableOptions})
 * @returns the same schema, with `{ embeddable: name }` metadata
 * @throws TypeError when `schema` is not a zod object or the name is not an identifier
 * @example address: embeddable(z.object({ street: z.string(), city: z.string() }), { name: 'Address' }).nullable()
 */
export function embeddable<T extends z.ZodObject>(schema: T, options: EmbeddableOptions): T {
  const def = (schema as { def?: { type?: unknown } } | undefined)?.def;
  if (def?.type !== 'object') throw new TypeError('embeddable() expects a z.object({...}) schema of its fields');
  const name = (options as Partial<EmbeddableOptions> | undefined)?.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TypeError(`embeddable() expects options.name, a class name of letters, digits and _ (got ${
      JSON.stringify(name) ?? 'undefined'})`);
  }
  return schema.meta({ ...(schema.meta() ?? {}), [EMBEDDABLE_META]: name });
}
