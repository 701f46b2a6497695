import type { Request } from 'express';
import { defineRequestSlot } from '../../http/requestSlots';
import type { QueryLogEntry, StateContext } from '../state/types';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * The SQL statements the stores ran for this request, oldest first, parameters as bound
     * (the profiler's Database panel redacts them when it collects). Set by {@link queryLogFor}.
     */
    databaseQueries?: QueryLogEntry[];
  }
}

defineRequestSlot('databaseQueries');

/** The most statements kept per request; later ones are counted, not kept. */
export const MAX_LOGGED_QUERIES = 1000;

/** The context of a request no one profiles: nothing to log, so the store neither times nor copies. */
const NOT_LOGGED: StateContext = Object.freeze({});

/**
 * The store context of a request: the statements its store calls run are kept in
 * `req.databaseQueries` (at most {@link MAX_LOGGED_QUERIES}), where the profiler's Database panel
 * (`DatabaseCollector`) reads them. Symfony's Doctrine `DebugStack` / `DoctrineDataCollector`,
 * which logs only when the profiler is on: in a kernel that does not profile the request (its
 * `req.stopwatch` is not `enabled`: debug off, or a profiler page), the context has no
 * `logQuery` and `req.databaseQueries` stays undefined. Outside a kernel (no `req.stopwatch`)
 * every statement is kept.
 * @param req - the request being served
 * @returns a context to pass to every provider and processor call of the request
 * @example `await provider.provideItem(book, id, queryLogFor(req))`
 */
export function queryLogFor(req: Request): StateContext {
  if (req.stopwatch?.enabled === false) return NOT_LOGGED;
  req.databaseQueries ??= [];
  return {
    logQuery(entry) {
      const log = (req.databaseQueries ??= []);
      if (log.length < MAX_LOGGED_QUERIES) log.push(entry);
    },
  };
}
