import type {
  AtomicStateProcessor, CollectionPage, CollectionQuery, DeleteOutcome, FilterCondition, OrderBy, ResourceMetadata,
  StateContext, StateProcessor, StateProvider, StoredItem, WriteOutcome,
} from './types';
import { compareIds, compositeIdText, uuidV7, type ItemId } from './identifier';

/**
 * A store in memory implementing the whole contract of `types.ts`: the reference the SQL store
 * is checked against (the same conformance suite runs on both), and the store of unit tests.
 * Items live in one `Map` per resource (by short name, so relations are checked against the
 * target resource's items). Each call runs to its end without awaiting, so calls are atomic in
 * one process. Nothing survives the process.
 *
 * Semantics shared with the SQL store: integer ids from 1, never reused; `uuid` ids v7
 * (`uuidV7`) unless given; `string` ids as given (a taken one: `duplicate`); version 1 on create, +1 on
 * each replace; text strategies case-insensitive (`word_start`: at the start or after a space); a
 * `related` condition looks the related item up in its resource's map; nulls
 * sort first ascending (as SQLite); `id asc` as the last sort key; a to-many relation's ids
 * distinct and ascending, kept by a replace that leaves them out. `atomically` undoes the
 * unit's writes when its work throws (ids taken are not given back, as SQL sequences); other
 * callers may see the unit's writes before it ends (no isolation, unlike a database transaction).
 */
export class MemoryState implements StateProvider, AtomicStateProcessor {
  private readonly tables = new Map<string, Map<ItemId, StoredItem>>();
  private readonly nextIds = new Map<string, number>();
  /** Relations seen in the metadata of each call: target short name → [source short name, property]. */
  private readonly referrers = new Map<string, Array<[string, string]>>();

  private table(resource: ResourceMetadata): Map<ItemId, StoredItem> {
    let t = this.tables.get(resource.shortName);
    if (t === undefined) {
      t = new Map();
      this.tables.set(resource.shortName, t);
      for (const p of resource.properties) {
        if ((p.kind !== 'relation' && p.kind !== 'relations') || p.relation === undefined) continue;
        const list = this.referrers.get(p.relation) ?? [];
        list.push([resource.shortName, p.name]);
        this.referrers.set(p.relation, list);
      }
    }
    return t;
  }

  /** @returns one page of the matching items, in the query's order then by id */
  provideCollection(
    resource: ResourceMetadata, query: CollectionQuery, context?: StateContext,
  ): Promise<CollectionPage> {
    const related: Related = (target, id) => this.tables.get(target.shortName)?.get(id);
    const matching = [...this.table(resource).values()]
      .filter((item) => query.conditions.every((c) => holds(c, item, related)));
    matching.sort((a, b) => {
      for (const o of query.order) {
        const d = compare(sortValue(a, o, related), sortValue(b, o, related));
        if (d !== 0) return o.direction === 'asc' ? d : -d;
      }
      return compareIds(a.id, b.id);
    });
    const start = (query.page - 1) * query.itemsPerPage;
    const items = matching.slice(start, start + query.itemsPerPage);
    context?.logQuery?.({
      sql: `memory: ${resource.shortName} collection`, parameters: [], durationMs: 0, rows: items.length,
    });
    return Promise.resolve({
      items,
      ...(query.partial ? {} : { totalItems: matching.length }),
      hasNextPage: start + query.itemsPerPage < matching.length,
    });
  }

  /** @returns the item, or null */
  provideItem(resource: ResourceMetadata, id: ItemId, context?: StateContext): Promise<StoredItem | null> {
    const item = this.table(resource).get(id) ?? null;
    context?.logQuery?.({
      sql: `memory: ${resource.shortName} item`, parameters: [id], durationMs: 0, rows: item === null ? 0 : 1,
    });
    return Promise.resolve(item);
  }

  /**
   * Stores a new item with the given id (`uuid`, `string`; an `integer` one from a Put that
   * creates, after which the counter continues past it) or the next one, and version 1.
   */
  create(
    resource: ResourceMetadata, data: Readonly<Record<string, unknown>>, _context?: StateContext, given?: ItemId,
  ): Promise<WriteOutcome> {
    const table = this.table(resource);
    const type = resource.identifier ?? 'integer';
    // a composite identifier's id is its parts' (the back office creates without one)
    const key = resource.compositeKey;
    if (given === undefined && key !== undefined) given = compositeIdText(key, data);
    if (type === 'string' && given === undefined) {
      throw new TypeError(`${resource.shortName}: a string id is given by the client`);
    }
    if (given !== undefined && table.has(given)) return Promise.resolve({ status: 'duplicate' });
    const bad = this.badRelation(resource, data);
    if (bad !== undefined) return Promise.resolve({ status: 'invalid_relation', ...bad });
    let id: ItemId;
    if (type !== 'integer') id = given ?? uuidV7();
    else if (given !== undefined) {
      // a Put that creates: the counter moves past the client's id, so no later create takes it
      id = given;
      this.nextIds.set(resource.shortName, Math.max(this.nextIds.get(resource.shortName) ?? 1, Number(given) + 1));
    } else {
      id = this.nextIds.get(resource.shortName) ?? 1;
      this.nextIds.set(resource.shortName, id + 1);
    }
    const item = freezeItem(id, 1, resource, data);
    table.set(id, item);
    return Promise.resolve({ status: 'ok', item });
  }

  /** Replaces the item's data and bumps its version (only from `expectedVersion`, when given). */
  replace(
    resource: ResourceMetadata, id: ItemId, data: Readonly<Record<string, unknown>>, expectedVersion?: number,
  ): Promise<WriteOutcome> {
    const table = this.table(resource);
    const current = table.get(id);
    if (current === undefined) return Promise.resolve({ status: 'not_found' });
    if (expectedVersion !== undefined && current.version !== expectedVersion) {
      return Promise.resolve({ status: 'conflict', current });
    }
    const bad = this.badRelation(resource, data);
    if (bad !== undefined) return Promise.resolve({ status: 'invalid_relation', ...bad });
    const item = freezeItem(id, current.version + 1, resource, data, current);
    table.set(id, item);
    return Promise.resolve({ status: 'ok', item });
  }

  /** Deletes the item, unless another item refers to it. */
  remove(resource: ResourceMetadata, id: ItemId, expectedVersion?: number): Promise<DeleteOutcome> {
    const table = this.table(resource);
    const current = table.get(id);
    if (current === undefined) return Promise.resolve({ status: 'not_found' });
    if (expectedVersion !== undefined && current.version !== expectedVersion) {
      return Promise.resolve({ status: 'conflict', current });
    }
    for (const [source, property] of this.referrers.get(resource.shortName) ?? []) {
      for (const other of this.tables.get(source)?.values() ?? []) {
        const value = other.data[property];
        // a to-many relation's links to this item keep it, except its own (they go with it)
        const refers = Array.isArray(value) ? value.includes(id) && !(source === resource.shortName && other.id === id)
          : value === id;
        if (refers) return Promise.resolve({ status: 'referenced', by: `${source} ${other.id}` });
      }
    }
    table.delete(id);
    return Promise.resolve({ status: 'ok' });
  }

  /**
   * Runs `work` on a view of this store that records how to undo each write it makes; when `work`
   * throws, the writes are undone, newest first, and the error rethrown.
   */
  async atomically<T>(work: (store: StateProvider & StateProcessor) => Promise<T>): Promise<T> {
    const undo: Array<() => void> = [];
    const before = (resource: ResourceMetadata, id: ItemId): void => {
      const table = this.table(resource);
      const previous = table.get(id);
      undo.push(() => (previous === undefined ? table.delete(id) : table.set(id, previous)));
    };
    const unit: StateProvider & StateProcessor = {
      provideCollection: (resource, query, context) => this.provideCollection(resource, query, context),
      provideItem: (resource, id, context) => this.provideItem(resource, id, context),
      create: async (resource, data, context, id) => {
        const outcome = await this.create(resource, data, context, id);
        if (outcome.status === 'ok') undo.push(() => this.table(resource).delete(outcome.item.id));
        return outcome;
      },
      replace: (resource, id, data, expectedVersion) => {
        before(resource, id);
        return this.replace(resource, id, data, expectedVersion);
      },
      remove: (resource, id, expectedVersion) => {
        before(resource, id);
        return this.remove(resource, id, expectedVersion);
      },
    };
    try {
      return await work(unit);
    } catch (e) {
      for (const step of undo.reverse()) step();
      throw e;
    }
  }

  /** Forgets every item of every resource (ids start from 1 again). For tests and demos. */
  clear(): void {
    for (const t of this.tables.values()) t.clear();
    this.nextIds.clear();
  }

  /** The first relation naming no item (for a to-many one, the first such id, ascending). */
  private badRelation(
    resource: ResourceMetadata, data: Readonly<Record<string, unknown>>,
  ): { property: string; id?: ItemId } | undefined {
    for (const p of resource.properties) {
      if ((p.kind !== 'relation' && p.kind !== 'relations') || p.relation === undefined) continue;
      const v = data[p.name];
      if (v === null || v === undefined) continue;
      const targets = this.tables.get(p.relation);
      if (p.kind === 'relations' && Array.isArray(v)) {
        const missing = distinctIds(v as ItemId[]).find((id) => targets?.has(id) !== true);
        if (missing !== undefined) return { property: p.name, id: missing };
      } else if ((typeof v !== 'number' && typeof v !== 'string') || targets?.has(v) !== true) {
        return { property: p.name };
      }
    }
    return undefined;
  }
}

/**
 * The stored copy of `data`: a to-many relation's ids distinct and ascending (absent on a replace:
 * the current ones, absent on a create: none), every other property as given (absent: null).
 */
function freezeItem(
  id: ItemId, version: number, resource: ResourceMetadata, data: Readonly<Record<string, unknown>>,
  current?: StoredItem,
): StoredItem {
  const copy: Record<string, unknown> = {};
  for (const p of resource.properties) {
    if (p.kind !== 'relations') {
      copy[p.name] = data[p.name] ?? null;
      continue;
    }
    const ids = data[p.name] ?? current?.data[p.name] ?? [];
    copy[p.name] = Object.freeze(distinctIds(ids as readonly ItemId[]));
  }
  return Object.freeze({ id, version, data: Object.freeze(copy) });
}

/** Ids distinct and in ascending order (`compareIds`: a to-many relation's stored shape). */
export function distinctIds<T extends ItemId>(ids: readonly T[]): T[] {
  return [...new Set(ids)].sort(compareIds);
}

/** A property's value; `id` is the identifier; `address.city` an embeddable's field (null when it is). */
function valueOf(item: StoredItem, property: string): unknown {
  if (property === 'id') return item.id;
  const dot = property.indexOf('.');
  if (dot < 0) return item.data[property];
  const object = item.data[property.slice(0, dot)] as Readonly<Record<string, unknown>> | null | undefined;
  return object?.[property.slice(dot + 1)] ?? null;
}

/** The value an item sorts by: its property, or the related item's through to-one relations (null if none). */
function sortValue(item: StoredItem, order: OrderBy, related: Related): unknown {
  let at: StoredItem | undefined = item;
  for (const step of order.through ?? []) {
    const id: unknown = at.data[step.property];
    at = id === null || id === undefined ? undefined : related(step.target, id as StoredItem['id']);
    if (at === undefined) return null;
  }
  return valueOf(at, order.property);
}

/** A stored value as text (strings as they are). */
function asText(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Ascending order of two property values; null first. */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = asText(a);
  const y = asText(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function textMatch(strategy: string, value: string, wanted: string): boolean {
  const v = value.toLowerCase();
  const w = wanted.toLowerCase();
  switch (strategy) {
    case 'partial': return v.includes(w);
    case 'start': return v.startsWith(w);
    case 'end': return v.endsWith(w);
    case 'word_start': return v.startsWith(w) || v.includes(` ${w}`); // the start of the value or after a space
    default: return value === wanted;
  }
}

/** A stored item of a resource by id (a related condition's target), if any. */
type Related = (target: ResourceMetadata, id: ItemId) => StoredItem | undefined;

/** Whether the item satisfies one condition (the semantics the SQL store's WHERE clauses mirror). */
function holds(c: FilterCondition, item: StoredItem, related: Related): boolean {
  if (c.type === 'any') return c.conditions.some((inner) => holds(inner, item, related));
  const v = valueOf(item, c.property);
  if (c.type === 'related') {
    // a to-many relation: one of the linked items satisfies it
    const on = (target: StoredItem | undefined): boolean => target !== undefined && holds(c.condition, target, related);
    if (Array.isArray(v)) return (v as ItemId[]).some((id) => on(related(c.target, id)));
    return (typeof v === 'number' || typeof v === 'string') && on(related(c.target, v));
  }
  switch (c.type) {
    case 'search':
      if (Array.isArray(v)) return c.values.some((w) => v.includes(w)); // a to-many relation: linked to any
      if (v === null || v === undefined) return false;
      return c.values.some((w) => (c.strategy === 'exact' ? v === w : textMatch(c.strategy, asText(v), String(w))));
    case 'range': {
      if (v === null || v === undefined) return false;
      const d = compare(v, c.value);
      return c.operator === 'gt' ? d > 0 : c.operator === 'gte' ? d >= 0 : c.operator === 'lt' ? d < 0 : d <= 0;
    }
    case 'boolean': return v === c.value;
    case 'date': {
      if (v === null || v === undefined) return false;
      const d = compare(v, c.value);
      switch (c.operator) {
        case 'before': return d <= 0;
        case 'strictly_before': return d < 0;
        case 'after': return d >= 0;
        case 'strictly_after': return d > 0;
      }
      return false;
    }
    case 'exists': return (Array.isArray(v) ? v.length > 0 : v !== null && v !== undefined) === c.value;
  }
}
