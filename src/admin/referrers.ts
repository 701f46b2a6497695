import type { Request } from 'express';
import type { ItemId } from '../api';
import type { AdminApp } from './AdminApp';
import { itemLabel, type AdminResource } from './AdminResource';

/**
 * The items that point to one item through a relation (an author's books): what its detail page
 * lists and what a refused delete counts (EasyAdmin leaves both to the developer).
 * @module
 */

/** The items of one resource pointing to an item through one relation property. */
export interface Referrers {
  /** The referring resource's name and the property's label, e.g. `Book`, `Author`. */
  readonly resource: string;
  readonly field: string;
  /** How many items point to it. */
  readonly total: number;
  /** The first of them, by id: their labels and detail pages. */
  readonly items: ReadonlyArray<{ label: string; url: string }>;
  /**
   * The referring resource's index filtered to them (`/admin/books?author=1`), when the resource
   * declares a search filter on the property; otherwise absent.
   */
  readonly url?: string;
}

/**
 * Every relation of the listed resources to `admin`, with the items pointing to the item `id`:
 * one counted query per relation property.
 * @param limit - how many items to name per relation, from 1 to 100
 * @returns one entry per relation property that has referrers (none: empty)
 */
export async function referrersOf(
  app: AdminApp, req: Request, admin: AdminResource, id: ItemId, limit: number,
): Promise<Referrers[]> {
  const found: Referrers[] = [];
  for (const other of app.admins.values()) {
    for (const field of other.fields) {
      if (field.relation !== admin.shortName) continue;
      const { provider, metadata, filters } = other.resource;
      const page = await provider!.provideCollection(metadata, {
        conditions: [{ type: 'search', property: field.name, strategy: 'exact', values: [id] }],
        order: [], page: 1, itemsPerPage: limit, partial: false,
      }, app.stateContext(req));
      const total = page.totalItems ?? page.items.length;
      if (total === 0) continue;
      const filterable = filters.some((f) => f.type === 'search' && f.property === field.name);
      found.push({
        resource: app.text(req, other.plural),
        field: app.text(req, field.label),
        total,
        items: page.items.map((item) => ({ label: itemLabel(other, item), url: app.url(req, other.slug, item.id) })),
        ...(filterable ? { url: `${app.url(req, other.slug)}?${encodeURIComponent(field.name)}=${id}` } : {}),
      });
    }
  }
  return found;
}
