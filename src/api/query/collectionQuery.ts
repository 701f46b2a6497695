import { closestName } from '../../errors/suggest';
import { InvalidQueryError } from '../http/ApiErrors';
import type { Resource, ResolvedPagination } from '../resource/defineResource';
import { includesNull, type ResolvedFilter } from '../resource/filterResolution';
import { IDENTIFIER_PROPERTY } from '../state/propertyPath';
import type { CollectionQuery, FilterCondition, IdentifierType, OrderBy, PropertyKind } from '../state/types';
import type { RelationTarget } from '../property/PropertyKindDefinition';
import { parseQueryString, type QueryPair } from './queryString';
import { kindDefinition } from '../property/propertyKinds';

/**
 * Reads a collection request's query string into a validated {@link CollectionQuery} (API
 * Platform's pagination and filter extensions), and writes one back ({@link formatCollectionQuery},
 * for the view's `first`/`next` links). Every mistake is a 400 naming the parameter.
 * @module
 */

/** The largest page number read; a larger one is a 400 (its offset would overflow a database integer). */
export const MAX_PAGE = 1_000_000;

/**
 * The `itemsPerPage` of a query that is not paginated (`paginated: false`): 2³¹ − 1, the largest
 * `LIMIT` every store takes as an integer, so in effect every item (API Platform sets no limit).
 */
export const ALL_ITEMS = 2_147_483_647;

/** The values PHP's `FILTER_VALIDATE_BOOLEAN` reads as true (API Platform's `Pagination::isEnabled`). */
const PHP_TRUE = /^(1|true|on|yes)$/i;

const RANGE_OPS = ['gt', 'gte', 'lt', 'lte', 'between'] as const;
const DATE_OPS = ['before', 'strictly_before', 'after', 'strictly_after'] as const;

function shown(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
}

function bad(parameter: string, what: string, value: string): InvalidQueryError {
  return new InvalidQueryError(
    `Invalid value ${shown(value)} for the query parameter "${parameter}": expected ${what}.`,
  );
}

/**
 * A query-string value as the property's kind (see `PropertyKind` in the contract), read by the
 * kind's definition (`property/kinds/`).
 * @param relation - for relations: the target's collection path and identifier type
 * @throws InvalidQueryError
 */
export function convertValue(
  kind: PropertyKind, value: string, parameter: string, enumValues?: readonly string[], relation?: RelationTarget,
): string | number | boolean {
  const read = kindDefinition(kind).fromQuery(value, { enumValues }, relation);
  if ('expected' in read) throw bad(parameter, read.expected, value);
  return read.value;
}

/** What the parser needs to know besides the resource. */
export interface QueryContext {
  /** The collection path of each resource, by short name (to read relation IRIs). */
  readonly prefixes: Readonly<Record<string, string>>;
  /** The identifier type of each resource, by short name (to read relation ids); absent: `integer`. */
  readonly identifiers?: Readonly<Record<string, IdentifierType>>;
  /**
   * The operation's `strictQueryParameterValidation`: an unknown parameter, a value a filter
   * cannot read, a parameter given twice or an `itemsPerPage` above the maximum is a 400. Without
   * it (API Platform's default) they are ignored (the last of repeated values wins, as PHP reads
   * them) and `itemsPerPage` is clamped. @default false
   */
  readonly strict?: boolean;
  /** The operation's pagination (`ResolvedOperation.pagination`). @default the resource's */
  readonly pagination?: ResolvedPagination;
}

function single(pairs: QueryPair[], name: string, strict: boolean): string | undefined {
  const found = pairs.filter((p) => p.name === name);
  if (!strict) return found.at(-1)?.value;
  if (found.length > 1) {
    throw new InvalidQueryError(`The query parameter "${name}" is given ${found.length} times; give it once.`);
  }
  return found[0]?.value;
}

function pageNumber(value: string, parameter: string, max: number): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw bad(parameter, `an integer from 1 to ${max}`, value);
  const n = Number(value);
  if (n > max) {
    throw new InvalidQueryError(`The query parameter "${parameter}" is out of range: ${n} is more than ${max}.`);
  }
  return n;
}

/**
 * `itemsPerPage` (API Platform's `Pagination::getLimit`): 0 to the maximum; 0 gives the count
 * alone. Above the maximum: clamped, or a 400 when strict; a negative value is a 400; anything
 * else not a number is a 400 when strict, else undefined (the default applies).
 */
function pageSize(value: string, max: number, strict: boolean): number | undefined {
  if (/^-\d+$/.test(value)) throw bad('itemsPerPage', `an integer from 0 to ${max}`, value);
  if (!/^\d{1,15}$/.test(value)) {
    if (strict) throw bad('itemsPerPage', `an integer from 0 to ${max}`, value);
    return undefined;
  }
  const n = Number(value);
  if (n > max && strict) {
    throw new InvalidQueryError(`The query parameter "itemsPerPage" is out of range: ${n} is more than ${max}.`);
  }
  return Math.min(n, max);
}

function knownNames(resource: Resource, p: ResolvedPagination): string[] {
  const names = p.enabled || p.clientEnabled
    ? ['page', ...(p.clientItemsPerPage ? ['itemsPerPage'] : []), ...(p.clientPartial ? ['partial'] : [])]
    : [];
  if (p.clientEnabled) names.push('pagination');
  return [...names, ...resource.filters.flatMap((f) => f.parameters.map((x) => x.name))];
}

function unknown(name: string, resource: Resource, p: ResolvedPagination): InvalidQueryError {
  const known = knownNames(resource, p);
  const best = closestName(name, known);
  const hint = best !== undefined ? ` Did you mean "${best}"?` : known.length > 0 ? ` Known: ${known.join(', ')}.` : '';
  return new InvalidQueryError(`Unknown query parameter "${name.slice(0, 100)}" for ${resource.shortName}.${hint}`);
}

/**
 * A condition on a filter's last property as a condition on the resource's items: as is for a
 * plain property; through a dotted path, one `related` condition per relation crossed. An
 * `exists[author.name]=false` also holds for a book without an author (and `exists[tags.name]=false`
 * for one without tags): API Platform's ExistsFilter left-joins the relations.
 */
function nested(f: ResolvedFilter, condition: FilterCondition): FilterCondition {
  const path = f.path;
  if (path === undefined) return condition;
  if (condition.type !== 'exists' || condition.value) return path.wrap(condition);
  return path.relations.reduceRight<FilterCondition>((inner, relation, k) => ({
    type: 'any',
    conditions: [
      { type: 'exists', property: relation.name, value: false },
      { type: 'related', property: relation.name, target: path.targets[k], condition: inner },
    ],
  }), condition);
}

function filterOf(resource: Resource, type: ResolvedFilter['type'], property: string): ResolvedFilter | undefined {
  return resource.filters.find((f) => f.type === type && f.property === property);
}

/**
 * Reads the query string of a collection request.
 * @param raw - the raw query string, without `?`
 * @returns the validated query; without pagination parameters: page 1, the resource's default size
 * @throws InvalidQueryError (400) for an unknown parameter (with "Did you mean"), a bad value, a
 *   page or itemsPerPage out of range, a parameter given twice where one value is expected
 */
export function parseCollectionQuery(raw: string, resource: Resource, context: QueryContext): CollectionQuery {
  const pairs = parseQueryString(raw, context.strict === true);
  const pg = context.pagination ?? resource.pagination;
  const strict = context.strict === true;
  const paginated = isPaginated(pairs, pg, strict);
  const conditions: FilterCondition[] = [];
  const order: OrderBy[] = [];
  const searches = new Map<string, Array<string | number>>();
  const orderKeys: string[] = [];
  const convert = (f: ResolvedFilter, value: string, parameter: string): string | number | boolean => {
    const p = f.leaf;
    const targetOf = (shortName: string): RelationTarget | undefined => {
      const prefix = context.prefixes[shortName];
      return prefix === undefined ? undefined : { prefix, identifier: context.identifiers?.[shortName] ?? 'integer' };
    };
    if (p === IDENTIFIER_PROPERTY && f.type === 'search') {
      // an IRI of the item or its id (API Platform's SearchFilter reads an IRI on `id`)
      const owner = f.path?.owner.shortName ?? resource.shortName;
      return convertValue('relation', value, parameter, undefined, targetOf(owner));
    }
    const target = p.relation === undefined ? undefined : targetOf(p.relation);
    return convertValue(f.kind, value, parameter, p.enumValues, target);
  };
  const read = (pair: QueryPair): void => {
    const { name, base, key, value } = pair;
    if (key === undefined && base === 'pagination' && pg.clientEnabled) return;
    if ((pg.enabled || pg.clientEnabled) && key === undefined && (base === 'page'
      || (base === 'itemsPerPage' && pg.clientItemsPerPage) || (base === 'partial' && pg.clientPartial))) return;
    if (base === 'order' && key !== undefined && key !== '') {
      const f = filterOf(resource, 'order', key);
      if (f === undefined) throw unknown(name, resource, pg);
      // no value: the filter's default direction, ascending (API Platform's OrderFilter)
      const direction = value === '' ? 'asc' : value.toLowerCase();
      if (direction !== 'asc' && direction !== 'desc') throw bad(name, 'asc or desc', value);
      const known = orderKeys.indexOf(key);
      if (known >= 0 && strict) throw new InvalidQueryError(`The query parameter "${name}" is given twice.`);
      const by: OrderBy = f.path === undefined ? { property: key, direction } : {
        property: f.leaf.name, direction,
        through: f.path.relations.map((r, k) => ({ property: r.name, target: f.path!.targets[k] })),
      };
      if (known >= 0) order[known] = by;
      else {
        order.push(by);
        orderKeys.push(key);
      }
      return;
    }
    if (base === 'exists' && key !== undefined && key !== '') {
      const f = filterOf(resource, 'exists', key);
      if (f === undefined) throw unknown(name, resource, pg);
      const exists = convertValue('boolean', value, name) as boolean;
      conditions.push(nested(f, { type: 'exists', property: f.leaf.name, value: exists }));
      return;
    }
    if (key === undefined || key === '') {
      const boolean = filterOf(resource, 'boolean', base);
      if (boolean !== undefined && key === undefined) {
        conditions.push(nested(boolean, {
          type: 'boolean', property: boolean.leaf.name, value: convertValue('boolean', value, name) as boolean,
        }));
        return;
      }
      const search = filterOf(resource, 'search', base);
      if (search === undefined) throw unknown(name, resource, pg);
      const list = searches.get(base) ?? [];
      list.push(convert(search, value, name) as string | number);
      searches.set(base, list);
      return;
    }
    if ((RANGE_OPS as readonly string[]).includes(key)) {
      const f = filterOf(resource, 'range', base);
      if (f === undefined) throw unknown(name, resource, pg);
      if (key === 'between') {
        const parts = value.split('..');
        if (parts.length !== 2) throw bad(name, 'two values separated by ".." (low..high)', value);
        conditions.push(nested(f, {
          type: 'range', property: f.leaf.name, operator: 'gte', value: convert(f, parts[0], name) as number | string,
        }));
        conditions.push(nested(f, {
          type: 'range', property: f.leaf.name, operator: 'lte', value: convert(f, parts[1], name) as number | string,
        }));
      } else {
        conditions.push(nested(f, {
          type: 'range', property: f.leaf.name, operator: key as 'gt' | 'gte' | 'lt' | 'lte',
          value: convert(f, value, name) as number | string,
        }));
      }
      return;
    }
    if ((DATE_OPS as readonly string[]).includes(key)) {
      const f = filterOf(resource, 'date', base);
      if (f === undefined) throw unknown(name, resource, pg);
      const operator = key as typeof DATE_OPS[number];
      const date: FilterCondition = {
        type: 'date', property: f.leaf.name, operator, value: convert(f, value, name) as string,
      };
      // API Platform's DateFilter::addWhere: `date <op> value OR date IS NULL` where the strategy says so
      conditions.push(nested(f, includesNull(f.nullManagement, operator)
        ? { type: 'any', conditions: [date, { type: 'exists', property: f.leaf.name, value: false }] } : date));
      return;
    }
    throw unknown(name, resource, pg);
  };
  for (const pair of pairs) {
    try {
      read(pair);
    } catch (e) {
      // API Platform's filters ignore what they cannot read
      if (strict || !(e instanceof InvalidQueryError)) throw e;
    }
  }
  for (const [property, values] of searches) {
    const f = filterOf(resource, 'search', property) as ResolvedFilter;
    conditions.push(nested(f, { type: 'search', property: f.leaf.name, strategy: f.strategy ?? 'exact', values }));
  }
  if (!paginated) return { conditions, order, page: 1, itemsPerPage: ALL_ITEMS, partial: false, paginated: false };
  const pageValue = single(pairs, 'page', strict);
  const sizeValue = pg.clientItemsPerPage ? single(pairs, 'itemsPerPage', strict) : undefined;
  const partialValue = pg.clientPartial ? single(pairs, 'partial', strict) : undefined;
  const page = pageValue === undefined ? 1 : pageNumber(pageValue, 'page', MAX_PAGE);
  const itemsPerPage = sizeValue === undefined ? pg.itemsPerPage : pageSize(sizeValue, pg.maximumItemsPerPage, strict)
    ?? pg.itemsPerPage;
  if (itemsPerPage === 0 && page > 1) {
    throw new InvalidQueryError('The query parameter "page" must be 1 when "itemsPerPage" is 0.');
  }
  let partial = pg.partial;
  if (partialValue !== undefined) {
    try {
      partial = convertValue('boolean', partialValue, 'partial') as boolean;
    } catch (e) {
      if (strict) throw e;
    }
  }
  return { conditions, order, page, itemsPerPage, partial };
}

/**
 * Whether the collection is paginated (API Platform's `Pagination::isEnabled`): the operation's
 * `enabled`, or with `clientEnabled` the client's `pagination` parameter read as PHP's
 * `FILTER_VALIDATE_BOOLEAN` does (`1`, `true`, `on`, `yes`: on; anything else: off).
 * @throws InvalidQueryError when strict: a value other than true, false, 1 or 0, or the parameter twice
 */
function isPaginated(pairs: QueryPair[], pg: ResolvedPagination, strict: boolean): boolean {
  if (!pg.clientEnabled) return pg.enabled;
  const value = single(pairs.filter((p) => p.key === undefined), 'pagination', strict);
  if (value === undefined) return pg.enabled;
  if (strict) return convertValue('boolean', value, 'pagination') as boolean;
  return PHP_TRUE.test(value);
}

/** A condition `nested` built, back to the relations crossed and the condition on the last property. */
function unnested(c: FilterCondition, path: string[]): { path: string[]; c: FilterCondition } {
  if (c.type === 'related') return unnested(c.condition, [...path, c.property]);
  const [missing, related] = c.type === 'any' ? c.conditions : [];
  // a date condition that a null strategy widened: `date OR null`
  if (c.type === 'any' && c.conditions.length === 2 && missing.type === 'date' && related.type === 'exists') {
    return { path, c: missing };
  }
  if (c.type === 'any' && c.conditions.length === 2 && missing.type === 'exists' && related.type === 'related') {
    return unnested(related, path);
  }
  return { path, c };
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * Writes a query back as a query string that {@link parseCollectionQuery} reads into the same
 * query (filters first, in order, then pagination; defaults left out). Used for the view links.
 * @param page - the page to link to (default the query's)
 */
export function formatCollectionQuery(query: CollectionQuery, resource: Resource, page = query.page): string {
  const parts: string[] = [];
  const pg = resource.pagination;
  for (const condition of query.conditions) {
    const { path, c } = unnested(condition, []);
    const property = [...path, 'property' in c ? c.property : ''].join('.');
    switch (c.type) {
      case 'search':
        for (const v of c.values) {
          parts.push(`${encode(c.values.length > 1 ? `${property}[]` : property)}=${encode(String(v))}`);
        }
        break;
      case 'range': parts.push(`${encode(`${property}[${c.operator}]`)}=${encode(String(c.value))}`); break;
      case 'boolean': parts.push(`${encode(property)}=${String(c.value)}`); break;
      case 'date': parts.push(`${encode(`${property}[${c.operator}]`)}=${encode(c.value)}`); break;
      case 'exists': parts.push(`${encode(`exists[${property}]`)}=${String(c.value)}`); break;
    }
  }
  for (const o of query.order) {
    const property = [...(o.through ?? []).map((t) => t.property), o.property].join('.');
    parts.push(`${encode(`order[${property}]`)}=${o.direction}`);
  }
  if (query.paginated === false) {
    if (pg.enabled) parts.push('pagination=false');
  } else {
    if (!pg.enabled) parts.push('pagination=true');
    if (query.itemsPerPage !== pg.itemsPerPage) parts.push(`itemsPerPage=${query.itemsPerPage}`);
    if (query.partial !== pg.partial) parts.push(`partial=${String(query.partial)}`);
    parts.push(`page=${page}`);
  }
  return parts.join('&');
}
