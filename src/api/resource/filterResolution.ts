import { invalidOption } from '../../config/optionError';
import { closestName } from '../../errors/suggest';
import { kindDefinition } from '../property/propertyKinds';
import {
  IDENTIFIER_PROPERTY, isResolvedPath, MAX_RELATIONS_CROSSED, propertyPath, type PropertyPathProblem,
  type ResolvedPropertyPath,
} from '../state/propertyPath';
import type { PropertyKind, PropertyMetadata, ResourceMetadata, SearchStrategy } from '../state/types';
import {
  DATE_NULL_STRATEGIES, type DateNullStrategy, type FilterDeclaration, type FilterType, type QueryParameter,
} from './filters';

/** One filter on one property, resolved against the resource's metadata. */
export interface ResolvedFilter {
  readonly type: FilterType;
  /**
   * The property as declared and as the query parameter names it: a property (`title`), the
   * identifier (`id`) or a dotted path through relations (`author.name`, `tags.name`).
   */
  readonly property: string;
  /** The property's kind (what values the query string must hold): the last segment's. */
  readonly kind: PropertyKind;
  /** The property filtered on: the path's last segment (`name`; `IDENTIFIER_PROPERTY` for `id`). */
  readonly leaf: PropertyMetadata;
  /**
   * For a dotted path: the relations crossed, the resource owning `leaf` (a condition on `leaf`
   * is wrapped in `related` conditions, an order goes `through` them).
   */
  readonly path?: ResolvedPropertyPath;
  /** For search. */
  readonly strategy?: SearchStrategy;
  /** For date: what a null date matches (absent: nothing, as `exclude_null`). */
  readonly nullManagement?: DateNullStrategy;
  /** The query parameters it reads, for documentation. */
  readonly parameters: readonly QueryParameter[];
}

const STRATEGIES: readonly SearchStrategy[] = ['exact', 'partial', 'start', 'end', 'word_start'];
/** The filter types, for the message naming an unknown one. */
const FILTER_TYPES: readonly FilterType[] = ['search', 'order', 'range', 'boolean', 'date', 'exists'];
const DATE_OPERATORS = ['before', 'strictly_before', 'after', 'strictly_after'] as const;
const RANGE_OPERATORS = ['between', 'gt', 'gte', 'lt', 'lte'] as const;

/** The JSON Schema of one value of the property in a query string, as its kind says. */
function valueSchema(p: PropertyMetadata): Record<string, unknown> {
  return kindDefinition(p.kind).queryValueSchema(p);
}

/**
 * The query parameters of one filter, named after the declared property (`author.name`,
 * `order[author.name]`: API Platform's names for nested properties).
 * @param owner - the short name of the resource owning `p` (for `id`: its IRIs)
 */
function parametersOf(
  type: FilterType, name: string, p: PropertyMetadata, owner: string, strategy?: SearchStrategy,
  nullManagement?: DateNullStrategy,
): QueryParameter[] {
  const base = { property: name, filter: type };
  switch (type) {
    case 'search': {
      const identifier = p === IDENTIFIER_PROPERTY;
      const schema = identifier ? { type: 'string' } : valueSchema(p);
      const what = p.kind === 'relation' ? `an IRI or id of ${p.relation ?? 'the target'}`
        : identifier ? `an IRI or id of ${owner}` : `${strategy} match`;
      return [
        { ...base, name, schema, strategy, description: `${name}: ${what}.` },
        {
          ...base, name: `${name}[]`, schema: { type: 'array', items: schema }, strategy,
          description: `${name}: any of (${what}).`,
        },
      ];
    }
    case 'order':
      return [{
        ...base, name: `order[${name}]`, schema: { type: 'string', enum: ['asc', 'desc'] },
        description: `Sort by ${name}.`,
      }];
    case 'range':
      return RANGE_OPERATORS.map((op) => ({
        ...base,
        name: `${name}[${op}]`,
        schema: op === 'between' ? { type: 'string', pattern: '^.+\\.\\..+$' } : valueSchema(p),
        description: op === 'between'
          ? `${name} between two values, inclusive: low..high.`
          : `${name} ${op} the value.`,
      }));
    case 'boolean':
      return [{ ...base, name, schema: { type: 'boolean' }, description: `${name} is true or false.` }];
    case 'date':
      return DATE_OPERATORS.map((op) => ({
        ...base, name: `${name}[${op}]`, schema: valueSchema(p),
        description: `${name} ${op.replace('_', ' ')} the date${includesNull(nullManagement, op) ? ', or null' : ''}.`,
      }));
    case 'exists':
      return [{
        ...base, name: `exists[${name}]`, schema: { type: 'boolean' }, description: `${name} is (not) null.`,
      }];
  }
}

/**
 * Whether a date filter's condition with `operator` also holds for a null date (API Platform's
 * `DateFilter::addWhere`; see {@link DateNullStrategy}).
 */
export function includesNull(strategy: DateNullStrategy | undefined, operator: typeof DATE_OPERATORS[number]): boolean {
  if (strategy === 'include_null_before_and_after') return true;
  if (strategy === 'include_null_before') return operator === 'before' || operator === 'strictly_before';
  if (strategy === 'include_null_after') return operator === 'after' || operator === 'strictly_after';
  return false;
}

/** A date filter's null strategy for one property, checked. */
function nullStrategyOf(d: FilterDeclaration, name: string, option: string): DateNullStrategy | undefined {
  if (d.type !== 'date' || d.nullManagement === undefined) return undefined;
  const s = d.nullManagement[name];
  if (s === undefined) return undefined;
  if (!DATE_NULL_STRATEGIES.includes(s)) {
    const best = closestName(String(s), DATE_NULL_STRATEGIES);
    throw invalidOption(`${option}.properties.${name}`, `expected null or one of ${DATE_NULL_STRATEGIES.join(', ')}`, s,
      best === undefined ? {} : { hint: `did you mean "${best}"?` });
  }
  return s;
}

/** A search filter's `properties`: an object of strategies by property name. */
function searchProperties(value: unknown, option: string): Record<string, SearchStrategy> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(option, 'expected an object of strategies by property, e.g. { title: "partial" }', value);
  }
  return value as Record<string, SearchStrategy>;
}

/** Filters that apply to the identifier (`id`): API Platform's SearchFilter (exact), OrderFilter, RangeFilter. */
const IDENTIFIER_FILTERS: ReadonlySet<FilterType> = new Set(['search', 'order', 'range']);

/** The property names (or paths) of one declaration, as given. */
function declaredNames(d: FilterDeclaration): string[] {
  return d.type === 'search' ? Object.keys(d.properties) : [...d.properties];
}

/**
 * Whether any declared property is a dotted path, resolved only once every resource is known
 * (`completeFilters`).
 * @param declared - declarations `resolveFilters` already accepted
 */
export function hasPathFilters(declared: readonly FilterDeclaration[]): boolean {
  return declared.some((d) => declaredNames(d).some((name) => name.includes('.')));
}

/** The message of a path that does not resolve, with a "did you mean" among the segment's resource's names. */
function pathProblem(problem: PropertyPathProblem, path: string): { what: string; hint?: string } {
  const { segment, resource } = problem;
  const names = [...resource.properties.filter((p) => !p.writeOnly).map((p) => p.name), 'id'];
  switch (problem.problem) {
    case 'unknown_property': {
      if (resource.properties.some((p) => p.name === segment && p.writeOnly)) {
        return { what: 'a writeOnly property cannot be filtered on' };
      }
      const best = closestName(segment, names);
      const where = segment === path ? `unknown property of ${resource.shortName}`
        : `"${segment}" is no property of ${resource.shortName}`;
      return best === undefined ? { what: `${where}; expected one of ${names.join(', ')}` }
        : { what: where, hint: `did you mean "${best}"?` };
    }
    case 'not_a_relation':
      return {
        what: `"${segment}" of ${resource.shortName} is no relation: a dotted path crosses relations, `
          + 'and an embeddable to one of its fields, only',
      };
    case 'unknown_resource':
      return { what: `"${segment}" of ${resource.shortName} is a relation to a resource that is not in the API` };
    case 'too_deep':
      return { what: `a path crosses at most ${MAX_RELATIONS_CROSSED} relations` };
  }
}

/**
 * Resolves filter declarations against the resource's properties.
 * @param resolve - the API's resources by short name, to resolve dotted paths (`author.name`);
 *   without it (when `defineResource` runs, before the other resources are known) a dotted
 *   path's first segment is checked (a relation of this resource) and the filter left out, to be
 *   resolved by `completeFilters` once `apiRoutes` or `describeApi` has every resource
 * @throws KernelConfigError naming the filter: an unknown property or path segment ("Did you
 *   mean"), a segment that is no relation, a filter that does not fit the property's kind (a
 *   range on a string), an order through a to-many relation, an unknown search strategy, or a
 *   text strategy on a number, a relation or the identifier
 */
export function resolveFilters(
  declared: readonly FilterDeclaration[], metadata: ResourceMetadata, option: string,
  resolve?: (shortName: string) => ResourceMetadata | undefined,
): readonly ResolvedFilter[] {
  const resolved: ResolvedFilter[] = [];
  declared.forEach((d, i) => {
    const at = `${option}[${i}]`;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) {
      throw invalidOption(at, 'expected a filter such as SearchFilter({...})', d);
    }
    if (!FILTER_TYPES.includes(d.type)) {
      throw invalidOption(`${at}.type`, `expected one of ${FILTER_TYPES.join(', ')}`, d.type);
    }
    const entries: Array<[string, SearchStrategy | undefined]> = d.type === 'search'
      ? Object.entries(searchProperties(d.properties, `${at}.properties`))
      : (d.properties).map((name) => [name, undefined]);
    for (const [name, strategy] of entries) {
      const dotted = name.includes('.');
      // before every resource is known: the first segment only (a path from a relation)
      const found = propertyPath(metadata, name, resolve ?? (() => undefined), { identifier: true, toMany: true });
      if (!isResolvedPath(found)) {
        if (resolve === undefined && dotted && found.problem === 'unknown_resource'
          && found.resource === metadata) continue;
        const { what, hint } = pathProblem(found, name);
        throw invalidOption(`${at}.properties`, what, name, hint === undefined ? {} : { hint });
      }
      const p = found.property;
      const identifier = p === IDENTIFIER_PROPERTY;
      const kind = kindDefinition(p.kind);
      if (identifier ? !IDENTIFIER_FILTERS.has(d.type) : !kind.filters.has(d.type)) {
        const what = identifier ? 'the identifier' : `a ${p.kind} property`;
        throw invalidOption(`${at}.properties`, `a ${d.type} filter does not apply to ${what}`, name);
      }
      const toMany = found.relations.find((r) => r.kind === 'relations');
      if (d.type === 'order' && toMany !== undefined) {
        const what = `an order cannot cross the to-many relation "${toMany.name}" (an item has several values)`;
        throw invalidOption(`${at}.properties`, what, name);
      }
      if (d.type === 'search') {
        if (strategy === undefined || !STRATEGIES.includes(strategy)) {
          throw invalidOption(`${at}.properties.${name}`, `expected one of ${STRATEGIES.join(', ')}`, strategy);
        }
        if (strategy !== 'exact' && (identifier || !kind.textSearch)) {
          const what = identifier ? 'the identifier' : `a ${p.kind} property`;
          throw invalidOption(`${at}.properties.${name}`, `only "exact" applies to ${what}`, strategy);
        }
      }
      const nullManagement = nullStrategyOf(d, name, at);
      if (resolved.some((r) => r.type === d.type && r.property === name)) {
        throw invalidOption(`${at}.properties`, `the ${d.type} filter on this property is declared twice`, name);
      }
      resolved.push(Object.freeze({
        type: d.type,
        property: name,
        kind: p.kind,
        leaf: p,
        ...(dotted ? { path: found } : {}),
        ...(strategy !== undefined ? { strategy } : {}),
        ...(nullManagement !== undefined ? { nullManagement } : {}),
        parameters: Object.freeze(parametersOf(d.type, name, p, found.owner.shortName, strategy, nullManagement)),
      }));
    }
  });
  return Object.freeze(resolved);
}
