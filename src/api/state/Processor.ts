import type { Request } from 'express';
import type { SecurityUser } from '../../security/SecurityUser';
import type { ResolvedOperation } from '../resource/defineResource';
import type { UriVariables } from './Provider';
import type { StateContext, StoredItem } from './types';

/**
 * The state processor of an operation (API Platform 3.4's `ProcessorInterface`): what a write
 * operation does with the data, chosen per operation (`Post({ processor })`) or per resource
 * (`defineResource({ processor })`). A store given as `processor` is wrapped by
 * `storeProcessor`, the default (it persists and removes); a processor that decorates it (calls
 * it, then mails or logs) or replaces it plugs in instead.
 * @module
 */

/** What a processor reads besides the data, the operation and the URI variables (API Platform's `$context`). */
export interface ProcessorContext extends StateContext {
  /** The request being served. */
  readonly request: Request;
  /** The firewall's user, null when anonymous. */
  readonly user: SecurityUser | null;
  /**
   * The item as the provider read it before the change (API Platform's `previous_data`): on
   * `Put`, `Patch`, `Delete` and custom operations on `{id}`; absent on a `Post` to a collection.
   * The store processor writes only if the stored version is still this one.
   */
  readonly previousData?: StoredItem;
}

/**
 * The data a processor receives: the properties to write, validated and in the store's value
 * shapes (relations as ids, dates as ISO strings), every writable property present; for
 * `Delete`, and for an operation declared with `deserialize: false`, the stored item's properties.
 */
export type ProcessorData = Readonly<Record<string, unknown>>;

/**
 * Writes the state of an operation (API Platform `ProcessorInterface::process`).
 * @example
 * const persist = storeProcessor(store);
 * const mailing: Processor = { async process(data, operation, uriVariables, context) {
 *   const book = await persist.process(data, operation, uriVariables, context);
 *   if (operation.kind === 'Post') await mailer.send(`New book: ${String(data.title)}`);
 *   return book;
 * } };
 */
export interface Processor {
  /**
   * @param data - see {@link ProcessorData}
   * @param operation - the operation being served
   * @param uriVariables - the route's placeholders (`{ id: 3 }`)
   * @param context - the request, the user and `previousData`
   * @returns the item to answer with (201 for `Post`, else 200, or the operation's `status`), or
   *   null/undefined for no body (204); may be a promise
   * @throws any HttpError to answer with it; from the store processor: PreconditionFailedError
   *   (412) when the item changed since `previousData` was read (the API retries the operation on
   *   the new version unless the client sent `If-Match`), ItemNotFoundError (404), ConflictError
   *   (409) on a delete of a referenced item, a 400 for a relation to no item, StorageUnavailableError (503)
   */
  process(data: ProcessorData, operation: ResolvedOperation, uriVariables: UriVariables, context: ProcessorContext):
    StoredItem | null | undefined | void | Promise<StoredItem | null | undefined | void>;
}

/** A processor written as one function: `(data, operation, uriVariables, context) => item`. */
export type ProcessorFunction = Processor['process'];
