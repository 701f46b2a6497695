import type { Request } from 'express';
import type { SecurityUser } from '../../security/SecurityUser';
import type { ResolvedOperation } from '../resource/defineResource';
import type { CollectionPage, CollectionQuery, StateContext, StoredItem } from './types';

/**
 * The state provider of an operation (API Platform 3.4's `ProviderInterface`): what an
 * operation reads, chosen per operation (`Get({ provider })`) or per resource
 * (`defineResource({ provider })`). A store (`MemoryState`, the SQL store) given as `provider`
 * is wrapped by `storeProvider`, the default; any object with `provide`, or a function, plugs in
 * instead (a read-only collection computed from a file, an item read from another service).
 * @module
 */

/**
 * The values of the route's placeholders (API Platform's `$uriVariables`): `{ id: 3 }` for
 * `/api/books/{id}`. `id` is of the resource's identifier type, a number for an integer one (an
 * id that cannot be one is a 404 before any provider runs); the other placeholders, and an `{id}`
 * that a `uriVariables` link takes (`/books/{id}/author`, an id of `fromClass`), are strings as matched.
 */
export type UriVariables = Readonly<Record<string, string | number>>;

/** What a provider reads besides the operation and the URI variables (API Platform's `$context`). */
export interface ProviderContext extends StateContext {
  /** The request being served. */
  readonly request: Request;
  /** The firewall's user, null when anonymous. */
  readonly user: SecurityUser | null;
  /**
   * `GetCollection` only: the validated query (API Platform's `filters`): conditions, order,
   * page and items per page. The store provider applies it; another provider may apply what it
   * can or ignore it (the API then pages an array itself).
   */
  readonly query?: CollectionQuery;
}

/**
 * What a provider returns:
 * - for `GetCollection`, a {@link CollectionPage} (already paged, as a store returns it), or an
 *   array of every item, which the API pages by `page` and `itemsPerPage` (no filter applied);
 * - for an item operation (`Get`, `Put`, `Patch`, `Delete`, a custom operation on `{id}`), the
 *   item or null (a 404).
 * Items are {@link StoredItem}s: `{ id, version, data }`, `data` in the store's value shapes
 * (relations as the target's id, dates as ISO strings); the ETag is `"<id>-<version>"`.
 */
export type ProvidedState = CollectionPage | readonly StoredItem[] | StoredItem | null;

/**
 * Reads the state of an operation (API Platform `ProviderInterface::provide`).
 * @example const topBooks: Provider = { provide: () => TOP_BOOKS.map((data, i) => ({ id: i + 1, version: 1, data })) };
 */
export interface Provider {
  /**
   * @param operation - the operation being served (its `kind`, `name`, `path`, `metadata`…)
   * @param uriVariables - the route's placeholders (`{ id: 3 }`)
   * @param context - the request, the user and, for `GetCollection`, the validated `query`
   * @returns see {@link ProvidedState}; may be a promise
   * @throws any HttpError to answer with it (e.g. a 403); StorageUnavailableError (503) from a store
   */
  provide(operation: ResolvedOperation, uriVariables: UriVariables, context: ProviderContext):
    ProvidedState | Promise<ProvidedState>;
}

/** A provider written as one function: `(operation, uriVariables, context) => state`. */
export type ProviderFunction = Provider['provide'];
