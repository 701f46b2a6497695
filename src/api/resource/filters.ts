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
 * - date: `publishedAt[before|strictly_before|after|strictly_after]=2020-01-01` (items whose date is
 *   null: see {@link DateNullStrategy})
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
  | {
    readonly type: 'date';
    readonly properties: readonly string[];
    /** The null strategy of the properties that have one, by property (see {@link DateFilter}). */
    readonly nullManagement?: Readonly<Record<string, DateNullStrategy>>;
  }
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

/**
 * What a date filter does with items whose date is null (API Platform's `DateFilterInterface`
 * constants, `Doctrine/Orm/Filter/DateFilter::addWhere`). Each operator given is one condition
 * and all of them hold (AND):
 * - none (the default) and `exclude_null`: a null date never matches (SQL's `null <= x` is not true);
 * - `include_null_before`: a null date matches `before` and `strictly_before` (a null sorts first);
 * - `include_null_after`: a null date matches `after` and `strictly_after` (a null sorts last);
 * - `include_null_before_and_after`: a null date matches every operator.
 *
 * So with `include_null_after`, `dueDate[after]=2020-01-01` gives the items due from 2020 on and
 * those without a due date, `dueDate[before]=…` never the latter. On a dotted path
 * (`author.birthDate`) the null is the related item's: an item without a related item never
 * matches (API Platform joins the relation with an inner join).
 */
export type DateNullStrategy =
  | 'exclude_null' | 'include_null_before' | 'include_null_after' | 'include_null_before_and_after';

/** The strategies {@link DateFilter} accepts, for validation. */
export const DATE_NULL_STRATEGIES: readonly DateNullStrategy[] = Object.freeze([
  'exclude_null', 'include_null_before', 'include_null_after', 'include_null_before_and_after',
]);

/**
 * `property[before|strictly_before|after|strictly_after]` on dates and datetimes (API Platform
 * `DateFilter`): `before` is `<=`, `strictly_before` `<`, `after` `>=`, `strictly_after` `>`.
 * @param properties - the property names (null dates never match), or an object of
 *   {@link DateNullStrategy} by property name (`null`: the default), as API Platform's
 *   `properties: { dueDate: 'include_null_after' }`; a name or strategy `defineResource` does not
 *   know stops the start-up
 * @example DateFilter(['publishedAt'])
 * @example DateFilter({ publishedAt: null, dueDate: 'include_null_after' })
 */
export function DateFilter(
  properties: readonly string[] | Readonly<Record<string, DateNullStrategy | null>>,
): FilterDeclaration {
  if (Array.isArray(properties)) {
    return Object.freeze({ type: 'date', properties: Object.freeze([...properties as readonly string[]]) });
  }
  const entries = Object.entries(properties as Record<string, DateNullStrategy | null>);
  const nullManagement = Object.fromEntries(entries.filter(([, s]) => s !== null)) as Record<string, DateNullStrategy>;
  return Object.freeze({
    type: 'date', properties: Object.freeze(entries.map(([name]) => name)),
    nullManagement: Object.freeze(nullManagement),
  });
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
