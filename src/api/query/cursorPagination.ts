import type { CursorField } from '../resource/defineResource';
import type { CollectionQuery, FilterCondition, OrderBy, StoredItem } from '../state/types';
import { formatPhpQuery, type PhpParameters } from './phpQuery';

/**
 * Cursor pagination (API Platform's `paginationViaCursor`): the pages of a collection are read
 * through range filters on the cursor's fields rather than page numbers. The view's `next` link
 * is `<field>[lt]=<the page's last value>` for a `DESC` field (`[gt]` for `ASC`) and `previous`
 * `<field>[gt]=<the page's first value>`, as `Hydra/Serializer/PartialCollectionViewNormalizer`
 * writes them, whatever the page holds (an empty page has neither).
 *
 * Reading a page: without an `order` from the client the collection is ordered by the cursor's
 * fields. A `previous` link (a range against the cursor's direction on its first field, e.g.
 * `id[gt]=8` for `id DESC`) is read in the opposite order and the page turned back, so it holds
 * the items just before the cursor: walking `next` then `previous` visits every item once each
 * way. API Platform 3.4 reads that page in the cursor's own order, i.e. the first items of the
 * collection above the cursor; the links are the same. The fields should be unique together
 * (the identifier, or a uuid v7 one, which orders by creation time) or items with an equal value
 * on a page's edge are skipped, as with any keyset pagination.
 * @module
 */

/** A query as a cursor reads it, and whether the store's page must be turned back. */
export interface CursorRead {
  readonly query: CollectionQuery;
  /** True for a `previous` page: the store read it in the opposite order; reverse its items. */
  readonly backward: boolean;
}

const BACKWARD: Readonly<Record<'asc' | 'desc', readonly string[]>> = { desc: ['gt', 'gte'], asc: ['lt', 'lte'] };

/**
 * The query a cursor-paginated collection reads (see the module's note).
 * @param cursor - the operation's `pagination.viaCursor` (empty: the query as is)
 */
export function cursorRead(query: CollectionQuery, cursor: readonly CursorField[]): CursorRead {
  if (cursor.length === 0 || query.paginated === false) return { query, backward: false };
  const order: readonly OrderBy[] = query.order.length > 0 ? query.order
    : cursor.map((c) => ({ property: c.field, direction: c.direction }));
  const [first] = cursor;
  const ranges = query.conditions.filter((c): c is Extract<FilterCondition, { type: 'range' }> =>
    c.type === 'range' && c.property === first.field);
  const backward = ranges.length > 0 && ranges.every((c) => BACKWARD[first.direction].includes(c.operator))
    && order[0]?.property === first.field && order[0].through === undefined && order[0].direction === first.direction;
  if (!backward) return { query: { ...query, order }, backward: false };
  const flipped = order.map((o) => ({ ...o, direction: o.direction === 'asc' ? 'desc' as const : 'asc' as const }));
  return { query: { ...query, order: flipped }, backward: true };
}

/** A field's value on an item, as the links write it (`id` the identifier). */
function valueOf(item: StoredItem, field: string): string {
  const value = field === 'id' ? item.id : item.data[field];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/**
 * The query strings of a cursor page's `next` and `previous` links: the request's parameters
 * (`page` already left out) with each cursor field replaced by its range, at its place or last.
 * @returns undefined for a link the page has none of (an empty page)
 */
export function cursorLinks(
  params: PhpParameters, cursor: readonly CursorField[], items: readonly StoredItem[],
): { next?: string; previous?: string } {
  if (items.length === 0) return {};
  const link = (item: StoredItem, forward: boolean): string => {
    const merged: PhpParameters = new Map(params);
    for (const c of cursor) {
      const ahead = (c.direction === 'desc') === forward ? 'lt' : 'gt';
      merged.set(c.field, [{ key: ahead, value: valueOf(item, c.field) }]);
    }
    return formatPhpQuery(merged);
  };
  return { next: link(items[items.length - 1], true), previous: link(items[0], false) };
}
