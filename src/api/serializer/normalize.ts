import type { Resource } from '../resource/defineResource';
import type { StoredItem } from '../state/types';
import type { ApiPaths, RequestBase } from './ApiContext';
import { kindDefinition } from '../property/propertyKinds';

/**
 * An item as plain data (API Platform's `ObjectNormalizer` output before a format adds its
 * keys): `id`, then every readable property (writeOnly ones left out), relations as IRIs,
 * datetimes as RFC 3339 with `+00:00` (`formatDateTime`).
 * @param into - the object to add them to, after the keys it has (a format's own, e.g. JSON-LD's
 *   `@id` and `@type`: one object per item, not a copy); a new one by default
 * @returns `into`
 */
export function normalizeItem(
  resource: Resource, item: StoredItem, paths: ApiPaths, base: RequestBase, into: Record<string, unknown> = {},
): Record<string, unknown> {
  const out = into;
  out.id = item.id;
  const wire = { prefixes: paths.prefixes, baseUrl: base.baseUrl };
  for (const p of resource.metadata.properties) {
    if (p.writeOnly) continue;
    const v = item.data[p.name] ?? null;
    out[p.name] = v === null ? null : kindDefinition(p.kind).toWire(v, p, wire);
  }
  return out;
}
