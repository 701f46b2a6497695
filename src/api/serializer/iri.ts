import { parseItemId, type IdentifierType, type ItemId } from '../state/identifier';

/**
 * IRIs of items and collections (API Platform's `IriConverter`): an item's IRI is its
 * collection path and its id, `/api/books/3`. IRIs are absolute paths, prefixed by the base URL
 * when the kernel is mounted (`/index.php/api/books/3`). A string id is one path segment,
 * percent-encoded as `encodeURIComponent` does (`/api/books/a%2Fb%20c` for `a/b c`).
 * @module
 */

/**
 * `<baseUrl><prefix>/<id>`, the id percent-encoded (a number or a UUID as it is), but for `=` and
 * `;`, which a path segment may hold as they are (RFC 3986 §3.3's sub-delims): a composite id
 * reads `name=Bar;year=2017`, as API Platform writes it.
 */
export function itemIri(prefix: string, id: ItemId, baseUrl = ''): string {
  const segment = typeof id === 'number' ? String(id)
    : encodeURIComponent(id).replace(/%3D/g, '=').replace(/%3B/g, ';');
  return `${baseUrl}${prefix}/${segment}`;
}

/**
 * The id an IRI names, or null when it is not `<baseUrl><prefix>/<id>` with an id of the type
 * (`parseItemId`, after percent-decoding; a malformed escape is null). A full URL's path and a
 * network path's are read (`http://host/api/authors/3`, `//host/api/authors/3`: what the
 * `urlGenerationStrategy` options write), whatever the host: API Platform's IRI converter matches
 * the path alone (its `Router::match` parses the URL and drops scheme and host).
 * @param iri - the IRI, e.g. `/api/authors/3`
 * @param prefix - the target's collection path, e.g. `/api/authors`
 * @param baseUrl - the mount path the IRI may carry (`/index.php`). @default ''
 * @param type - the identifier type of the resource at `prefix` (`integer` when undefined)
 * @returns the id (an integer from 1, a lower-case UUID, a string), or null
 */
export function idFromIri(iri: string, prefix: string, baseUrl = '', type?: IdentifierType): ItemId | null {
  let path = iri;
  const absolute = /^(?:https?:)?\/\/[^/]+(\/.*)$/i.exec(iri);
  if (absolute !== null) path = absolute[1];
  if (baseUrl !== '' && path.startsWith(`${baseUrl}/`)) path = path.slice(baseUrl.length);
  if (!path.startsWith(`${prefix}/`)) return null;
  const rest = path.slice(prefix.length + 1);
  if (rest.includes('/') || rest.includes('?') || rest.includes('#')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rest);
  } catch {
    return null;
  }
  return parseItemId(type, decoded);
}
