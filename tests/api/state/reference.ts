/**
 * The contract's collection semantics written as plainly as possible, in JavaScript: what a
 * store's page must equal for the same items and query (the property test of the conformance
 * suite compares every store with it). Not a test file itself.
 */
import type {
  CollectionPage, CollectionQuery, FilterCondition, ResourceMetadata, StoredItem,
} from '../../../src/api/state/types';

/** Compares code point by code point (SQLite's BINARY, PostgreSQL's "C" collation). */
function compareText(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Null first, then numbers, booleans (false before true) and text in their own orders. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return compareText(a as string, b as string);
}

/** Every stored item of the other resources (the targets of related conditions), by short name. */
export type RelatedItems = Readonly<Record<string, readonly StoredItem[]>>;

function matches(item: StoredItem, c: FilterCondition, related: RelatedItems): boolean {
  if (c.type === 'any') return c.conditions.some((inner) => matches(item, inner, related));
  const v = c.property === 'id' ? item.id : item.data[c.property];
  switch (c.type) {
    case 'related': {
      const target = (related[c.target.shortName] ?? []).find((t) => t.id === v);
      return target !== undefined && matches(target, c.condition, related);
    }
    case 'search':
      return c.values.some((wanted) => {
        if (v === null || v === undefined) return false;
        if (c.strategy === 'exact') return v === wanted;
        const text = (typeof v === 'string' ? v : JSON.stringify(v)).toLowerCase();
        const w = String(wanted).toLowerCase();
        if (c.strategy === 'partial') return text.includes(w);
        if (c.strategy === 'start') return text.startsWith(w);
        if (c.strategy === 'end') return text.endsWith(w);
        return text.startsWith(w) || text.includes(` ${w}`);
      });
    case 'range': {
      if (v === null || v === undefined) return false;
      const d = compareValues(v, c.value);
      return { gt: d > 0, gte: d >= 0, lt: d < 0, lte: d <= 0 }[c.operator];
    }
    case 'date': {
      if (v === null || v === undefined) return false;
      const d = compareValues(v, c.value);
      return { before: d <= 0, strictly_before: d < 0, after: d >= 0, strictly_after: d > 0 }[c.operator];
    }
    case 'boolean':
      return v === c.value;
    case 'exists':
      return (v !== null && v !== undefined) === c.value;
  }
}

/**
 * The page of `items` a store must return for `query`.
 * @param items - every stored item of the resource
 * @param related - every stored item of the resources related conditions reach, by short name
 */
export function referencePage(
  _resource: ResourceMetadata, items: readonly StoredItem[], query: CollectionQuery, related: RelatedItems = {},
): CollectionPage {
  const kept = items.filter((i) => query.conditions.every((c) => matches(i, c, related)));
  const value = (i: StoredItem, p: string): unknown => (p === 'id' ? i.id : i.data[p]);
  kept.sort((a, b) => {
    for (const o of query.order) {
      const d = compareValues(value(a, o.property), value(b, o.property));
      if (d !== 0) return o.direction === 'asc' ? d : -d;
    }
    return (a.id as number) - (b.id as number);
  });
  const offset = (query.page - 1) * query.itemsPerPage;
  const page = kept.slice(offset, offset + query.itemsPerPage);
  const hasNextPage = kept.length > offset + query.itemsPerPage;
  return query.partial ? { items: page, hasNextPage } : { items: page, totalItems: kept.length, hasNextPage };
}
