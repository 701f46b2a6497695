import { BadRequestHttpError } from '../../http/errors';
import {
  ConflictError, ItemNotFoundError, PreconditionFailedError, ValidationError, type Violation,
} from '../http/ApiErrors';
import { etagOf } from '../http/etag';
import type { ResolvedOperation } from '../resource/defineResource';
import type { Processor, ProcessorContext, ProcessorData, ProcessorFunction } from './Processor';
import type { UriVariables } from './Provider';
import { storeContext } from './storeProvider';
import { embeddedWritesOf, writeEmbedded } from './embeddedWrite';
import { isAtomic, type ItemId, type StateProcessor, type StoredItem, type WriteOutcome } from './types';

/**
 * A 400: the data names a related item that does not exist (the store checked it in the write's
 * transaction). The API answers it as API Platform does, `Item not found for "<the IRI sent>".`
 */
export class RelationNotFoundError extends BadRequestHttpError {
  override name = 'RelationNotFoundError';
  /**
   * @param property - the relation property, e.g. `author`
   * @param id - for a to-many relation, the id naming no item (when the store says which)
   */
  constructor(readonly property: string, readonly id?: ItemId) {
    super(`Item not found for the relation "${property}".`);
  }
}

/**
 * The processor over a store (API Platform's Doctrine `PersistProcessor` and `RemoveProcessor`),
 * the default of a resource declared with a store as `processor`.
 */
export class StoreProcessor implements Processor {
  /** @param store - where the items are written (`MemoryState`, the SQL store) */
  constructor(readonly store: StateProcessor) {}

  /**
   * `Delete`: removes `previousData`'s item; any other operation: replaces `previousData`'s item
   * with `data` when the context has one, else creates an item from `data`. A replace or remove
   * happens only if the stored version is still `previousData.version` (optimistic locking).
   * Nested documents in `data` (`EmbeddedWrite`s, writable embedded relations) are written first,
   * in one unit with the item on a store that has `atomically` (MemoryState, the SQL store): all
   * of them or none; on a store without it, one after the other.
   * @returns the written item; null after a delete
   * @throws PreconditionFailedError (412, with `current`: the stored item) when the item changed
   *   since it was read; ItemNotFoundError (404) when it is gone; ConflictError (409) when other
   *   items refer to an item being deleted; RelationNotFoundError (400); StorageUnavailableError (503)
   */
  async process(
    data: ProcessorData, operation: ResolvedOperation, uriVariables: UriVariables, context: ProcessorContext,
  ): Promise<StoredItem | null> {
    const { metadata, shortName } = operation;
    const previous = context.previousData;
    const state = storeContext(context);
    if (operation.kind === 'Delete') {
      if (previous === undefined) throw new ItemNotFoundError(shortName, '');
      const outcome = await this.store.remove(metadata, previous.id, previous.version, state);
      switch (outcome.status) {
        case 'ok': return null;
        case 'not_found': throw new ItemNotFoundError(shortName, String(previous.id));
        case 'conflict': throw new PreconditionFailedError(etagOf(outcome.current), outcome.current);
        case 'referenced':
          throw new ConflictError(
            `Conflict: ${shortName} ${previous.id} cannot be deleted: ${outcome.by} refers to it.`,
          );
      }
    }
    // a client's id: the body's (a Post on a `uuid` or `string` resource), or the URL's (a Put that creates)
    const given = clientId(data.id) ?? (operation.kind === 'Put' ? clientId(uriVariables.id) : undefined);
    const write = async (store: StateProcessor): Promise<StoredItem> => {
      const resolved = await writeEmbedded(store, data, state);
      const outcome = previous === undefined
        ? await store.create(metadata, resolved, state, given)
        : await store.replace(metadata, previous.id, resolved, previous.version, state);
      return written(outcome, shortName, previous, operation.kind);
    };
    // nested documents (writable embedded relations) are written first, in the parent's unit:
    // a failure of any write (a 400, 412, 422 from the store) rolls every one of them back
    if (embeddedWritesOf(data).length === 0 || !isAtomic(this.store)) return write(this.store);
    return this.store.atomically((unit) => write(unit), state);
  }
}

/** An id a client chose, when `value` is one. */
function clientId(value: unknown): ItemId | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/**
 * The violation of an id an item already has (Symfony's `UniqueEntity` message, which an API
 * Platform resource with a client-chosen id declares): the API's 422, the back office's form.
 */
export const ID_ALREADY_USED: Violation = Object.freeze({
  propertyPath: 'id', message: 'This value is already used.', code: 'not_unique',
});

/**
 * The 422 of a Post naming an id an item has (Symfony's `UniqueEntity` message, which an API
 * Platform resource with a client-chosen id declares), or the 409 of a Put that found no item
 * and then lost the race to create it.
 */
function duplicate(kind: string): Error {
  if (kind === 'Put') return new ConflictError('Conflict: the item was created meanwhile; try again.');
  return new ValidationError([ID_ALREADY_USED]);
}

function written(
  outcome: WriteOutcome, shortName: string, previous: StoredItem | undefined, kind: string,
): StoredItem {
  switch (outcome.status) {
    case 'duplicate': throw duplicate(kind);
    case 'ok': return outcome.item;
    case 'invalid_relation': throw new RelationNotFoundError(outcome.property, outcome.id);
    case 'not_found': throw new ItemNotFoundError(shortName, String(previous?.id ?? ''));
    case 'conflict': throw new PreconditionFailedError(etagOf(outcome.current), outcome.current);
  }
}

/**
 * The processor over a store, to decorate: call it, then do what follows a write.
 * @param store - a `StateProcessor` (`MemoryState`, the SQL store)
 * @returns a {@link Processor} writing `operation.metadata`'s items to `store`
 * @example const persist = storeProcessor(store);
 *   const logging: Processor = { async process(data, op, vars, ctx) {
 *     const item = await persist.process(data, op, vars, ctx); log(op.name, item?.id); return item; } };
 */
export function storeProcessor(store: StateProcessor): StoreProcessor {
  return new StoreProcessor(store);
}

/** A processor written as a function, as a {@link Processor}. */
class FunctionProcessor implements Processor {
  constructor(readonly fn: ProcessorFunction) {}
  process(data: ProcessorData, operation: ResolvedOperation, uriVariables: UriVariables, context: ProcessorContext):
    ReturnType<ProcessorFunction> {
    return this.fn(data, operation, uriVariables, context);
  }
}

/** Whether `value` is a store (`create`, `replace`, `remove`) rather than a {@link Processor}. */
export function isStateProcessor(value: unknown): value is StateProcessor {
  return typeof value === 'object' && value !== null
    && ['create', 'replace', 'remove'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
}

/**
 * A `processor` option as a {@link Processor}: itself when it has `process`, a function wrapped,
 * a store wrapped by {@link storeProcessor}.
 */
export function asProcessor(value: Processor | ProcessorFunction | StateProcessor): Processor {
  if (typeof value === 'function') return new FunctionProcessor(value);
  if (typeof (value as Partial<Processor>).process === 'function') return value as Processor;
  return storeProcessor(value as StateProcessor);
}
