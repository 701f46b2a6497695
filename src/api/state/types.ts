/**
 * The contract between the API layer (resources, operations, formats: `src/api`) and the stores
 * behind it (state providers and processors: `src/api/sql` and any other). API Platform's
 * `ProviderInterface` and `ProcessorInterface`, cut down to what a stored resource needs.
 *
 * The API layer derives a {@link ResourceMetadata} from each resource's zod schema, turns query
 * strings into a {@link CollectionQuery} (validated: a store never sees an unknown property, a bad
 * value or an out-of-range page), turns bodies into plain data (relations as the target's id,
 * dates as ISO strings) and calls a {@link StateProvider} or {@link StateProcessor}. Stores hold
 * data only: no HTTP, no formats, no security.
 * @module
 */

import type { IdentifierType, ItemId } from './identifier';

export type { IdentifierType, ItemId } from './identifier';

/**
 * What a property is, for storage, filters and forms. Values in {@link StoredItem.data}:
 * `string`, `text`, `enum`: string; `integer`, `number`: number; `boolean`: boolean;
 * `date`: `YYYY-MM-DD`; `datetime`: ISO 8601 in UTC with milliseconds (`2026-11-25T10:00:00.000Z`);
 * `relation`: the target item's id ({@link ItemId}: a number, or a string for a `uuid` or `string`
 * target); `relations` (to-many): the target items' ids, distinct, in ascending order
 * (`compareIds`; `[]` for none, never null); `json`: an array or a plain
 * object of JSON values; `embedded` (an embeddable value object, `embeddable()`): a plain object
 * with every field of {@link PropertyMetadata.embeddable}, each in its own kind's shape or null.
 * Any of the others may be null when `nullable`. No string
 * the API layer hands a store (a value, a filter's value) holds U+0000: PostgreSQL's text cannot
 * store one, so the API refuses it (a 400 in a query, a 422 in a body) before any store sees it.
 */
export type PropertyKind =
  | 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'enum' | 'relation' | 'relations'
  | 'json' | 'embedded';

/**
 * An embeddable value object's fields (Doctrine's `#[Embeddable]` class; `embeddable()`): a
 * property of kind `embedded` holds one, stored inline (SQL: a column per field named
 * `<property>_<field>`, Doctrine's column prefix). Filters and orders name a field by a dotted
 * path (`address.city`).
 */
export interface EmbeddableMetadata {
  /** The value object's class name (`Address`): the JSON-LD `@type`, the OpenAPI component. */
  readonly name: string;
  /** Its fields, as properties (scalar kinds, or `json`; never a relation nor another embeddable). */
  readonly fields: readonly PropertyMetadata[];
  /** The fields whose schema accepts null (`.nullable()`); a null sent for another is read as absent. */
  readonly nullFields: readonly string[];
}

/** One property of a resource (the identifier `id` is not listed). */
export interface PropertyMetadata {
  /** The property name, also the column name (as written, e.g. `publishedAt`). */
  readonly name: string;
  readonly kind: PropertyKind;
  /** May be null (and absent on create). */
  readonly nullable: boolean;
  /** Sent to clients, never accepted from them (API Platform `readable: true, writable: false`). */
  readonly readOnly: boolean;
  /** Accepted from clients, never sent to them (e.g. a password). */
  readonly writeOnly: boolean;
  /** For kind `enum`: the allowed values. */
  readonly enumValues?: readonly string[];
  /** For kinds `relation` and `relations`: the target resource's short name (e.g. `Author`). */
  readonly relation?: string;
  /** For kind `embedded`: the value object's name and fields. */
  readonly embeddable?: EmbeddableMetadata;
  /** The schema's description (`.describe()` or `.meta({ description })`): Hydra `hydra:description`. */
  readonly description?: string;
  /**
   * The property's serialization groups (`groups()`, symfony's `#[Groups]`); absent: none. The API
   * layer's serializer reads them; stores ignore them.
   */
  readonly groups?: readonly string[];
  /** symfony's `#[MaxDepth]` (`maxDepth()`); the API layer's serializer reads it, stores ignore it. */
  readonly maxDepth?: number;
  /**
   * The property's IRIs (`properties: { name: { iris } }`, API Platform `ApiProperty::iris`): its
   * JSON-LD term and Hydra `@id` (`rdfVocabulary.ts`); stores ignore them.
   */
  readonly iris?: readonly string[];
  /** The RDF types of its values (API Platform `ApiProperty::types`): OpenAPI `externalDocs`; stores ignore them. */
  readonly types?: readonly string[];
}

/** What a store knows of a resource. */
export interface ResourceMetadata {
  /** API Platform's short name, e.g. `Book`: the JSON-LD `@type`. */
  readonly shortName: string;
  /** The table (or collection) name, e.g. `books`. */
  readonly table: string;
  /** Every property but the identifier `id`. */
  readonly properties: readonly PropertyMetadata[];
  /**
   * The type of `id` (`identifier.ts`): `integer` chosen by the store (auto-increment), `uuid`
   * chosen by the store (v7) unless given to `create`, `string` always given to `create`.
   * @default 'integer'
   */
  readonly identifier?: IdentifierType;
  /**
   * A composite identifier's properties (the resource's `identifiers` option): `identifier` is
   * then `string`, the id their values made (`name=Bar;year=2017`); the SQL stores' primary key
   * is these columns (`id` a unique column beside them).
   */
  readonly compositeKey?: readonly string[];
}

/** One stored item. */
export interface StoredItem {
  /**
   * The identifier: an integer chosen by the store on create (never `MAX(id)+1`), or a string
   * (a lower-case UUID, a client's string) as the resource's `identifier` says.
   */
  readonly id: ItemId;
  /**
   * The stored version: 1 on create, +1 on each replace. The API's strong `ETag` and
   * optimistic locking (`If-Match`, RFC 9110 §13.1.1) derive from it.
   */
  readonly version: number;
  /** Every property of the metadata, by name, in the value shapes of {@link PropertyKind}. */
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * Search strategies (API Platform `SearchFilter`): `exact` compares equal, the others match text
 * case-insensitively.
 */
export type SearchStrategy = 'exact' | 'partial' | 'start' | 'end' | 'word_start';

/**
 * One condition of a collection query; a query's conditions all hold (AND). Values are already
 * validated and converted to the property's kind by the API layer. `property` may also be `id`
 * (an integer): no query parameter of the API filters on it; the back office reads the related
 * items of a page in one query so (`search`, `exact`, the ids as values).
 */
export type FilterCondition =
  /**
   * Any of `values` (OR). For a relation, values are ids; for `exact` on numbers, numbers. On a
   * to-many relation (`relations`, `exact` only): the items linked to any of the ids.
   */
  | {
    readonly type: 'search';
    readonly property: string;
    readonly strategy: SearchStrategy;
    readonly values: readonly ItemId[];
  }
  /** `property <op> value` on numbers, dates or datetimes (`between` arrives as gte + lte). */
  | {
    readonly type: 'range';
    readonly property: string;
    readonly operator: 'gt' | 'gte' | 'lt' | 'lte';
    readonly value: number | string;
  }
  | { readonly type: 'boolean'; readonly property: string; readonly value: boolean }
  /**
   * Dates and datetimes: `before` is `<=`, `strictly_before` `<`, `after` `>=`, `strictly_after` `>`
   * (API Platform `DateFilter`).
   */
  | {
    readonly type: 'date';
    readonly property: string;
    readonly operator: 'before' | 'strictly_before' | 'after' | 'strictly_after';
    readonly value: string;
  }
  /**
   * `value: true`: the property is not null; false: it is null (API Platform `ExistsFilter`). On a
   * to-many relation: the item is linked to at least one target (true) or to none (false).
   */
  | { readonly type: 'exists'; readonly property: string; readonly value: boolean }
  /**
   * At least one of `conditions` holds (OR; none: nothing matches). No query parameter of the API
   * makes one: the back office's search across text fields (`?query=`) does.
   */
  | { readonly type: 'any'; readonly conditions: readonly FilterCondition[] }
  /**
   * A condition on a related item's property (`author.name`): the relation `property` points to
   * an item of `target` for which `condition` holds (a null relation never does). `condition` is
   * one of `target`'s conditions (its properties; it may cross a further relation). The SQL store
   * writes `property in (select id from <target's table> where …)`. Build one from a dotted path
   * with `propertyPath` (`src/api/state/propertyPath.ts`).
   */
  | {
    readonly type: 'related';
    readonly property: string;
    readonly target: ResourceMetadata;
    readonly condition: FilterCondition;
  };

/**
 * One sort key (API Platform `OrderFilter`). The store appends `id asc` as the last key, so pages
 * are stable.
 */
export interface OrderBy {
  /** A property of the resource, `id`, or, with `through`, a property (or `id`) of the last target. */
  readonly property: string;
  readonly direction: 'asc' | 'desc';
  /**
   * To-one relations crossed to reach `property` (`order[author.name]`: `[{ property: 'author',
   * target: Author }]`), in order from the resource. An item whose relation is null sorts as a
   * null value (API Platform's OrderFilter left-joins). Never a to-many relation.
   */
  readonly through?: readonly RelationStep[];
}

/** One to-one relation crossed by an {@link OrderBy}: the relation property and its target. */
export interface RelationStep {
  readonly property: string;
  readonly target: ResourceMetadata;
}

/** A validated collection request. */
export interface CollectionQuery {
  readonly conditions: readonly FilterCondition[];
  readonly order: readonly OrderBy[];
  /** From 1. */
  readonly page: number;
  /** From 1 to the resource's maximum (100 by default). */
  readonly itemsPerPage: number;
  /** Partial pagination: the store skips the count (no `totalItems`) and only says whether a next page exists. */
  readonly partial: boolean;
  /**
   * False when the collection is not paginated (the resource's or the operation's pagination is
   * off, or the client sent `pagination=false`): `page` is 1, `itemsPerPage` is `ALL_ITEMS` and
   * `partial` false, so a store reads every matching item as it reads a page. @default true
   */
  readonly paginated?: boolean;
}

/** One page of a collection. */
export interface CollectionPage {
  readonly items: readonly StoredItem[];
  /** Every item matching the conditions, all pages; absent in partial mode. */
  readonly totalItems?: number;
  /** Whether an item exists after this page (partial mode reads `itemsPerPage + 1` rows to know). */
  readonly hasNextPage: boolean;
}

/** One statement a store ran, for the profiler's Database panel. */
export interface QueryLogEntry {
  readonly sql: string;
  /** The bound parameters, in order (the profiler redacts secrets before storing). */
  readonly parameters: readonly unknown[];
  /** Wall time, in milliseconds. */
  readonly durationMs: number;
  /** Rows returned (a SELECT) or affected (a write). */
  readonly rows: number;
  /** The driver's error message when the statement failed. */
  readonly error?: string;
}

/** Per-call context: where the statements a call runs are reported (one request's profile). */
export interface StateContext {
  readonly logQuery?: (entry: QueryLogEntry) => void;
}

/** The result of a write. */
export type WriteOutcome =
  | { readonly status: 'ok'; readonly item: StoredItem }
  | { readonly status: 'not_found' }
  /** `create` was given an id that an item already has: nothing was changed. */
  | { readonly status: 'duplicate' }
  /** `expectedVersion` was given and the stored version differs: nothing was changed. */
  | { readonly status: 'conflict'; readonly current: StoredItem }
  /**
   * A relation (to-one, or one id of a to-many) names no existing item (checked in the write's own
   * transaction): nothing was changed.
   */
  | {
    readonly status: 'invalid_relation';
    readonly property: string;
    /** For a to-many relation: the first id (ascending) naming no item. */
    readonly id?: ItemId;
  };

/** The result of a delete. */
export type DeleteOutcome =
  | { readonly status: 'ok' }
  | { readonly status: 'not_found' }
  | { readonly status: 'conflict'; readonly current: StoredItem }
  /**
   * Other items still refer to this one (a to-one relation, or a to-many relation's link): nothing
   * was deleted. An item's own to-many links never keep it (they go with it).
   */
  | { readonly status: 'referenced'; readonly by: string };

/**
 * Reads items (API Platform `ProviderInterface`).
 * @throws StorageUnavailableError (503) when the store is down, locked or read-only
 */
export interface StateProvider {
  /** One page of the items matching `query`, in its order then by id. */
  provideCollection(
    resource: ResourceMetadata, query: CollectionQuery, context?: StateContext,
  ): Promise<CollectionPage>;
  /** The item, or null. */
  provideItem(resource: ResourceMetadata, id: ItemId, context?: StateContext): Promise<StoredItem | null>;
}

/**
 * Writes items (API Platform `ProcessorInterface`). Each call is one transaction: two processes
 * (or several on one PostgreSQL) never lose or overwrite an acknowledged write.
 * @throws StorageUnavailableError (503) when the store is down, locked or read-only
 */
export interface StateProcessor {
  /**
   * Stores a new item with version 1; `data` has every non-readOnly property (absent ones are
   * null). The id: `id` when given (a `uuid` or `string` resource; required for `string`, ignored
   * for `integer`), else one the store picks (`duplicate` when an item has the given one).
   */
  create(
    resource: ResourceMetadata, data: Readonly<Record<string, unknown>>, context?: StateContext, id?: ItemId,
  ): Promise<WriteOutcome>;
  /**
   * Replaces the item's properties with `data` (every non-readOnly property) and bumps its
   * version; with `expectedVersion`, only if the stored version is that one. A to-many relation
   * left out of `data` (undefined) keeps its links; given, it replaces them (`[]`: none).
   */
  replace(
    resource: ResourceMetadata,
    id: ItemId,
    data: Readonly<Record<string, unknown>>,
    expectedVersion?: number,
    context?: StateContext,
  ): Promise<WriteOutcome>;
  /** Deletes the item; with `expectedVersion`, only if the stored version is that one. */
  remove(
    resource: ResourceMetadata, id: ItemId, expectedVersion?: number, context?: StateContext,
  ): Promise<DeleteOutcome>;
}

/**
 * A store that can make several writes one unit (a database transaction): what a caller writes
 * through the processor it is given inside {@link AtomicStateProcessor.atomically} is kept
 * together, or not at all. The back office writes an item and its audit entry so. `MemoryState`
 * and the SQL store implement it; a caller checks with {@link isAtomic}.
 */
export interface AtomicStateProcessor extends StateProcessor {
  /**
   * Runs `work` with a provider and processor bound to one unit: when `work` resolves, its writes
   * are kept (committed); when it throws, none of them is (rolled back), and the error is
   * rethrown. Inside, reads see the unit's own writes. Calls on the store itself (not on the bound
   * one) are not part of the unit.
   * @param work - the writes (and reads) of the unit
   * @param context - where the unit's own statements (`BEGIN`, `COMMIT`) are reported
   * @returns what `work` resolved with
   * @throws whatever `work` threw (after the rollback); StorageUnavailableError (503) when the
   *   store cannot start or commit the unit
   */
  atomically<T>(work: (store: StateProvider & StateProcessor) => Promise<T>, context?: StateContext): Promise<T>;
}

/** Whether `processor` implements {@link AtomicStateProcessor}. */
export function isAtomic(processor: StateProcessor): processor is AtomicStateProcessor {
  return typeof (processor as Partial<AtomicStateProcessor>).atomically === 'function';
}
