/**
 * The number of the last page of a list (the index, the audit log).
 * @param totalItems - the items the list's filters select
 * @param itemsPerPage - rows per page
 * @returns the last page's number, from 1: 1 for an empty list or 0 items per page
 */
export function lastPage(totalItems: number, itemsPerPage: number): number {
  return itemsPerPage === 0 ? 1 : Math.max(1, Math.ceil(totalItems / itemsPerPage));
}
