import { invalidOption } from '../../config/optionError';
import { closestName } from '../../errors/suggest';
import { kindDefinition } from '../property/propertyKinds';
import type { PropertyKind, PropertyMetadata, ResourceMetadata, SearchStrategy } from '../state/types';
import type { FilterDeclaration, FilterType, QueryParameter } from './filters';

/** One filter on one property, resolved against the resource's metadata. */
export interface ResolvedFilter {
  readonly type: FilterType;
  readonly property: string;
  /** The property's kind (what values the query string must hold). */
  readonly kind: PropertyKind;
  /** For search. */
  readonly strategy?: SearchStrategy;
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

function parametersOf(type: FilterType, p: PropertyMetadata, strategy?: SearchStrategy): QueryParameter[] {
  const base = { property: p.name, filter: type };
  switch (type) {
    case 'search': {
      const schema = valueSchema(p);
      const what = p.kind === 'relation' ? `an IRI or id of ${p.relation ?? 'the target'}` : `${strategy} match`;
      return [
        { ...base, name: p.name, schema, strategy, description: `${p.name}: ${what}.` },
        {
          ...base, name: `${p.name}[]`, schema: { type: 'array', items: schema }, strategy,
          description: `${p.name}: any of (${what}).`,
        },
      ];
    }
    case 'order':
      return [{
        ...base, name: `order[${p.name}]`, schema: { type: 'string', enum: ['asc', 'desc'] },
        description: `Sort by ${p.name}.`,
      }];
    case 'range':
      return RANGE_OPERATORS.map((op) => ({
        ...base,
        name: `${p.name}[${op}]`,
        schema: op === 'between' ? { type: 'string', pattern: '^.+\\.\\..+$' } : valueSchema(p),
        description: op === 'between'
          ? `${p.name} between two values, inclusive: low..high.`
          : `${p.name} ${op} the value.`,
      }));
    case 'boolean':
      return [{ ...base, name: p.name, schema: { type: 'boolean' }, description: `${p.name} is true or false.` }];
    case 'date':
      return DATE_OPERATORS.map((op) => ({
        ...base, name: `${p.name}[${op}]`, schema: valueSchema(p),
        description: `${p.name} ${op.replace('_', ' ')} the date.`,
      }));
    case 'exists':
      return [{
        ...base, name: `exists[${p.name}]`, schema: { type: 'boolean' }, description: `${p.name} is (not) null.`,
      }];
  }
}

/** A search filter's `properties`: an object of strategies by property name. */
function searchProperties(value: unknown, option: string): Record<string, SearchStrategy> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(option, 'expected an object of strategies by property, e.g. { title: "partial" }', value);
  }
  return value as Record<string, SearchStrategy>;
}

/**
 * Resolves filter declarations against the resource's properties.
 * @throws KernelConfigError naming the filter: an unknown property ("Did you mean"), a filter
 *   that does not fit the property's kind (a range on a string), an unknown search strategy, or
 *   a text strategy on a number or a relation
 */
export function resolveFilters(
  declared: readonly FilterDeclaration[], metadata: ResourceMetadata, option: string,
): readonly ResolvedFilter[] {
  const resolved: ResolvedFilter[] = [];
  const names = metadata.properties.map((p) => p.name);
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
      const p = metadata.properties.find((x) => x.name === name);
      if (p === undefined) {
        const best = closestName(name, names);
        const hint = best === undefined ? `expected one of ${names.join(', ')}` : `did you mean "${best}"?`;
        throw invalidOption(`${at}.properties`, `unknown property of ${metadata.shortName}`, name, { hint });
      }
      if (p.writeOnly) throw invalidOption(`${at}.properties`, 'a writeOnly property cannot be filtered on', name);
      const kind = kindDefinition(p.kind);
      if (!kind.filters.has(d.type)) {
        throw invalidOption(`${at}.properties`, `a ${d.type} filter does not apply to a ${p.kind} property`, name);
      }
      if (d.type === 'search') {
        if (strategy === undefined || !STRATEGIES.includes(strategy)) {
          throw invalidOption(`${at}.properties.${name}`, `expected one of ${STRATEGIES.join(', ')}`, strategy);
        }
        if (strategy !== 'exact' && !kind.textSearch) {
          throw invalidOption(`${at}.properties.${name}`, `only "exact" applies to a ${p.kind} property`, strategy);
        }
      }
      if (resolved.some((r) => r.type === d.type && r.property === name)) {
        throw invalidOption(`${at}.properties`, `the ${d.type} filter on this property is declared twice`, name);
      }
      resolved.push(Object.freeze({
        type: d.type,
        property: name,
        kind: p.kind,
        ...(strategy !== undefined ? { strategy } : {}),
        parameters: Object.freeze(parametersOf(d.type, p, strategy)),
      }));
    }
  });
  return Object.freeze(resolved);
}
