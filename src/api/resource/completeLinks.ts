import { invalidOption } from '../../config/optionError';
import { closestName } from '../../errors/suggest';
import { ID_REQUIREMENTS } from '../state/identifier';
import type { ResourceMetadata } from '../state/types';
import type { Resource } from './defineResource';
import { checkLinkRelation } from './Link';

/**
 * Operations' `uriVariables` links (subresources) name other resources (`fromClass`), which
 * `defineResource` does not know: they are resolved here once the API's resources are known (at
 * start-up, by `apiRoutes` and `describeApi`), each link given `from`, the metadata of its
 * `fromClass`, and each link's variable the route requirement of `fromClass`'s identifier type
 * (`ID_REQUIREMENTS`), unless the operation's `requirements` give one: `/authors/{authorId}/books`
 * matches the ids authors have (a UUID, any segment for a string id), as the item route
 * `/authors/{id}` does.
 * @param resources - the API's resources
 * @returns the same resources; one with links is replaced by a copy whose operations' links have
 *   `from` and whose `requirements` have every link variable
 * @throws KernelConfigError naming the option (`resources.Author.operations[2].uriVariables.id`)
 *   for a `fromClass` that is no resource of the API, or a `fromProperty` that is no relation of
 *   `fromClass` to this resource (with a "did you mean")
 */
export function completeLinks<R extends Resource>(resources: readonly R[]): R[] {
  const byName = new Map<string, ResourceMetadata>(resources.map((r) => [r.shortName, r.metadata]));
  return resources.map((r) => {
    if (!r.operations.some((op) => op.links.length > 0)) return r;
    const operations = r.operations.map((op, i) => (op.links.length === 0 ? op : Object.freeze({
      ...op,
      requirements: Object.freeze(Object.fromEntries([
        ...op.links.map((l): [string, string] =>
          [l.parameter, ID_REQUIREMENTS[byName.get(l.fromClass)?.identifier ?? 'integer']]),
        ...Object.entries(op.requirements),
      ])),
      links: Object.freeze(op.links.map((l) => {
        const at = `resources.${r.shortName}.operations[${i}].uriVariables.${l.parameter}`;
        const from = byName.get(l.fromClass);
        if (from === undefined) {
          const best = closestName(l.fromClass, [...byName.keys()]);
          throw invalidOption(`${at}.fromClass`, 'expected a resource of the API', l.fromClass,
            best === undefined ? {} : { hint: `did you mean "${best}"?` });
        }
        if (l.fromProperty !== undefined) checkLinkRelation(from, l.fromProperty, r.shortName, `${at}.fromProperty`);
        return Object.freeze({ ...l, from });
      })),
    })));
    return Object.freeze({ ...r, operations: Object.freeze(operations) });
  });
}
