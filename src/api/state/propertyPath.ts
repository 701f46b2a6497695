import type { FilterCondition, PropertyMetadata, ResourceMetadata } from './types';

/**
 * Dotted property paths through relations (`author.name` from `Book`), API Platform's nested
 * properties of its `SearchFilter` (`'author.name' => 'partial'`) and EasyAdmin's
 * `setSearchFields(['author.name'])`: resolved against the resources' metadata, a path turns a
 * condition on its last property into a `related` condition (`FilterCondition`) on the first
 * resource, which every store evaluates (MemoryState, SQL's `IN (SELECT …)`).
 * @module
 */

/** Relations a path may cross (`a.b.c.d` crosses 3): each is one nested subquery on SQL. */
export const MAX_RELATIONS_CROSSED = 3;

/** A path resolved: the property at its end and how to reach it. */
export interface ResolvedPropertyPath {
  /** The path as given, e.g. `author.name`. */
  readonly path: string;
  /** The resource that has the last property (`Author`). */
  readonly owner: ResourceMetadata;
  /** The last property (`name`); never a write-only one. */
  readonly property: PropertyMetadata;
  /** The relation properties crossed, in order (`author`); none for a plain property. */
  readonly relations: readonly PropertyMetadata[];
  /** The resource each relation of `relations` points to, in the same order (`Author`). */
  readonly targets: readonly ResourceMetadata[];
  /**
   * A condition on the last property (its `property` is the last segment, `name`) as a condition
   * on the first resource's items: wrapped in one `related` condition per relation crossed.
   */
  wrap(condition: FilterCondition): FilterCondition;
}

/** Why a path does not resolve, at which segment. */
export interface PropertyPathProblem {
  readonly problem:
    /** The segment is no (readable) property of `resource`. */
    | 'unknown_property'
    /** The segment is a property, not a relation, and more segments follow. */
    | 'not_a_relation'
    /** The relation's target resource is unknown to `resolve`. */
    | 'unknown_resource'
    /** More than {@link MAX_RELATIONS_CROSSED} relations. */
    | 'too_deep';
  /** The segment, e.g. `nmae`. */
  readonly segment: string;
  /** The resource the segment was looked up in. */
  readonly resource: ResourceMetadata;
}

/**
 * The identifier as a property (it is not in `ResourceMetadata.properties`): what a path ending in
 * `id` (`id`, `author.id`) resolves to when `propertyPath` is asked to accept it.
 */
export const IDENTIFIER_PROPERTY: PropertyMetadata = Object.freeze({
  name: 'id', kind: 'integer', nullable: false, readOnly: true, writeOnly: false,
});

const FIELDS = new WeakMap<PropertyMetadata, ResourceMetadata>();

/** An embedded property's fields as the properties of a resource named after the embeddable (`Address`). */
function embeddableFields(property: PropertyMetadata): ResourceMetadata {
  let fields = FIELDS.get(property);
  if (fields === undefined) {
    const e = property.embeddable!;
    fields = Object.freeze({ shortName: e.name, table: '', properties: e.fields });
    FIELDS.set(property, fields);
  }
  return fields;
}

/**
 * Resolves a dotted property path from a resource.
 * @param resource - where the path starts (`Book`)
 * @param path - property names joined by dots (`author.name`); a single name is a plain property;
 *   through an embeddable, its field (`address.city`, `author.address.city`): the resolved
 *   `property` is the field named by its path from its owner (`address.city`), as conditions and
 *   orders name it to the stores
 * @param resolve - a resource's metadata by short name (the relation's `relation`)
 * @param options - `identifier`: a last segment `id` is the item's identifier
 *   ({@link IDENTIFIER_PROPERTY}; API Platform's filters on `id`, `relatedDummy.id`); `toMany`:
 *   a path may cross to-many relations too (`tags.name`: one of the linked items)
 * @returns the resolved path, or the problem with the segment it met (write-only properties are
 *   unknown: a path never filters on what is never shown)
 */
export function propertyPath(
  resource: ResourceMetadata, path: string, resolve: (shortName: string) => ResourceMetadata | undefined,
  options: { readonly identifier?: boolean; readonly toMany?: boolean } = {},
): ResolvedPropertyPath | PropertyPathProblem {
  const segments = path.split('.');
  const last = segments.pop()!;
  const relations: PropertyMetadata[] = [];
  const targets: ResourceMetadata[] = [];
  let owner = resource;
  /** The embedded property crossed (`address` of `address.city`): the last segment is one of its fields. */
  let embedded: PropertyMetadata | undefined;
  let fields: ResourceMetadata | undefined;
  const readable = (name: string): PropertyMetadata | undefined =>
    (fields ?? owner).properties.find((p) => p.name === name && !p.writeOnly);
  for (const segment of segments) {
    const relation = readable(segment);
    if (relation === undefined) return { problem: 'unknown_property', segment, resource: fields ?? owner };
    if (relation.embeddable !== undefined && fields === undefined) {
      // an embeddable's fields, looked up as the properties of a resource named after its class
      embedded = relation;
      fields = embeddableFields(relation);
      continue;
    }
    if (fields !== undefined) return { problem: 'not_a_relation', segment, resource: fields };
    const crossable = relation.kind === 'relation' || (options.toMany === true && relation.kind === 'relations');
    if (!crossable || relation.relation === undefined) {
      return { problem: 'not_a_relation', segment, resource: owner };
    }
    if (relations.length === MAX_RELATIONS_CROSSED) return { problem: 'too_deep', segment, resource: owner };
    const target = resolve(relation.relation);
    if (target === undefined) return { problem: 'unknown_resource', segment, resource: owner };
    relations.push(relation);
    targets.push(target);
    owner = target;
  }
  const found = options.identifier === true && last === 'id' && fields === undefined ? IDENTIFIER_PROPERTY
    : readable(last);
  if (found === undefined) return { problem: 'unknown_property', segment: last, resource: fields ?? owner };
  // an embeddable's field is named by its path from the owner (`address.city`), as stores read it
  const property = embedded === undefined ? found : Object.freeze({ ...found, name: `${embedded.name}.${found.name}` });
  const wrap = (condition: FilterCondition): FilterCondition => relations.reduceRight<FilterCondition>(
    (inner, relation, k) => ({ type: 'related', property: relation.name, target: targets[k], condition: inner }),
    condition);
  return Object.freeze({
    path, owner, property, relations: Object.freeze(relations), targets: Object.freeze(targets), wrap,
  });
}

/** Whether `propertyPath` resolved. */
export function isResolvedPath(
  path: ResolvedPropertyPath | PropertyPathProblem,
): path is ResolvedPropertyPath {
  return !('problem' in path);
}
