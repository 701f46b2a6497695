import type { Resource } from '../resource/defineResource';
import type { StoredItem } from '../state/types';
import { resourceIriRoot, type ApiPaths, type RequestBase } from './ApiContext';
import { kindDefinition } from '../property/propertyKinds';
import { itemIri } from './iri';
import { childPath, propertyStep, relatedIds, rootPath, type Embedding, type EmbeddingPath } from './embedding';
import { inGroups } from './serializationContext';

/**
 * The resource of an embedded document (a non-enumerable key: JSON text never shows it), for a
 * format that moves embedded documents (HAL's `_embedded`).
 */
export const EMBEDDED_RESOURCE = Symbol('embeddedResource');

/**
 * How {@link normalizeItem} writes relations as nested documents: the operation's context (its
 * groups choose properties and embedded relations), the items read for it, and the keys a
 * nested document of the format starts with (JSON-LD's `@id` and `@type`).
 */
export interface NormalizeOptions extends Embedding {
  /** Absent: the format embeds nothing (JSON:API), relations stay IRIs; the groups still apply. */
  readonly head?: (resource: Resource, item: StoredItem) => Record<string, unknown>;
  /**
   * Leaves out of an embedded document what the client may not read (property `security`),
   * changing it in place; the top-level item's is its caller's.
   */
  readonly strip?: (resource: Resource, item: StoredItem, normalized: Record<string, unknown>) => unknown;
}

/**
 * An item as plain data (API Platform's `ObjectNormalizer` output before a format adds its
 * keys): `id`, then every readable property (writeOnly ones left out), relations as IRIs,
 * datetimes as RFC 3339 with `+00:00` (`formatDateTime`). With `options`, only the properties in
 * the normalization groups (when it has some), and relations to a resource with a property in
 * them as nested documents (`embedding.ts`), each marked with {@link EMBEDDED_RESOURCE}.
 * @param into - the object to add them to, after the keys it has (a format's own, e.g. JSON-LD's
 *   `@id` and `@type`: one object per item, not a copy); a new one by default
 * @returns `into`
 */
export function normalizeItem(
  resource: Resource, item: StoredItem, paths: ApiPaths, base: RequestBase, into: Record<string, unknown> = {},
  options?: NormalizeOptions, path: EmbeddingPath = rootPath(resource, item.id),
): Record<string, unknown> {
  const out = into;
  // a composite identifier is no property of its own: its parts are (API Platform writes no `id`)
  if (resource.identifier.parts === undefined) out.id = item.id;
  const wire = {
    prefixes: paths.prefixes, baseUrl: base.baseUrl, root: (name: string) => resourceIriRoot(paths, base, name),
  };
  for (const p of resource.metadata.properties) {
    if (p.writeOnly) continue;
    if (options !== undefined && !inGroups(p, options.context)) continue;
    const v = item.data[p.name] ?? null;
    const step = options === undefined ? undefined : propertyStep(resource, p, path, options);
    if (step === 'omit') continue;
    if (v === null || step?.target === undefined || options?.head === undefined) {
      out[p.name] = v === null ? null : kindDefinition(p.kind).toWire(v, p, wire);
      continue;
    }
    const { target, path: below } = step;
    const { head, related } = options;
    const nested = relatedIds(v).map((id) => {
      const inner = childPath(target, id, below, options);
      if (inner === undefined) {
        return itemIri(paths.prefixes[target.shortName] ?? '', id, resourceIriRoot(paths, base, target.shortName));
      }
      const read = related.get(target.shortName)!.get(id)!;
      const doc = normalizeItem(target, read, paths, base, head(target, read), options, inner);
      options.strip?.(target, read, doc);
      Object.defineProperty(doc, EMBEDDED_RESOURCE, { value: target, enumerable: false });
      return doc;
    });
    out[p.name] = Array.isArray(v) ? nested : nested[0];
  }
  return out;
}
