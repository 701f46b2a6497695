import type { SearchStrategy } from '../state/types';

/**
 * Filter declarations (API Platform's `SearchFilter`, `OrderFilter`, `RangeFilter`,
 * `BooleanFilter`, `DateFilter`, `ExistsFilter`), given in a resource's `filters`. The resource
 * layer turns the query string into validated {@link FilterCondition}s; the store turns those
 * into parameterised SQL. Query parameters, as API Platform names them:
 * - search: `title=dune`, `title[]=a&title[]=b` (any of)
 * - order: `order[title]=asc|desc` (keys in the order given)
 * - range: `price[gt|gte|lt|lte]=10`, `price[between]=10..20`
 * - boolean: `featured=true|false|1|0`
 * - date: `publishedAt[before|strictly_before|after|strictly_after]=2020-01-01`
 * - exists: `exists[author]=true|false`
 * @module
 */

/** The filter types. */
export type FilterType = 'search' | 'order' | 'range' | 'boolean' | 'date' | 'exists';

/** One filter declaration: a type and the properties it applies to. */
export type FilterDeclaration =
  | { readonly type: 'search'; readonly properties: Readonly<Record<string, SearchStrategy>> }
  | { readonly type: 'order'; readonly properties: readonly string[] }
  | { readonly type: 'range'; readonly properties: readonly string[] }
  | { readonly type: 'boolean'; readonly properties: readonly string[] }
  | { readonly type: 'date'; readonly properties: readonly string[] }
  | { readonly type: 'exists'; readonly properties: readonly string[] };

/**
 * Search by value (API Platform `SearchFilter`).
 * @param properties - property name to strategy: `exact` (equal; ids for a relation, which
 *   accepts IRIs or ids), `partial`, `start`, `end`, `word_start` (case-insensitive text)
 * @example SearchFilter({ title: 'partial', isbn: 'exact', author: 'exact' })
 */
export function SearchFilter(properties: Record<string, SearchStrategy>): FilterDeclaration {
  return Object.freeze({ type: 'search', properties: Object.freeze({ ...properties }) });
}

/** Sorting by `order[property]=asc|desc` (API Platform `OrderFilter`). */
export function OrderFilter(properties: readonly string[]): FilterDeclaration {
  return Object.freeze({ type: 'order', properties: Object.freeze([...properties]) });
}

/** `property[gt|gte|lt|lte|between]` on numbers, dates and datetimes (API Platform `RangeFilter`). */
export function RangeFilter(properties: readonly string[]): FilterDeclaration {
  return Object.freeze({ type: 'range', properties: Object.freeze([...properties]) });
}

/** `property=true|false` on booleans (API Platform `BooleanFilter`). */
export function BooleanFilter(properties: readonly string[]): FilterDeclaration {
  return Object.freeze({ type: 'boolean', properties: Object.freeze([...properties]) });
}

/** `property[before|strictly_before|after|strictly_after]` on dates (API Platform `DateFilter`). */
export function DateFilter(properties: readonly string[]): FilterDeclaration {
  return Object.freeze({ type: 'date', properties: Object.freeze([...properties]) });
}

/** `exists[property]=true|false` on nullable properties (API Platform `ExistsFilter`). */
export function ExistsFilter(properties: readonly string[]): FilterDeclaration {
  return Object.freeze({ type: 'exists', properties: Object.freeze([...properties]) });
}

/** One query parameter a filter or the pagination accepts, for documentation (Hydra, OpenAPI). */
export interface QueryParameter {
  /** The name as sent, e.g. `title`, `title[]`, `order[price]`, `price[between]`, `page`. */
  readonly name: string;
  /** The property it filters on (none for `page`, `itemsPerPage`, `partial`). */
  readonly property?: string;
  /** The filter type, or `pagination`. */
  readonly filter: FilterType | 'pagination';
  /** JSON Schema of the value as it appears in the query string (a string, or a string array for `[]`). */
  readonly schema: Readonly<Record<string, unknown>>;
  /** For search: the strategy. */
  readonly strategy?: SearchStrategy;
  readonly description: string;
}
