import { isSqliteUnavailable } from '../../storage/sqlite';

/** Node socket errors of a database that cannot be reached. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATE classes and codes that mean the server cannot serve now rather than a bug
 * in the statement (PostgreSQL manual, appendix A "Error Codes"): class 08 connection exception,
 * 53 insufficient resources (disk full, out of memory, too many connections), 57P01-57P05 the
 * server shutting down or not accepting connections yet, 57014 a statement cancelled by
 * `statement_timeout`, 25006 a read-only transaction (a standby), 55P03 a lock not obtained in time.
 */
const PG_UNAVAILABLE = /^(08|53|57P0[1-5]|57014|25006|55P03)/;

/** Messages of `pg` itself (not the server) when the connection is gone or never came. */
const PG_CLIENT_MESSAGES = new RegExp('^(Connection terminated|timeout exceeded when trying to connect'
  + '|Client has encountered a connection error|Cannot use a pool after calling end)', 'i');

/**
 * Whether an error thrown by a database driver means the store is unavailable (a 503), not that
 * the statement is wrong: SQLite busy past `busy_timeout`, read-only, full, I/O errors (see
 * `isSqliteUnavailable`); PostgreSQL down, refusing, restarting, out of resources, or a
 * connection lost mid-call.
 * @param error - what the driver threw
 */
export function isStoreOutage(error: unknown): boolean {
  if (isSqliteUnavailable(error)) return true;
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && (SOCKET_CODES.has(e.code) || PG_UNAVAILABLE.test(e.code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isStoreOutage);
  return typeof e?.message === 'string' && PG_CLIENT_MESSAGES.test(e.message);
}
