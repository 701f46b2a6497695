import type { ResolvedOperation } from '../resource/defineResource';
import { parseItemId, type IdentifierType, type ItemId } from './identifier';
import type { ProvidedState, Provider, ProviderContext, ProviderFunction, UriVariables } from './Provider';
import type { CollectionPage, CollectionQuery, FilterCondition, StateContext, StateProvider } from './types';

/** The query of a collection read without one (a provider calling the store itself): page 1, 30 items. */
const FIRST_PAGE: CollectionQuery = Object.freeze({
  conditions: [], order: [], page: 1, itemsPerPage: 30, partial: false,
});

/** Only the store's part of a context: a store never sees the request. */
export function storeContext(context: ProviderContext): StateContext {
  return context.logQuery === undefined ? {} : { logQuery: context.logQuery };
}

/**
 * The provider over a store (API Platform's Doctrine `CollectionProvider` and `ItemProvider`),
 * the default of a resource declared with a store as `provider`.
 */
export class StoreProvider implements Provider {
  /** @param store - where the items are (`MemoryState`, the SQL store) */
  constructor(readonly store: StateProvider) {}

  /**
   * `GetCollection`: the page of `context.query` (page 1 of 30 without one); any other operation:
   * the item whose id is `uriVariables.id`, or null.
   * @throws StorageUnavailableError (503) when the store is down
   */
  provide(operation: ResolvedOperation, uriVariables: UriVariables, context: ProviderContext): Promise<ProvidedState> {
    if (operation.links.length > 0) return this.provideLinked(operation, uriVariables, context);
    if (operation.kind === 'GetCollection') {
      return this.store.provideCollection(operation.metadata, context.query ?? FIRST_PAGE, storeContext(context));
    }
    const id = uriVariables.id;
    if (typeof id !== 'number' && typeof id !== 'string') return Promise.resolve(null);
    return this.store.provideItem(operation.metadata, id, storeContext(context));
  }

  /** A subresource: the items (or the item) its links select, filtered and paged as asked. */
  private async provideLinked(
    operation: ResolvedOperation, uriVariables: UriVariables, context: ProviderContext,
  ): Promise<ProvidedState> {
    const at = storeContext(context);
    const conditions = await linkConditions(this.store, operation, uriVariables, at);
    const collection = operation.kind === 'GetCollection';
    if (conditions === null) return collection ? NOTHING : null;
    if (collection) {
      const query = context.query ?? FIRST_PAGE;
      return this.store.provideCollection(operation.metadata,
        { ...query, conditions: [...conditions, ...query.conditions] }, at);
    }
    // an item: the one the links select, and the item's own `{id}` when no link takes it
    const own = uriVariables.id;
    if (own !== undefined && !operation.links.some((l) => l.parameter === 'id')) {
      conditions.push({ type: 'search', property: 'id', strategy: 'exact', values: [own] });
    }
    const page = await this.store.provideCollection(operation.metadata,
      { conditions, order: [], page: 1, itemsPerPage: 1, partial: true }, at);
    return page.items[0] ?? null;
  }
}

/** No item: a subresource whose variable names nothing. */
const NOTHING: CollectionPage = Object.freeze({ items: [], totalItems: 0, hasNextPage: false });

/**
 * A link's URI variable as an id of the linked resource's type (`parseItemId`), else null: it
 * names no item. A number is already one (a provider of your own may pass ids as numbers).
 */
function linkId(value: string | number | undefined, type: IdentifierType | undefined): ItemId | null {
  if (typeof value === 'number') return (type ?? 'integer') === 'integer' ? value : null;
  return value === undefined ? null : parseItemId(type, value);
}

/**
 * The conditions a subresource operation's links put on its items (API Platform's Doctrine
 * `LinksHandlerTrait`): `toProperty` (this resource's relation) equals, or for a to-many one
 * includes, the variable's id; `fromProperty` (the linked item's relation) lists the ids. A
 * variable naming no item selects nothing (an empty collection; for an item, a 404).
 * @returns the conditions, or null when nothing can match
 */
async function linkConditions(
  store: StateProvider, operation: ResolvedOperation, uriVariables: UriVariables, context: StateContext,
): Promise<FilterCondition[] | null> {
  const conditions: FilterCondition[] = [];
  for (const l of operation.links) {
    const id = linkId(uriVariables[l.parameter], l.from?.identifier);
    if (id === null) return null;
    if (l.toProperty !== undefined) {
      conditions.push({ type: 'search', property: l.toProperty, strategy: 'exact', values: [id] });
      continue;
    }
    if (l.from === undefined || l.fromProperty === undefined) {
      throw new Error(`The link of {${l.parameter}} is not resolved: declare the resources through apiRoutes`);
    }
    const parent = await store.provideItem(l.from, id, context);
    const value = parent?.data[l.fromProperty];
    const ids = Array.isArray(value) ? value as ItemId[]
      : typeof value === 'number' || typeof value === 'string' ? [value] : [];
    if (ids.length === 0) return null;
    conditions.push({ type: 'search', property: 'id', strategy: 'exact', values: ids });
  }
  return conditions;
}

/**
 * The provider over a store, to decorate or call from a provider of your own.
 * @param store - a `StateProvider` (`MemoryState`, the SQL store)
 * @returns a {@link Provider} reading `operation.metadata` from `store`
 * @example const books = storeProvider(store);
 *   const provider: Provider = { provide: (op, vars, ctx) => books.provide(op, vars, ctx) };
 */
export function storeProvider(store: StateProvider): StoreProvider {
  return new StoreProvider(store);
}

/** A provider written as a function, as a {@link Provider}. */
class FunctionProvider implements Provider {
  constructor(readonly fn: ProviderFunction) {}
  provide(operation: ResolvedOperation, uriVariables: UriVariables, context: ProviderContext):
    ProvidedState | Promise<ProvidedState> {
    return this.fn(operation, uriVariables, context);
  }
}

/** Whether `value` is a store (`provideCollection`, `provideItem`) rather than a {@link Provider}. */
export function isStateProvider(value: unknown): value is StateProvider {
  return typeof value === 'object' && value !== null
    && typeof (value as Partial<StateProvider>).provideCollection === 'function'
    && typeof (value as Partial<StateProvider>).provideItem === 'function';
}

/**
 * A `provider` option as a {@link Provider}: itself when it has `provide`, a function wrapped, a
 * store wrapped by {@link storeProvider}.
 */
export function asProvider(value: Provider | ProviderFunction | StateProvider): Provider {
  if (typeof value === 'function') return new FunctionProvider(value);
  if (typeof (value as Partial<Provider>).provide === 'function') return value as Provider;
  return storeProvider(value as StateProvider);
}

/** The name the profiler shows for a provider or processor: the store's class, the function's name, the class. */
export function stateName(value: object | undefined): string | undefined {
  if (value === undefined) return undefined;
  const inner = (value as { store?: object }).store ?? (value as { fn?: { name: string } }).fn;
  if (typeof inner === 'function') return inner.name === '' ? 'Function' : inner.name;
  const o = inner ?? value;
  return o.constructor?.name ?? 'Object';
}
