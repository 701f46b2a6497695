import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../../config/optionSchemas';
import type { PropertyMetadata } from '../state/types';

/**
 * API Platform's `normalizationContext` and `denormalizationContext` (the serializer contexts of
 * a resource or an operation), cut down to what symfony's serializer reads of them here:
 * `groups` (`AbstractNormalizer::GROUPS`) and `enable_max_depth`
 * (`AbstractObjectNormalizer::ENABLE_MAX_DEPTH`). An operation's context replaces its resource's,
 * as API Platform's metadata factories copy the resource's only into an operation that has none.
 * @module
 */

const GROUPS = 'expected an array of group names (non-empty strings)';

/** The schema of {@link NormalizationContextOptions}. */
export const normalizationContextSchema = optionsObject({
  /**
   * The groups written (symfony `groups`): only properties in one of them are sent, and a relation
   * whose target has a property in one of them is embedded. @default none: every readable property
   */
  groups: z.array(nonEmptyString, { error: GROUPS }).readonly().optional(),
  /** Honour the properties' `maxDepth()` (symfony `enable_max_depth`). @default false */
  enable_max_depth: z.boolean().optional(),
});

/** The schema of {@link DenormalizationContextOptions}. */
export const denormalizationContextSchema = optionsObject({
  /**
   * The groups read (symfony `groups`): a property in none of them is ignored in a body, and a
   * relation whose target has a property in one of them takes a nested document.
   * @default none: every writable property
   */
  groups: z.array(nonEmptyString, { error: GROUPS }).readonly().optional(),
});

/**
 * A `normalizationContext` (API Platform's, on a resource or an operation): what the responses write.
 * @example { groups: ['book:read'], enable_max_depth: true }
 */
export type NormalizationContextOptions = z.input<typeof normalizationContextSchema>;

/**
 * A `denormalizationContext` (API Platform's, on a resource or an operation): what bodies may write.
 * @example { groups: ['book:write'] }
 */
export type DenormalizationContextOptions = z.input<typeof denormalizationContextSchema>;

/** A serializer context, resolved: the groups as a set (undefined: no groups, every property). */
export interface SerializationGroups {
  readonly groups?: ReadonlySet<string>;
}

/** A normalization context, resolved. */
export interface ResolvedNormalizationContext extends SerializationGroups {
  readonly enableMaxDepth: boolean;
}

/** The resolved form of a `normalizationContext` (undefined: the default, no groups). */
export function resolveNormalizationContext(o: NormalizationContextOptions | undefined): ResolvedNormalizationContext {
  return Object.freeze({
    ...(o?.groups !== undefined ? { groups: new Set(o.groups) } : {}),
    enableMaxDepth: o?.enable_max_depth === true,
  });
}

/** The resolved form of a `denormalizationContext` (undefined: the default, no groups). */
export function resolveDenormalizationContext(o: DenormalizationContextOptions | undefined): SerializationGroups {
  return Object.freeze(o?.groups !== undefined ? { groups: new Set(o.groups) } : {});
}

/**
 * Whether a property is in the context's groups (symfony's `AbstractNormalizer::getAllowedAttributes`):
 * always without groups; with groups, only a property that has one of them.
 */
export function inGroups(p: PropertyMetadata, context: SerializationGroups): boolean {
  if (context.groups === undefined) return true;
  return p.groups !== undefined && p.groups.some((g) => context.groups!.has(g));
}

/**
 * Whether a resource has a property in the context's groups: API Platform's
 * `SerializerPropertyMetadataFactory::transformLinkStatus` makes a relation to it a readable link
 * (embedded on output) for normalization groups, a writable link (a nested document accepted) for
 * denormalization groups. Never without groups: relations are then IRIs.
 */
export function linksTo(properties: readonly PropertyMetadata[], context: SerializationGroups): boolean {
  return context.groups !== undefined && properties.some((p) => inGroups(p, context));
}
