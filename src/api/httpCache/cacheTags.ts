import type { Resource } from '../resource/defineResource';
import type { ApiPaths } from '../serializer/ApiContext';
import { itemIri } from '../serializer/iri';
import type { StoredItem } from '../state/types';

/**
 * The IRIs a response contains and those a write changes (API Platform's `resources` collected
 * by the normalizers, and `PurgeHttpCacheListener`'s tags). IRIs are absolute paths with the
 * base URL, as the API writes them (`/api/books/3`, `/index.php/api/books/3` when mounted).
 * @module
 */

/** Adds the item's IRI then the IRIs of the relations it shows (writeOnly ones are not shown). */
function addItem(out: Set<string>, resource: Resource, item: StoredItem, paths: ApiPaths, baseUrl: string): void {
  out.add(itemIri(resource.routePrefix, item.id, baseUrl));
  addRelations(out, resource, item, paths, baseUrl, false);
}

function addRelations(
  out: Set<string>, resource: Resource, item: StoredItem, paths: ApiPaths, baseUrl: string, hidden: boolean,
): void {
  for (const p of resource.metadata.properties) {
    if (p.relation === undefined || (p.writeOnly && !hidden)) continue;
    const id = item.data[p.name];
    const prefix = paths.prefixes[p.relation];
    const named = typeof id === 'number' || typeof id === 'string';
    if (named && prefix !== undefined) out.add(itemIri(prefix, id, baseUrl));
  }
}

/**
 * The IRIs of what a read shows, in the order it shows them: each item's, followed by its
 * relations', then (for a collection) the collection's own IRI, so a write to the collection
 * reaches every page of it (API Platform's `Cache-Tags` order; duplicates kept once).
 * @param items - the item of a Get, the page's items of a GetCollection
 * @param collection - true for a GetCollection
 */
export function shownIris(
  resource: Resource, items: readonly StoredItem[], collection: boolean, paths: ApiPaths, baseUrl: string,
): string[] {
  const out = new Set<string>();
  for (const item of items) addItem(out, resource, item, paths, baseUrl);
  if (collection) out.add(`${baseUrl}${resource.routePrefix}`);
  return [...out];
}

/**
 * The IRIs a write changes (API Platform's `PurgeHttpCacheListener`): the collection's (every
 * page lists or counts the item), the item's unless it was just created (no response shows it
 * yet), and the items its relations name before and after the write (they may show it).
 * @param before - the stored item before an update or a delete; null for a create
 * @param after - the stored item after a create or an update; null for a delete
 */
export function changedIris(
  resource: Resource, before: StoredItem | null, after: StoredItem | null, paths: ApiPaths, baseUrl: string,
): string[] {
  const out = new Set<string>([`${baseUrl}${resource.routePrefix}`]);
  if (before !== null) out.add(itemIri(resource.routePrefix, before.id, baseUrl));
  for (const item of [before, after]) if (item !== null) addRelations(out, resource, item, paths, baseUrl, true);
  return [...out];
}
