import type { Resource } from '../resource/defineResource';
import type { CollectionPage, ItemId } from '../state/types';
import { iriRoot, resourceIriRoot, type ApiPaths, type RequestBase } from './ApiContext';
import { itemIri } from './iri';
import type { PageLinks } from './pagination';
import { kindDefinition } from '../property/propertyKinds';
import { EMBEDDED_RESOURCE } from './normalize';

/**
 * HAL (`application/hal+json`, API Platform's `jsonhal` format): `_links.self`, relations as
 * links (not properties), collections with `_embedded.item` and page links.
 * @module
 */

type Href = { href: string };

/**
 * The self link of an item of `resource` as {@link itemHal} writes it: under the operation's
 * `urlGenerationStrategy` for the document's own item, else its resource's.
 */
function selfHref(
  resource: Resource, normalized: Record<string, unknown>, paths: ApiPaths, base: RequestBase, top: boolean | string,
): Href {
  if (typeof top === 'string') return { href: top };
  const root = top ? iriRoot(base) : resourceIriRoot(paths, base, resource.shortName);
  return { href: itemIri(resource.routePrefix, normalized.id as ItemId, root) };
}

/** The resource of a nested document `normalizeItem` embedded, or undefined for an IRI. */
function embeddedResource(value: unknown): Resource | undefined {
  return typeof value === 'object' && value !== null
    ? (value as { [EMBEDDED_RESOURCE]?: Resource })[EMBEDDED_RESOURCE] : undefined;
}

/**
 * An item: its properties, relations moved to `_links` (an IRI) and, when embedded by the
 * normalization groups, to `_embedded` too (a HAL document of its own), as API Platform's HAL
 * `ItemNormalizer` writes them: `_links`, `_embedded`, then the properties.
 * @param top - the document's self link (`ItemContext.itemIri`), or whether the item is the
 *   document (its self link follows the operation's `urlGenerationStrategy`), not a member or an
 *   embedded document (its resource's)
 */
export function itemHal(
  resource: Resource, normalized: Record<string, unknown>, paths: ApiPaths, base: RequestBase,
  top: boolean | string = true,
): Record<string, unknown> {
  const links: Record<string, Href | Href[]> = { self: selfHref(resource, normalized, paths, base, top) };
  const embedded: Record<string, unknown> = {};
  const properties: Record<string, unknown> = {};
  const relations = new Set(resource.metadata.properties.filter((p) => kindDefinition(p.kind).link).map((p) => p.name));
  const link = (v: unknown): Href => {
    const target = embeddedResource(v);
    return target === undefined ? { href: String(v) }
      : selfHref(target, v as Record<string, unknown>, paths, base, false);
  };
  const document = (v: unknown): unknown => {
    const target = embeddedResource(v);
    return target === undefined ? undefined : itemHal(target, v as Record<string, unknown>, paths, base, false);
  };
  for (const [k, v] of Object.entries(normalized)) {
    if (!relations.has(k)) {
      properties[k] = v;
    } else if (Array.isArray(v)) { // to-many
      links[k] = (v as unknown[]).map(link);
      const documents = (v as unknown[]).map(document).filter((d) => d !== undefined);
      if (documents.length > 0) embedded[k] = documents;
    } else if (v !== null && v !== undefined) {
      links[k] = link(v);
      const d = document(v);
      if (d !== undefined) embedded[k] = d;
    }
  }
  return Object.keys(embedded).length > 0
    ? { _links: links, _embedded: embedded, ...properties } : { _links: links, ...properties };
}

/**
 * A collection page, as API Platform 3.4's HAL `CollectionNormalizer` writes it: `_links` with
 * `self`, `first`, `last`, `prev`, `next` and an `item` link per member, `totalItems` (with a
 * count), `itemsPerPage` (the page size, when paginated), `_embedded.item`; an empty page has
 * neither `_links.item` nor `_embedded`.
 * @param itemsPerPage - the page size, or undefined without pagination
 */
export function collectionHal(
  resource: Resource, members: Record<string, unknown>[], page: CollectionPage, links: PageLinks, paths: ApiPaths,
  base: RequestBase, itemsPerPage: number | undefined,
): Record<string, unknown> {
  const items = members.map((m) => itemHal(resource, m, paths, base, false));
  const l: Record<string, unknown> = { self: { href: links.self } };
  const rel = [['first', 'first'], ['last', 'last'], ['previous', 'prev'], ['next', 'next']] as const;
  for (const [k, name] of rel) if (links[k] !== undefined) l[name] = { href: links[k] };
  if (items.length > 0) l.item = items.map((i) => (i._links as { self: Href }).self);
  return {
    _links: l,
    ...(page.totalItems !== undefined ? { totalItems: page.totalItems } : {}),
    ...(itemsPerPage !== undefined ? { itemsPerPage } : {}),
    ...(items.length > 0 ? { _embedded: { item: items } } : {}),
  };
}

/** The entrypoint: a link per resource collection. */
export function entrypointHal(entrypoint: string, collections: Record<string, string>): Record<string, unknown> {
  const links: Record<string, Href> = { self: { href: entrypoint } };
  for (const [k, v] of Object.entries(collections)) links[k] = { href: v };
  return { _links: links };
}
