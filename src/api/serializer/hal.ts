import type { Resource } from '../resource/defineResource';
import type { CollectionPage } from '../state/types';
import type { RequestBase } from './ApiContext';
import { itemIri } from './iri';
import type { PageLinks } from './pagination';
import { kindDefinition } from '../property/propertyKinds';

/**
 * HAL (`application/hal+json`, API Platform's `jsonhal` format): `_links.self`, relations as
 * links (not properties), collections with `_embedded.item` and page links.
 * @module
 */

type Href = { href: string };

/** An item: its properties, relations moved to `_links`. */
export function itemHal(
  resource: Resource, normalized: Record<string, unknown>, base: RequestBase,
): Record<string, unknown> {
  const self = itemIri(resource.routePrefix, normalized.id as number, base.baseUrl);
  const links: Record<string, Href | Href[]> = { self: { href: self } };
  const out: Record<string, unknown> = { _links: links };
  const relations = new Set(resource.metadata.properties.filter((p) => kindDefinition(p.kind).link).map((p) => p.name));
  for (const [k, v] of Object.entries(normalized)) {
    if (relations.has(k)) {
      if (typeof v === 'string') links[k] = { href: v };
      else if (Array.isArray(v)) links[k] = (v as unknown[]).map((href) => ({ href: String(href) })); // to-many
    } else {
      out[k] = v;
    }
  }
  return out;
}

/**
 * A collection page, as API Platform 3.4's HAL `CollectionNormalizer` writes it: `_links` with
 * `self`, `first`, `last`, `prev`, `next` and an `item` link per member, `totalItems` (with a
 * count), `itemsPerPage` (the page size, when paginated), `_embedded.item`; an empty page has
 * neither `_links.item` nor `_embedded`.
 * @param itemsPerPage - the page size, or undefined without pagination
 */
export function collectionHal(
  resource: Resource, members: Record<string, unknown>[], page: CollectionPage, links: PageLinks, base: RequestBase,
  itemsPerPage: number | undefined,
): Record<string, unknown> {
  const items = members.map((m) => itemHal(resource, m, base));
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
