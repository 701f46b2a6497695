import type { ResolvedOperation } from '../resource/defineResource';
import type { ProvidedState } from './Provider';
import type { CollectionPage, CollectionQuery, StoredItem } from './types';

/**
 * Checks what a user's provider or processor returned against the contract ({@link ProvidedState}),
 * so that a wrong shape fails with a message naming the operation, not deep in a serializer.
 * @module
 */

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value !== 'object') return typeof value;
  return `an object with ${Object.keys(value).slice(0, 5).join(', ') || 'no key'}`;
}

/** Whether `value` has the shape of a {@link StoredItem}: an integer `id`, an integer `version`, a `data` object. */
export function isStoredItem(value: unknown): value is StoredItem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<StoredItem>;
  return (Number.isSafeInteger(v.id) || (typeof v.id === 'string' && v.id !== '')) && Number.isSafeInteger(v.version)
    && typeof v.data === 'object' && v.data !== null && !Array.isArray(v.data);
}

/**
 * The item a provider or processor returned, checked.
 * @param from - `provider` or `processor`, for the message
 * @returns the item, or null
 * @throws Error (a 500: a bug of the provider) when the value is neither an item nor null
 */
export function providedItem(value: unknown, operation: ResolvedOperation, from: string): StoredItem | null {
  if (value === null || value === undefined) return null;
  if (isStoredItem(value)) return value;
  throw new Error(`The ${from} of ${operation.shortName} operation "${operation.name}" returned ${describe(value)}; `
    + 'expected an item { id, version, data } or null.');
}

/**
 * The page a `GetCollection` provider returned: a {@link CollectionPage} as it is, or an array of
 * every item paged here by `query` (all of it when pagination is off).
 * @throws Error (a 500: a bug of the provider) for another shape
 */
export function providedPage(
  value: ProvidedState, operation: ResolvedOperation, query: CollectionQuery, paginated: boolean,
): CollectionPage {
  if (Array.isArray(value)) {
    const all = value as readonly unknown[];
    const bad = all.find((item) => !isStoredItem(item));
    if (bad !== undefined) providedItem(bad, operation, 'provider');
    const items = all as readonly StoredItem[];
    if (!paginated) return { items, totalItems: items.length, hasNextPage: false };
    const start = (query.page - 1) * query.itemsPerPage;
    const page = items.slice(start, start + query.itemsPerPage);
    const hasNextPage = items.length > start + query.itemsPerPage;
    return query.partial ? { items: page, hasNextPage } : { items: page, totalItems: items.length, hasNextPage };
  }
  const page = value as Partial<CollectionPage> | null;
  if (page !== null && typeof page === 'object' && Array.isArray(page.items) && page.items.every(isStoredItem)) {
    return page as CollectionPage;
  }
  throw new Error(`The provider of ${operation.shortName} operation "${operation.name}" returned ${describe(value)}; `
    + 'expected a page { items, totalItems, hasNextPage } or an array of items { id, version, data }.');
}
