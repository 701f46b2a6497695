import { z } from 'zod';

/**
 * How a resource's zod schema says more than types: relations, `readOnly` and `writeOnly`
 * properties. Each helper sets zod 4 metadata (`.meta()`, the global registry), which
 * `z.toJSONSchema` copies into the JSON Schema (`readOnly`, `writeOnly`, `format`), so the
 * OpenAPI document and the resource layer read one declaration.
 *
 * - `relation('Author')`: the property holds an IRI of an `Author` item (`"/api/authors/3"`); the
 *   store keeps the target's id. Add `.nullable()` for an optional relation.
 * - `toMany('Tag')`: a to-many relation, an array of IRIs of `Tag` items (API Platform's
 *   `relatedDummies`: IRIs in, IRIs out); the store keeps the targets' ids (a join table in SQL).
 * - `readOnly(z.number())` or `z.number().readonly()`: sent to clients, never accepted from them
 *   (API Platform `#[ApiProperty(writable: false)]`); a client sending it is ignored, as
 *   API Platform ignores unwritable attributes.
 * - `writeOnly(z.string())`: accepted from clients, never sent (e.g. a password).
 * - `groups(z.string(), ['book:read'])`: the property's serialization groups (symfony's
 *   `#[Groups(['book:read'])]`), read against the operations' `normalizationContext.groups` and
 *   `denormalizationContext.groups`.
 * - `maxDepth(relation('Book'), 1)`: symfony's `#[MaxDepth(1)]`, with `enable_max_depth`.
 * @module
 */

/** The metadata key naming a relation's target resource (its short name). */
export const RELATION_META = 'relation';

/** The metadata key marking a relation as to-many (see {@link toMany}). */
export const MANY_META = 'many';

/** What the metadata reader finds in a property's zod metadata. */
export interface PropertyMeta {
  /** The target resource's short name, for a relation. */
  readonly relation?: string;
  /** True for a to-many relation ({@link toMany}). */
  readonly many?: boolean;
  readonly readOnly?: boolean;
  readonly writeOnly?: boolean;
  /** `text`: a long string (a `text` column, a textarea in forms). */
  readonly kind?: 'text';
  readonly description?: string;
  /** The serialization groups of the property ({@link groups}). */
  readonly groups?: readonly string[];
  /** symfony's `#[MaxDepth]` ({@link maxDepth}). */
  readonly maxDepth?: number;
  /** An embeddable value object's name (`embeddable()`, `schema/embeddable.ts`). */
  readonly embeddable?: string;
  /** The validation groups of the property's constraints (`validationGroups()`); absent: `Default`. */
  readonly validationGroups?: readonly string[];
}

/**
 * A relation to another resource (API Platform: a property whose type is a resource class). In
 * every format but HAL's `_embedded`, its value is the target item's IRI (`/api/authors/3`).
 * @param target - the target resource's short name, e.g. `'Author'`
 * @returns a string schema (an IRI reference) carrying `{ relation: target, format: 'iri-reference' }`
 * @example author: relation('Author').nullable()
 */
export function relation(target: string): z.ZodString {
  return z.string().meta({ [RELATION_META]: target, format: 'iri-reference' });
}

/**
 * A to-many relation (API Platform: a property typed `Collection<RelatedDummy>`, e.g.
 * `relatedDummies`): an array of the target items' IRIs, in and out (`["/api/tags/1",
 * "/api/tags/4"]`), never null; absent on a POST or PUT, it is `[]`. The stores keep the targets'
 * ids, distinct and in ascending order (the SQL store in a join table, see `joinTables.ts`);
 * deleting an item removes its own links, deleting a target still linked is refused (409), as for
 * a to-one relation.
 * @param target - the target resource's short name, e.g. `'Tag'`
 * @returns an array of IRI strings, `[]` by default, carrying `{ relation: target, many: true }`
 * @example tags: toMany('Tag')
 */
export function toMany(target: string): z.ZodDefault<z.ZodArray<z.ZodString>> {
  return z.array(z.string().meta({ format: 'iri-reference' }))
    .meta({ [RELATION_META]: target, [MANY_META]: true }).default([]);
}

/**
 * Marks a property sent to clients and never accepted from them (JSON Schema `readOnly`).
 * @returns the same schema with `{ readOnly: true }` metadata
 */
export function readOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), readOnly: true });
}

/**
 * Marks a property accepted from clients and never sent to them (JSON Schema `writeOnly`).
 * @returns the same schema with `{ writeOnly: true }` metadata
 */
export function writeOnly<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), writeOnly: true });
}

/**
 * Marks a long text (a `text` column rather than a short string).
 * @returns the same schema with `{ kind: 'text' }` metadata
 */
export function text<T extends z.ZodType>(schema: T): T {
  return schema.meta({ ...(schema.meta() ?? {}), kind: 'text' });
}

/**
 * The property's serialization groups (symfony's `#[Groups(['book:read', 'book:write'])]` on a
 * property). When an operation's `normalizationContext` (output) or `denormalizationContext`
 * (input) names groups, only the properties in at least one of them are written or read; a
 * property with no groups is then left out, as symfony's serializer does. A relation whose target
 * resource has a property in the output groups is embedded as a document (API Platform's
 * readable link, see the README's "Embedding relations and serialization groups"); in the input
 * groups, it accepts a nested document (a writable link).
 * @param schema - the property's schema
 * @param names - the group names (non-empty strings), e.g. `['book:read']`
 * @returns the same schema with `{ groups: names }` metadata (added to any earlier `groups()`)
 * @throws TypeError for an empty list or a name that is not a non-empty string
 * @example title: groups(z.string(), ['book:read', 'book:write'])
 */
export function groups<T extends z.ZodType>(schema: T, names: readonly string[]): T {
  if (names.length === 0 || names.some((n) => typeof n !== 'string' || n === '')) {
    throw new TypeError('groups() expects a non-empty array of group names (non-empty strings)');
  }
  const meta = schema.meta() ?? {};
  const before: string[] = Array.isArray(meta.groups) ? meta.groups as string[] : [];
  return schema.meta({ ...meta, groups: [...new Set([...before, ...names])] });
}

/**
 * symfony's `#[MaxDepth(n)]` on a property: with the operation's
 * `normalizationContext: { enable_max_depth: true }`, the property is written at most `n` times
 * along one path of nested documents (the item's own counts as the first); deeper, it is left
 * out, as symfony's `AbstractObjectNormalizer::isMaxDepthReached` leaves it (API Platform's
 * `max_depth.feature`: `child.child` does not exist). Without `enable_max_depth`, it does nothing.
 * @param schema - the property's schema (usually a relation)
 * @param depth - the depth, a whole number from 1
 * @returns the same schema with `{ maxDepth: depth }` metadata
 * @throws TypeError for a depth that is not a whole number from 1
 * @example child: maxDepth(groups(relation('Comment').nullable(), ['comment:read']), 1)
 */
export function maxDepth<T extends z.ZodType>(schema: T, depth: number): T {
  if (!Number.isSafeInteger(depth) || depth < 1) throw new TypeError('maxDepth() expects a whole number from 1');
  return schema.meta({ ...(schema.meta() ?? {}), maxDepth: depth });
}
