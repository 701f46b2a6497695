import { formatPhpQuery, parsePhpQuery } from '../query/phpQuery';
import { cursorLinks } from '../query/cursorPagination';
import type { CursorField } from '../resource/defineResource';
import type { CollectionPage, CollectionQuery } from '../state/types';

/** The links of a collection page (Hydra `PartialCollectionView`, HAL `_links`, RFC 8288 `Link`). */
export interface PageLinks {
  /**
   * Whether the page has a view (`hydra:view`): it is paginated (more than one page, or partial
   * pagination) or the client sent query parameters besides `page` (API Platform's
   * `PartialCollectionViewNormalizer`).
   */
  readonly view: boolean;
  /** This page: the collection path, its query, and `page` when paginated. */
  readonly self: string;
  /** With a count and more than one page. */
  readonly first?: string;
  readonly last?: string;
  readonly previous?: string;
  readonly next?: string;
}

/** The last page number: 1 for an empty collection or 0 items per page. */
export function lastPage(totalItems: number, itemsPerPage: number): number {
  return itemsPerPage === 0 ? 1 : Math.max(1, Math.ceil(totalItems / itemsPerPage));
}

/**
 * The view links of a page, as API Platform 3.4 writes them (`IriHelper::createIri`): the query
 * as the client sent it (unknown parameters included) in PHP's encoding, `page` moved to the end
 * with the linked page's number; `first` and `last` with a count, `previous` after page 1, `next`
 * before the last page (partial: when another item exists). Not paginated (the query's
 * `paginated: false`, or a single page): `self` only. With a cursor, `self` without `page` and
 * `next`/`previous` as `cursorLinks` writes them, no `first`/`last`.
 * @param path - the collection path as the client sees it (base URL included)
 * @param rawQuery - the request's raw query string, without `?`
 * @param cursor - the operation's `pagination.viaCursor` (empty: page numbers)
 */
export function pageLinks(
  path: string, rawQuery: string, query: CollectionQuery, page: CollectionPage, cursor: readonly CursorField[] = [],
): PageLinks {
  const params = parsePhpQuery(rawQuery, ['page']);
  const filtered = [...params.keys()].some((k) => k !== 'pagination');
  const last = page.totalItems === undefined ? undefined : lastPage(page.totalItems, query.itemsPerPage);
  const paginated = query.paginated !== false && (query.partial || last !== 1);
  const at = (q: string): string => (q === '' ? path : `${path}?${q}`);
  const link = (n?: number): string => at(formatPhpQuery(params, n === undefined ? [] : [['page', String(n)]]));
  if (!paginated) return { view: filtered, self: link() };
  if (cursor.length > 0) {
    const { next, previous } = cursorLinks(params, cursor, page.items);
    return {
      view: true, self: link(),
      ...(previous !== undefined ? { previous: at(previous) } : {}), ...(next !== undefined ? { next: at(next) } : {}),
    };
  }
  const hasNext = query.itemsPerPage > 0 && (last !== undefined ? query.page < last : page.hasNextPage);
  return {
    view: true,
    self: link(query.page),
    ...(last !== undefined ? { first: link(1), last: link(last) } : {}),
    ...(query.page > 1 ? { previous: link(query.page - 1) } : {}),
    ...(hasNext ? { next: link(query.page + 1) } : {}),
  };
}

/**
 * The longest page-links part of a `Link` header, in bytes: past it (a long query repeated in
 * four links) the page relations are left out of the header, which stays well under the 8 KB
 * that proxies and Node's own client accept in all (issue 27.7); the JSON-LD and HAL bodies
 * carry the same links in full.
 */
export const MAX_PAGE_LINKS_HEADER = 4096;

/**
 * The RFC 8288 `Link` header value of a page's links (relations `first`, `prev`, `next`,
 * `last`), or `''` when there are none or they pass {@link MAX_PAGE_LINKS_HEADER} together.
 */
export function linkHeader(links: PageLinks): string {
  const rel: Array<[keyof PageLinks, string]> = [
    ['first', 'first'], ['previous', 'prev'], ['next', 'next'], ['last', 'last'],
  ];
  const value = rel
    .filter(([k]) => links[k] !== undefined)
    .map(([k, name]) => `<${links[k] as string}>; rel="${name}"`)
    .join(', ');
  return Buffer.byteLength(value) > MAX_PAGE_LINKS_HEADER ? '' : value;
}
