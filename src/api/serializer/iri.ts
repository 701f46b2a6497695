/**
 * IRIs of items and collections (API Platform's `IriConverter`): an item's IRI is its
 * collection path and its id, `/api/books/3`. IRIs are absolute paths, prefixed by the base URL
 * when the kernel is mounted (`/index.php/api/books/3`).
 * @module
 */

/** `<prefix>/<id>`. */
export function itemIri(prefix: string, id: number, baseUrl = ''): string {
  return `${baseUrl}${prefix}/${id}`;
}

/**
 * The id an IRI names, or null when it is not `<baseUrl><prefix>/<digits>`. A full URL's path
 * is read (`http://host/api/authors/3`), as API Platform's IRI converter accepts.
 * @param iri - the IRI, e.g. `/api/authors/3`
 * @param prefix - the target's collection path, e.g. `/api/authors`
 * @param baseUrl - the mount path the IRI may carry (`/index.php`). @default ''
 * @returns the id (an integer from 1), or null
 */
export function idFromIri(iri: string, prefix: string, baseUrl = ''): number | null {
  let path = iri;
  const absolute = /^https?:\/\/[^/]+(\/.*)$/.exec(iri);
  if (absolute !== null) path = absolute[1];
  if (baseUrl !== '' && path.startsWith(`${baseUrl}/`)) path = path.slice(baseUrl.length);
  if (!path.startsWith(`${prefix}/`)) return null;
  const rest = path.slice(prefix.length + 1);
  if (!/^[1-9]\d{0,14}$/.test(rest)) return null;
  return Number(rest);
}
