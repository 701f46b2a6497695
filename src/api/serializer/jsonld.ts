import { LRUCache } from 'lru-cache';
import type { Resource } from '../resource/defineResource';
import { kindDefinition } from '../property/propertyKinds';
import { jsonLdType, propertyIri } from '../resource/rdfVocabulary';
import type { CollectionPage, ItemId } from '../state/types';
import { type ApiPaths, iriRoot, type RequestBase, resourceIriRoot, vocabulary } from './ApiContext';
import { itemIri } from './iri';
import { EMBEDDED_RESOURCE } from './normalize';
import type { PageLinks } from './pagination';

/**
 * JSON-LD with Hydra (API Platform 3's `jsonld` format): items with `@context`, `@id`, `@type`;
 * collections as `hydra:Collection` with `hydra:member`, `hydra:totalItems`, a
 * `hydra:PartialCollectionView` and a `hydra:search` IRI template; contexts per class; errors
 * as `hydra:Error` and `ConstraintViolationList`. The Hydra API documentation is
 * `hydraDocumentation.ts`.
 * @module
 */

export const HYDRA = 'http://www.w3.org/ns/hydra/core#';

/** The classes that have a context besides the resources. */
export const BUILT_IN_CLASSES = ['Entrypoint', 'Error', 'ConstraintViolationList'] as const;

/**
 * The IRI of a class's JSON-LD context (`/api/contexts/Book`), under the operation's
 * `urlGenerationStrategy` (API Platform's `ContextBuilder::getResourceContextUri`).
 */
export function contextIri(paths: ApiPaths, base: RequestBase, name: string): string {
  return `${iriRoot(base)}${paths.contexts}/${name}`;
}

/**
 * The JSON-LD keys of an item, to which `normalizeItem` adds its properties: `@id` and `@type`
 * for a collection member, `@context` first for an item document.
 * @param id - the item's id
 * @param withContext - whether the item is a document of its own (its `@id` follows the
 *   operation's `urlGenerationStrategy`), not a member or an embedded document (its resource's)
 * @param iri - the `@id` when the document names its item otherwise (`ItemContext.itemIri`)
 */
export function itemJsonLdHead(
  resource: Resource, id: ItemId, paths: ApiPaths, base: RequestBase, withContext: boolean, iri?: string,
): Record<string, unknown> {
  const root = withContext ? iriRoot(base) : resourceIriRoot(paths, base, resource.shortName);
  iri ??= itemIri(resource.routePrefix, id, root);
  // the resource's `types` when it has some (API Platform's ItemNormalizer), else its short name
  const type = jsonLdType(resource);
  return withContext
    ? { '@context': contextIri(paths, base, resource.shortName), '@id': iri, '@type': type }
    : { '@id': iri, '@type': type };
}

/**
 * A normalized item with its embeddables' JSON-LD type: each embedded value object starts with
 * `@type`, its class name (`{ "@type": "Address", "city": "Paris" }`), and no `@id` (it has no
 * identity), as API Platform 3.4 writes an embeddable (`EmbeddableDummy` in its Behat
 * scenarios); the same inside embedded documents ({@link EMBEDDED_RESOURCE}). Changes `doc` in place.
 * @returns `doc`
 */
export function typeEmbeddables(resource: Resource, doc: Record<string, unknown>): Record<string, unknown> {
  for (const p of resource.metadata.properties) {
    const v = doc[p.name];
    if (typeof v !== 'object' || v === null) continue;
    if (p.embeddable !== undefined && !Array.isArray(v)) {
      doc[p.name] = { '@type': p.embeddable.name, ...v };
      continue;
    }
    for (const nested of Array.isArray(v) ? v as unknown[] : [v]) {
      if (typeof nested !== 'object' || nested === null) continue;
      const target = (nested as { [EMBEDDED_RESOURCE]?: Resource })[EMBEDDED_RESOURCE];
      if (target !== undefined) typeEmbeddables(target, nested as Record<string, unknown>);
    }
  }
  return doc;
}

/** The `hydra:search` IRI template of a resource's filters, or undefined without filters. */
function searchTemplate(resource: Resource, path: string): Record<string, unknown> | undefined {
  const parameters = resource.filters.flatMap((f) => f.parameters);
  if (parameters.length === 0) return undefined;
  return {
    '@type': 'hydra:IriTemplate',
    'hydra:template': `${path}{?${parameters.map((p) => p.name).join(',')}}`,
    'hydra:variableRepresentation': 'BasicRepresentation',
    'hydra:mapping': parameters.map((p) => ({
      '@type': 'IriTemplateMapping', variable: p.name, property: p.property ?? null, required: false,
    })),
  };
}

/**
 * The `hydra:search` member of a resource's collections as JSON text (`,"hydra:search":{…}`, or
 * `''` without filters), by collection path: the same for every page and every request (about
 * 2.4 KB of the demo's 3.2 KB page of Book), so it is built and serialized once per path.
 */
const searchTexts = new WeakMap<Resource, LRUCache<string, string>>();
/** Collection paths kept per resource: one per base URL the kernel is reached under. */
const SEARCH_PATHS_PER_RESOURCE = 16;

function searchText(resource: Resource, path: string): string {
  let texts = searchTexts.get(resource);
  if (texts === undefined) {
    texts = new LRUCache<string, string>({ max: SEARCH_PATHS_PER_RESOURCE });
    searchTexts.set(resource, texts);
  }
  let text = texts.get(path);
  if (text === undefined) {
    const search = searchTemplate(resource, path);
    text = search === undefined ? '' : `,${JSON.stringify('hydra:search')}:${JSON.stringify(search)}`;
    texts.set(path, text);
  }
  return text;
}

/**
 * A collection page, as JSON text: `@context`, `@id`, `@type` (`hydra:Collection`),
 * `hydra:totalItems` (with a count), `hydra:member`, `hydra:view` (paginated or filtered) and
 * `hydra:search` (with filters), in that order.
 * @param members - the items, each with its {@link itemJsonLdHead} (without `@context`)
 */
export function collectionJsonLd(
  resource: Resource, members: Record<string, unknown>[], page: CollectionPage, links: PageLinks, path: string,
  paths: ApiPaths, base: RequestBase,
): string {
  const view: Record<string, unknown> = { '@id': links.self, '@type': 'hydra:PartialCollectionView' };
  if (links.first !== undefined) view['hydra:first'] = links.first;
  if (links.last !== undefined) view['hydra:last'] = links.last;
  if (links.previous !== undefined) view['hydra:previous'] = links.previous;
  if (links.next !== undefined) view['hydra:next'] = links.next;
  const head = JSON.stringify({
    '@context': contextIri(paths, base, resource.shortName),
    '@id': path,
    '@type': 'hydra:Collection',
    ...(page.totalItems !== undefined ? { 'hydra:totalItems': page.totalItems } : {}),
    'hydra:member': members,
    ...(links.view ? { 'hydra:view': view } : {}),
  });
  // the object's text ends with its closing brace: the search member goes just before it
  return `${head.slice(0, -1)}${searchText(resource, path)}}`;
}

/** A key per resource: `book` for `Book`, `bookReview` for `BookReview`. */
export function entrypointKey(shortName: string): string {
  return shortName.charAt(0).toLowerCase() + shortName.slice(1);
}

/**
 * The entrypoint (`GET /api`): a link per resource collection.
 * @param collections - each collection's IRI by entrypoint key (`EntrypointContext.collections`)
 */
export function entrypointJsonLd(
  paths: ApiPaths, base: RequestBase, collections: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@context': contextIri(paths, base, 'Entrypoint'),
    '@id': `${iriRoot(base)}${paths.entrypoint}`,
    '@type': 'Entrypoint',
  };
  for (const r of paths.resources.values()) {
    const key = entrypointKey(r.shortName);
    if (r.operations.some((op) => op.kind === 'GetCollection') && collections[key] !== undefined) {
      out[key] = collections[key];
    }
  }
  return out;
}

/** The JSON-LD context of a class (`/api/contexts/Book`), or undefined for an unknown name. */
export function contextDocument(name: string, paths: ApiPaths, base: RequestBase): Record<string, unknown> | undefined {
  const head = { '@vocab': vocabulary(paths, base), hydra: HYDRA };
  const resource = paths.resources.get(name);
  if (resource !== undefined) {
    const terms: Record<string, unknown> = { ...head };
    for (const p of resource.metadata.properties) {
      // the property's `iris` when it has some (API Platform's ContextBuilder), else `Book/title`
      const term = propertyIri(p, name, '');
      terms[p.name] = kindDefinition(p.kind).link ? { '@id': term, '@type': '@id' } : term;
    }
    return { '@context': terms };
  }
  if (name === 'Entrypoint') {
    const terms: Record<string, unknown> = { ...head, Entrypoint: 'Entrypoint' };
    for (const r of paths.resources.values()) {
      const key = entrypointKey(r.shortName);
      terms[key] = { '@id': `Entrypoint/${key}`, '@type': '@id' };
    }
    return { '@context': terms };
  }
  if (name === 'Error') return { '@context': { ...head, Error: 'hydra:Error' } };
  if (name === 'ConstraintViolationList') {
    return {
      '@context': {
        ...head,
        ConstraintViolationList: 'ConstraintViolationList',
        violations: 'ConstraintViolationList/violations',
        propertyPath: 'ConstraintViolationList/propertyPath',
        message: 'ConstraintViolationList/message',
        code: 'ConstraintViolationList/code',
      },
    };
  }
  return undefined;
}
