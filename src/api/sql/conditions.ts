import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { kindDefinition } from '../property/propertyKinds';
import type {
  FilterCondition, OrderBy, PropertyKind, PropertyMetadata, ResourceMetadata, SearchStrategy,
} from '../state/types';
import { columnOfPath, columnsOf, toColumn } from './columns';
import { joinTableOf, SOURCE_COLUMN, TARGET_COLUMN } from './joinTables';
import type { SqlFlavour } from './LoggedDialect';

/**
 * How a dialect folds case for the text strategies: a function applied to the column (the
 * pattern is folded in JavaScript, `String.prototype.toLowerCase`, the Unicode default case
 * mapping). SQLite: `ek_lower`, a deterministic function the store registers on its connection
 * (JavaScript's own `toLowerCase`: SQLite's `lower()` folds only ASCII). PostgreSQL: `lower()`
 * under the ICU root collation (`und-x-icu`, the same mapping), or, on a server built without ICU,
 * under the database's default collation (its `LC_CTYPE`).
 */
export type CaseFolding = (column: RawBuilder<unknown>) => RawBuilder<unknown>;

/** The name of the case-folding function registered on SQLite connections (see {@link CaseFolding}). */
export const SQLITE_LOWER = 'ek_lower';

/** {@link CaseFolding} for SQLite. */
export const sqliteFolding: CaseFolding = (column) => sql`${sql.raw(SQLITE_LOWER)}(${column})`;

/** {@link CaseFolding} for PostgreSQL, under the collation `und-x-icu` or `default`. */
export function postgresFolding(collation: 'und-x-icu' | 'default'): CaseFolding {
  return (column) => sql`lower(${column} collate ${sql.id(collation)})`;
}

/** `%`, `_` and `\` escaped for a `LIKE … ESCAPE '\'` pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** The `LIKE` patterns of a text strategy (any matches), for a value already folded and escaped. */
function patterns(strategy: Exclude<SearchStrategy, 'exact'>, escaped: string): string[] {
  switch (strategy) {
    case 'partial': return [`%${escaped}%`];
    case 'start': return [`${escaped}%`];
    case 'end': return [`%${escaped}`];
    case 'word_start': return [`${escaped}%`, `% ${escaped}%`];
  }
}

/** The rules that turn a collection query into SQL for one resource on one database. */
export interface ConditionCompiler {
  readonly flavour: SqlFlavour;
  readonly folding: CaseFolding;
}

const or = (parts: RawBuilder<SqlBool>[]): RawBuilder<SqlBool> =>
  (parts.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`(${sql.join(parts, sql` or `)})`);

/**
 * A bound value for a comparison with a column: on PostgreSQL a number compared with an integer
 * column is cast to `double precision` (the server would type the parameter as the column's
 * `integer` and refuse `1.5`; `pages > 1.5` must simply hold for 2).
 */
function operand(kind: PropertyKind, value: unknown, rules: ConditionCompiler): RawBuilder<unknown> {
  if (rules.flavour === 'postgres' && typeof value === 'number' && kindDefinition(kind).sql.integerColumn) {
    return sql`cast(${value} as double precision)`;
  }
  return sql`${value}`;
}

/** The identifier as a property, for conditions on `id` (the back office reads related items by their ids). */
const ID_PROPERTY: PropertyMetadata = Object.freeze({
  name: 'id', kind: 'integer', nullable: false, readOnly: true, writeOnly: false,
});

const COMPARISON = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const DATE_COMPARISON = { before: '<=', strictly_before: '<', after: '>=', strictly_after: '>' } as const;

/**
 * One condition as a parameterised SQL predicate: values are bound parameters, the column is the
 * property's name quoted as an identifier (a property of the metadata only); a `related`
 * condition is `column in (select id from target where …)`.
 * @param resource - the resource whose table is queried
 * @param condition - a validated condition (see `FilterCondition`)
 * @param rules - the database and its case folding
 * @returns the predicate
 * @throws Error when the condition names a property the resource does not have, or a `related`
 *   one a property that is not a relation to its target (the API layer validates queries, so
 *   this is a bug, not a client's mistake)
 */
export function predicateOf(
  resource: ResourceMetadata, condition: FilterCondition, rules: ConditionCompiler,
): RawBuilder<SqlBool> {
  if (condition.type === 'any') return or(condition.conditions.map((c) => predicateOf(resource, c, rules)));
  // an embeddable's field by its path (`address.city`) is its column (`address_city`)
  const property = condition.property === 'id' ? ID_PROPERTY : columnOfPath(resource, condition.property);
  if (property === undefined) {
    throw new Error(`${resource.shortName} has no property "${condition.property}" to filter on`);
  }
  if (property.kind === 'relations') return linkPredicate(resource, property, condition, rules);
  if (property.kind === 'embedded' && condition.type === 'exists') {
    // an embeddable is null when every column of its fields is
    const set = or(columnsOf(property).map((c) => sql<SqlBool>`${sql.ref(c.name)} is not null`));
    return condition.value ? set : sql<SqlBool>`not ${set}`;
  }
  const column = sql.ref(property.name);
  switch (condition.type) {
    case 'related': {
      const { target } = condition;
      if (property.kind !== 'relation' || property.relation !== target.shortName) {
        throw new Error(`${resource.shortName}.${property.name} is not a relation to ${target.shortName}`);
      }
      // uncorrelated: both databases run the subquery once (SQLite builds an index of its ids,
      // PostgreSQL hashes them or joins); unqualified columns inside name the target's (SQL's
      // innermost scope first)
      return sql<SqlBool>`${column} in (select ${sql.ref('id')} from ${sql.table(target.table)}
        where ${predicateOf(target, condition.condition, rules)})`;
    }
    case 'search': {
      if (condition.strategy === 'exact') {
        return or(condition.values.map((v) =>
          sql<SqlBool>`${column} = ${operand(property.kind, toColumn(property, v, rules.flavour), rules)}`));
      }
      const folded = rules.folding(column);
      const strategy = condition.strategy;
      return or(condition.values.flatMap((v) => patterns(strategy, escapeLike(String(v).toLowerCase())))
        .map((pattern) => sql<SqlBool>`${folded} like ${pattern} escape '\\'`));
    }
    case 'range':
      return sql<SqlBool>`${column} ${sql.raw(COMPARISON[condition.operator])}
        ${operand(property.kind, condition.value, rules)}`;
    case 'date':
      return sql<SqlBool>`${column} ${sql.raw(DATE_COMPARISON[condition.operator])} ${condition.value}`;
    case 'boolean':
      return sql<SqlBool>`${column} = ${toColumn(property, condition.value, rules.flavour)}`;
    case 'exists':
      return condition.value ? sql<SqlBool>`${column} is not null` : sql<SqlBool>`${column} is null`;
  }
}

/**
 * A condition on a to-many relation, through its join table: `exact` is `id in (select source_id
 * … where target_id in (…))`, the items linked to any of the ids; `exists` whether the item has a
 * link at all; `related` (`tags.name`) whether one of the linked items satisfies the inner condition.
 * @throws Error for another condition (the API layer allows only these two)
 */
function linkPredicate(
  resource: ResourceMetadata, property: PropertyMetadata, condition: Exclude<FilterCondition, { type: 'any' }>,
  rules: ConditionCompiler,
): RawBuilder<SqlBool> {
  const join = sql.table(joinTableOf(resource, property));
  const id = sql.ref(`${resource.table}.id`);
  if (condition.type === 'search' && condition.strategy === 'exact') {
    if (condition.values.length === 0) return sql<SqlBool>`1 = 0`;
    return sql<SqlBool>`${id} in (select ${sql.ref(SOURCE_COLUMN)} from ${join}
      where ${sql.ref(TARGET_COLUMN)} in (${sql.join(condition.values)}))`;
  }
  if (condition.type === 'related') {
    // linked to at least one target item that satisfies the inner condition
    return sql<SqlBool>`${id} in (select ${sql.ref(SOURCE_COLUMN)} from ${join}
      where ${sql.ref(TARGET_COLUMN)} in (select ${sql.ref('id')} from ${sql.table(condition.target.table)}
      where ${predicateOf(condition.target, condition.condition, rules)}))`;
  }
  if (condition.type === 'exists') {
    const linked = sql<SqlBool>`exists (select 1 from ${join} where ${sql.ref(SOURCE_COLUMN)} = ${id})`;
    return condition.value ? linked : sql<SqlBool>`not ${linked}`;
  }
  throw new Error(`${resource.shortName}.${property.name} is a to-many relation: only exact and exists apply`);
}

/** Every condition joined with `and` (`1 = 1` for none). */
export function whereOf(
  resource: ResourceMetadata, conditions: readonly FilterCondition[], rules: ConditionCompiler,
): RawBuilder<SqlBool> {
  if (conditions.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`${sql.join(conditions.map((c) => predicateOf(resource, c, rules)), sql` and `)}`;
}

/**
 * The `ORDER BY` list: the given keys, then `id asc` (stable pages). Nulls sort first ascending
 * and last descending on both databases (SQLite's default; PostgreSQL's is the opposite). A key
 * through to-one relations (`order[author.name]`) is a correlated scalar subquery per relation,
 * `(select t1.name from authors t1 where t1.id = books.author)`, null when the relation is (API
 * Platform's OrderFilter left-joins); its aliases `t1`, `t2`… keep a relation to the same table
 * apart from the outer one.
 * @throws Error for a property the resource (or a crossed target) does not have, or a step that
 *   is not a to-one relation to its target (the API layer validates, so this is a bug)
 */
export function orderOf(resource: ResourceMetadata, order: readonly OrderBy[]): RawBuilder<unknown> {
  const keys = order.map((o) => {
    const nulls = o.direction === 'asc' ? sql`nulls first` : sql`nulls last`;
    return sql`${sortKey(resource, o)} ${sql.raw(o.direction)} ${nulls}`;
  });
  if (!order.some((o) => o.property === 'id' && o.through === undefined)) keys.push(sql`${sql.ref('id')} asc`);
  return sql.join(keys, sql`, `);
}

/** What one {@link OrderBy} sorts by: the column, or the nested subqueries through its relations. */
function sortKey(resource: ResourceMetadata, o: OrderBy): RawBuilder<unknown> {
  const has = (r: ResourceMetadata, name: string, kind?: PropertyKind): boolean => {
    const found = name === 'id' ? undefined : columnOfPath(r, name);
    return name === 'id' || (found !== undefined && (kind === undefined || found.kind === kind));
  };
  const steps = o.through ?? [];
  let owner = resource;
  for (const step of steps) {
    if (!has(owner, step.property, 'relation')) {
      throw new Error(`${owner.shortName}.${step.property} is no to-one relation to order through`);
    }
    owner = step.target;
  }
  if (!has(owner, o.property)) throw new Error(`${owner.shortName} has no property "${o.property}" to order by`);
  // an embeddable's field (`address.city`) sorts by its column (`address_city`)
  const column = o.property === 'id' ? 'id' : columnOfPath(owner, o.property)?.name ?? o.property;
  // the id of steps[k]'s target is in `outer`; the subquery reads the next column from it
  const build = (k: number, outer: RawBuilder<unknown>): RawBuilder<unknown> => {
    const alias = `t${k + 1}`;
    const inner = k + 1 === steps.length
      ? sql.ref(`${alias}.${column}`) : build(k + 1, sql.ref(`${alias}.${steps[k + 1].property}`));
    return sql`(select ${inner} from ${sql.table(steps[k].target.table)} as ${sql.id(alias)}
      where ${sql.ref(`${alias}.id`)} = ${outer})`;
  };
  if (steps.length === 0) return sql.ref(column);
  return build(0, sql.ref(`${resource.table}.${steps[0].property}`));
}
