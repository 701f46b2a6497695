import type { ResolvedOperation } from '../resource/defineResource';
import type { ProvidedState, Provider, ProviderContext, ProviderFunction, UriVariables } from './Provider';
import type { CollectionQuery, StateContext, StateProvider } from './types';

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
    if (operation.kind === 'GetCollection') {
      return this.store.provideCollection(operation.metadata, context.query ?? FIRST_PAGE, storeContext(context));
    }
    const id = uriVariables.id;
    if (typeof id !== 'number') return Promise.resolve(null);
    return this.store.provideItem(operation.metadata, id, storeContext(context));
  }
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
