import { formatCollectionQuery } from '../query/collectionQuery';
import type { Resource } from '../resource/defineResource';
import type { CollectionPage, CollectionQuery } from '../state/types';

/** The links of a collection page (Hydra `PartialCollectionView`, HAL `_links`, RFC 8288 `Link`). */
export interface PageLinks {
  /** This page. */
  readonly self: string;
  readonly first?: string;
  /** Absent in partial mode (no count). */
  readonly last?: string;
  readonly previous?: string;
  readonly next?: string;
}

/** The last page number: 1 for an empty collection. */
export function lastPage(totalItems: number, itemsPerPage: number): number {
  return Math.max(1, Math.ceil(totalItems / itemsPerPage));
}

/**
 * The view links of a page: `first`, `last` (with a count), `previous`, `next`, each the
 * collection path with the same filters and the page number. Without pagination, only `self`.
 * @param path - the collection path as the client sees it (base URL included)
 */
export function pageLinks(path: string, resource: Resource, query: CollectionQuery, page: CollectionPage): PageLinks {
  const link = (n: number): string => `${path}?${formatCollectionQuery(query, resource, n)}`;
  if (!resource.pagination.enabled) {
    const q = formatCollectionQuery(query, resource);
    return { self: q === '' ? path : `${path}?${q}` };
  }
  const last = page.totalItems === undefined ? undefined : lastPage(page.totalItems, query.itemsPerPage);
  return {
    self: link(query.page),
    ...(query.partial ? {} : { first: link(1) }),
    ...(last !== undefined ? { last: link(last) } : {}),
    ...(query.page > 1 ? { previous: link(query.page - 1) } : {}),
    ...(page.hasNextPage ? { next: link(query.page + 1) } : {}),
  };
}

/** The RFC 8288 `Link` header value of a page's links (relations `first`, `last`, `prev`, `next`). */
export function linkHeader(links: PageLinks): string {
  const rel: Array<[keyof PageLinks, string]> = [
    ['first', 'first'], ['previous', 'prev'], ['next', 'next'], ['last', 'last'],
  ];
  return rel
    .filter(([k]) => links[k] !== undefined)
    .map(([k, name]) => `<${links[k] as string}>; rel="${name}"`)
    .join(', ');
}
