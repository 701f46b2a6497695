import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import {
  CompiledQuery, SqliteAdapter,
  type DatabaseConnection, type DatabaseIntrospector, type Dialect, type DialectAdapter, type Driver, type Kysely,
  type QueryCompiler, type QueryResult, type TransactionSettings,
} from 'kysely';
import type { StateContext } from '../state/types';

/** The databases the SQL store speaks. */
export type SqlFlavour = 'sqlite' | 'postgres';

/**
 * The statement log of the call running now: each store call runs inside `statementContext.run(context, …)`,
 * so every statement it sends (its own, Kysely's `begin`/`commit`, the migrator's) reaches that call's
 * `StateContext.logQuery`, with no global state shared between concurrent requests.
 */
export const statementContext = new AsyncLocalStorage<StateContext>();

/**
 * SQLite as a transactional-DDL database: SQLite runs `CREATE TABLE` inside transactions, and
 * Kysely's migrator then runs the whole migration in one (`BEGIN IMMEDIATE`, see
 * {@link LoggedDialect}), which is what makes two processes starting at once on one file safe: the
 * second waits for the write lock, then finds the migrations done. Kysely's own SQLite adapter
 * says false and takes no lock, which is safe only for one process.
 */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Rows returned (a SELECT or RETURNING) or affected (a write). */
function rowCount(result: QueryResult<unknown>): number {
  if (result.rows.length > 0 || result.numAffectedRows === undefined) return result.rows.length;
  return Number(result.numAffectedRows);
}

/** A connection whose statements are timed and reported to the running call's `logQuery`. */
function loggedConnection(inner: DatabaseConnection): DatabaseConnection {
  const executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const log = statementContext.getStore()?.logQuery;
    if (log === undefined) return inner.executeQuery<R>(query);
    const started = performance.now();
    const entry = { sql: query.sql, parameters: [...query.parameters] };
    try {
      const result = await inner.executeQuery<R>(query);
      log({ ...entry, durationMs: performance.now() - started, rows: rowCount(result) });
      return result;
    } catch (e) {
      log({ ...entry, durationMs: performance.now() - started, rows: 0, error: String((e as Error)?.message ?? e) });
      throw e;
    }
  };
  // a proxy, not a wrapper object: the drivers call private methods of their own connections
  // (`pg`'s release and discard) on what they get back
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'executeQuery') return executeQuery;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Kysely's driver with two changes: every statement is logged to the running call's context, and
 * SQLite transactions start with `BEGIN IMMEDIATE` (the write lock at once, waiting up to
 * `busy_timeout`), so a transaction that reads then writes never fails half-way with
 * `SQLITE_BUSY` because another process wrote in between.
 */
class LoggedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly flavour: SqlFlavour,
    private readonly options: LoggedDialectOptions,
  ) {}

  init(): Promise<void> { return this.inner.init(); }

  async acquireConnection(): Promise<DatabaseConnection> {
    return loggedConnection(await this.inner.acquireConnection());
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (this.flavour === 'sqlite') {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      return;
    }
    await this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM:
    // sqlite.org/lang_transaction.html, "Response To Errors Within A Transaction"), a failed COMMIT
    // among them; a ROLLBACK then fails with "cannot rollback - no transaction is active", and
    // Kysely throws that instead of the error that ended the transaction (a 500, the reason lost)
    if (this.options.inTransaction?.() === false) return;
    await this.inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(connection);
  }

  async destroy(): Promise<void> {
    if (this.options.closeInner ?? true) await this.inner.destroy();
  }
}

/** Options of {@link LoggedDialect}. */
export interface LoggedDialectOptions {
  /**
   * Whether `db.destroy()` closes the database (false for a connection the application opened
   * and still uses). @default true
   */
  readonly closeInner?: boolean;
  /**
   * SQLite: whether the connection is inside a transaction now (better-sqlite3's
   * `inTransaction`); when SQLite already rolled it back, Kysely's rollback is skipped, so the
   * error that ended it is the one thrown. @default unknown: the rollback is always sent
   */
  readonly inTransaction?: () => boolean;
}

/**
 * A Kysely dialect (SQLite or PostgreSQL) whose statements reach the running store call's
 * `StateContext.logQuery` (see {@link statementContext}) and whose SQLite transactions take the
 * write lock at once (`BEGIN IMMEDIATE`).
 */
export class LoggedDialect implements Dialect {
  /**
   * @param inner - Kysely's `SqliteDialect` or `PostgresDialect`
   * @param flavour - which one it is
   * @param options - see {@link LoggedDialectOptions}
   */
  constructor(
    private readonly inner: Dialect, readonly flavour: SqlFlavour, private readonly options: LoggedDialectOptions = {},
  ) {}

  createDriver(): Driver {
    return new LoggedDriver(this.inner.createDriver(), this.flavour, this.options);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.flavour === 'sqlite' ? new TransactionalSqliteAdapter() : this.inner.createAdapter();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}
