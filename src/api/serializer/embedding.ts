import type { Resource } from '../resource/defineResource';
import type { ItemId, PropertyMetadata, StoredItem } from '../state/types';
import { kindDefinition } from '../property/propertyKinds';
import { inGroups, linksTo, type ResolvedNormalizationContext } from './serializationContext';

/**
 * Embedded relations (API Platform's readable links): which relations of an item a response
 * writes as nested documents rather than IRIs, and the batched reads that fetch them first.
 *
 * A relation is embedded when the operation's normalization groups name a property of its target
 * resource (API Platform's `SerializerPropertyMetadataFactory` sets `readableLink` so); the nested
 * document is normalized with the same groups, so its own relations follow the same rule. Along
 * one path of nested documents:
 * - with `enable_max_depth`, a property with `maxDepth(n)` is written at most `n` times, then
 *   left out (symfony's `AbstractObjectNormalizer::isMaxDepthReached`, counted per resource and
 *   property, as symfony's `depth_<class>_<attribute>` context keys);
 * - an item already being written further up (a cycle: a book's author's books) is its IRI
 *   (symfony would throw a circular reference error; an IRI is what API Platform's docs advise a
 *   `circular_reference_handler` to return);
 * - below {@link MAX_EMBEDDED_LEVELS} nested levels every relation is an IRI, so a long chain of
 *   self-references (a linked list) never reads more than that many batches.
 *
 * The related items are read before anything is written ({@link loadRelated}): level by level,
 * one read per target resource and level (`id` IN the page's targets), never one per item.
 * @module
 */

/** The most nested levels of embedded documents below an item; deeper, relations are IRIs. */
export const MAX_EMBEDDED_LEVELS = 8;

/** Where a nested document is written: the items above it, the max-depth counters, its level. */
export interface EmbeddingPath {
  /** `<shortName>#<id>` of the item and of every item above it. */
  readonly ancestors: ReadonlySet<string>;
  /** symfony's `depth_<class>_<attribute>` counters: `<shortName>.<property>` to a count. */
  readonly depths: ReadonlyMap<string, number>;
  /** 0 for the item itself. */
  readonly level: number;
}

/** Items read for embedding, by resource short name and id. */
export type RelatedItems = Map<string, Map<ItemId, StoredItem>>;

/** What writing one item's properties needs to decide about embedding. */
export interface Embedding {
  readonly context: ResolvedNormalizationContext;
  /** The API's resources by short name (relation targets). */
  readonly resources: ReadonlyMap<string, Resource>;
  /** The items {@link loadRelated} read. */
  readonly related: RelatedItems;
}

function key(shortName: string, id: ItemId): string {
  return `${shortName}#${id}`;
}

/** The path of a top-level item (a response's item, or a member of its page). */
export function rootPath(resource: Resource, id: ItemId): EmbeddingPath {
  return { ancestors: new Set([key(resource.shortName, id)]), depths: new Map(), level: 0 };
}

/**
 * What happens to a property of an item at `path` (the groups already allowed it): `omit` when its
 * max depth is reached, else the path its nested documents would have (`depths` counted) and, for
 * a relation embedded by the groups, its target resource.
 */
export function propertyStep(
  resource: Resource, p: PropertyMetadata, path: EmbeddingPath, e: Embedding,
): 'omit' | { readonly path: EmbeddingPath; readonly target?: Resource } {
  let depths = path.depths;
  if (e.context.enableMaxDepth && p.maxDepth !== undefined) {
    const k = `${resource.shortName}.${p.name}`;
    const count = depths.get(k);
    if (count !== undefined && count >= p.maxDepth) return 'omit';
    depths = new Map(depths).set(k, (count ?? 0) + 1);
  }
  const next = { ancestors: path.ancestors, depths, level: path.level };
  if (!kindDefinition(p.kind).link || p.relation === undefined) return { path: next };
  const target = e.resources.get(p.relation);
  if (target === undefined || path.level >= MAX_EMBEDDED_LEVELS || !linksTo(target.metadata.properties, e.context)) {
    return { path: next };
  }
  return { path: next, target };
}

/**
 * The path of the nested document of `id` (a target of a relation `propertyStep` embeds), or
 * undefined when it is written as an IRI: it is above (a cycle) or was not read.
 */
export function childPath(target: Resource, id: ItemId, path: EmbeddingPath, e: Embedding): EmbeddingPath | undefined {
  const k = key(target.shortName, id);
  if (path.ancestors.has(k) || e.related.get(target.shortName)?.get(id) === undefined) return undefined;
  return { ancestors: new Set(path.ancestors).add(k), depths: path.depths, level: path.level + 1 };
}

/** The ids a stored relation value holds (a to-one id, a to-many array of ids). */
export function relatedIds(value: unknown): ItemId[] {
  const isId = (v: unknown): v is ItemId => typeof v === 'number' || typeof v === 'string';
  if (isId(value)) return [value];
  return Array.isArray(value) ? (value as unknown[]).filter(isId) : [];
}

/** Reads items of a resource by id (any order; an id that names nothing is left out). */
export type ReadItems = (resource: Resource, ids: readonly ItemId[]) => Promise<readonly StoredItem[]>;

interface Node {
  readonly resource: Resource;
  readonly item: StoredItem;
  readonly path: EmbeddingPath;
}

/**
 * Reads every item the response embeds, before it is written: level by level from `items`, one
 * {@link ReadItems} call per target resource and level for the ids not read yet (30 books with
 * their authors: one read of authors), following the same decisions the writing will make.
 * @param items - the response's items (of `resource`)
 * @param context - the operation's normalization context; without groups nothing is read
 * @returns the items read, for {@link Embedding.related}
 */
export async function loadRelated(
  resource: Resource, items: readonly StoredItem[], context: ResolvedNormalizationContext,
  resources: ReadonlyMap<string, Resource>, read: ReadItems,
): Promise<RelatedItems> {
  const related: RelatedItems = new Map();
  if (context.groups === undefined) return related;
  const e: Embedding = { context, resources, related };
  let level: Node[] = items.map((item) => ({ resource, item, path: rootPath(resource, item.id) }));
  while (level.length > 0) {
    const wanted = new Map<Resource, Set<ItemId>>();
    const edges: { target: Resource; id: ItemId; path: EmbeddingPath }[] = [];
    for (const node of level) {
      for (const p of node.resource.metadata.properties) {
        if (p.writeOnly || !inGroups(p, context)) continue;
        const step = propertyStep(node.resource, p, node.path, e);
        if (step === 'omit' || step.target === undefined) continue;
        for (const id of relatedIds(node.item.data[p.name])) {
          if (node.path.ancestors.has(key(step.target.shortName, id))) continue;
          edges.push({ target: step.target, id, path: step.path });
          if (related.get(step.target.shortName)?.has(id) !== true) {
            let ids = wanted.get(step.target);
            if (ids === undefined) wanted.set(step.target, ids = new Set());
            ids.add(id);
          }
        }
      }
    }
    for (const [target, ids] of wanted) {
      let byId = related.get(target.shortName);
      if (byId === undefined) related.set(target.shortName, byId = new Map<ItemId, StoredItem>());
      for (const item of await read(target, [...ids])) byId.set(item.id, item);
    }
    const next: Node[] = [];
    for (const edge of edges) {
      const path = childPath(edge.target, edge.id, edge.path, e);
      if (path === undefined) continue;
      next.push({ resource: edge.target, item: related.get(edge.target.shortName)!.get(edge.id)!, path });
    }
    level = next;
  }
  return related;
}
