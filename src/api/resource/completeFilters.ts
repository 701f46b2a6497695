import type { ResourceMetadata } from '../state/types';
import type { Resource } from './defineResource';
import { hasPathFilters, resolveFilters } from './filterResolution';

/**
 * Filters on dotted paths (`author.name`, `tags.name`: API Platform's nested properties) need
 * the related resources' metadata, which `defineResource` does not have: they are resolved here,
 * once the API's resources are known (at start-up, by `apiRoutes` and `describeApi`).
 * @param resources - the API's resources; relations name resources among them
 * @returns the same resources in the same order; one with a dotted filter is replaced by a copy
 *   whose `filters` hold every declared filter, in declaration order
 * @throws KernelConfigError naming the filter and the segment that does not resolve, with a
 *   "did you mean" among that resource's properties (`resources.Book.filters[0].properties`)
 */
export function completeFilters<R extends Resource>(resources: readonly R[]): R[] {
  const byName = new Map<string, ResourceMetadata>(resources.map((r) => [r.shortName, r.metadata]));
  return resources.map((r) => (hasPathFilters(r.filterDeclarations)
    ? Object.freeze({
      ...r,
      filters: resolveFilters(r.filterDeclarations, r.metadata, `resources.${r.shortName}.filters`,
        (name) => byName.get(name)),
    })
    : r));
}
