import { Kysely, Migrator, PostgresDialect, sql, SqliteDialect, type MigrationResultSet } from 'kysely';
import type * as pg from 'pg';
import { KernelConfigError } from '../../config/KernelConfigError';
import { loadPeer } from '../../storage/optionalPeer';
import { LRUCache } from 'lru-cache';
import { withoutPassword } from '../../storage/redis';
import { openSqlite } from '../../storage/sqlite';
import type { StateProcessor, StateProvider } from '../state/types';
import { postgresFolding, SQLITE_LOWER, sqliteFolding } from './conditions';
import { LoggedDialect, type SqlFlavour } from './LoggedDialect';
import { InCodeMigrationProvider, type Migrations } from './migrations';
import { isStoreOutage } from './outage';
import { SqlState, type SqlDatabase } from './SqlState';
import { sqliteChangeStamp } from './countCache';

/** Options of {@link createSqlState}: `url` (PostgreSQL) or `sqlitePath` (SQLite), not both. */
export interface CreateSqlStateOptions {
  /**
   * A PostgreSQL URL (`postgres://` or `postgresql://`, libpq's form, e.g.
   * `postgres://app:secret@127.0.0.1:5432/app`), usually `DATABASE_URL`. Needs `pg` (an optional peer).
   */
  url?: string;
  /** An SQLite file (created with its folder), or `:memory:`. Needs `better-sqlite3`. @default ':memory:' */
  sqlitePath?: string;
  /**
   * PostgreSQL: the deadline of one store call, of connecting and of one statement
   * (`statement_timeout`), in milliseconds; past it the call is a 503. @default 5000
   */
  timeoutMs?: number;
  /** PostgreSQL: the most connections the pool opens. @default 10 */
  maxConnections?: number;
  /**
   * PostgreSQL: how the text filters fold case. `icu`: `lower()` under the ICU root collation
   * `und-x-icu` (the Unicode default mapping, as SQLite's and JavaScript's `toLowerCase`; needs a
   * server built with ICU, as Debian's and the official images are); `database`: under the
   * database's default collation (its `LC_CTYPE`; with `C` only ASCII folds). @default 'icu'
   */
  caseFolding?: 'icu' | 'database';
  /** The option names to blame in start-up errors. @default { url: 'url', sqlitePath: 'sqlitePath' } */
  optionNames?: { url?: string; sqlitePath?: string };
}

/** What {@link createSqlState} returns. */
export interface SqlStore {
  /** Reads items (`StateProvider`). */
  readonly provider: StateProvider;
  /** Writes items (`StateProcessor`). */
  readonly processor: StateProcessor;
  /** Both at once (the same object), for `defineResource({ provider, processor })` helpers taking one store. */
  readonly state: StateProvider & StateProcessor;
  /** The Kysely database, for the application's own queries (they are logged as the store's). */
  readonly db: SqlDatabase;
  readonly flavour: SqlFlavour;
  /**
   * Runs the migrations not run yet (Kysely's `Migrator`, in name order, each in one
   * transaction). Safe when several processes start at once: PostgreSQL's advisory lock, SQLite's
   * write lock (`BEGIN IMMEDIATE`) make the others wait, then find the work done.
   * @returns the names of the migrations this call ran
   * @throws Error `Migration "<name>" failed: <reason>`, or naming the option (`url`) when the
   *   database cannot be reached
   */
  migrate(migrations: Migrations): Promise<string[]>;
  /** Closes the database (the pool, or the SQLite connection). */
  close(): Promise<void>;
}

const resolveTimeout = (value: number | undefined): number => {
  const timeout = value ?? 5000;
  if (!Number.isSafeInteger(timeout) || timeout < 0) {
    throw new KernelConfigError('timeoutMs', `expected an integer of milliseconds ≥ 0 (0: none), got ${timeout}.`);
  }
  return timeout;
};

/** The PostgreSQL dialect on a `pg.Pool` (loaded on first use). */
function postgresDialect(url: string, options: CreateSqlStateOptions, timeoutMs: number): PostgresDialect {
  const { Pool } = loadPeer<typeof pg>('pg');
  const pool = new Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeoutMs,
    ...(timeoutMs > 0 ? { statement_timeout: timeoutMs } : {}),
  });
  // A client whose server went away (a restart: 57P01; a crash; a reset socket) emits 'error'.
  // The pool listens only while the client is idle; lent out (a store call between two
  // statements, a transaction), nobody did, and an 'error' without a listener ended the process.
  // Every client gets a listener for its life: the call using it fails with the lost
  // connection's error (a 503, see isStoreOutage), and the pool drops the client when it comes
  // back unqueryable, so the next call opens a new connection.
  pool.on('connect', (client) => { client.on('error', () => undefined); });
  pool.on('error', () => undefined);
  return new PostgresDialect({ pool });
}

/** Prepared statements kept per connection (SQL texts vary only with the filters a query uses). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Runs `work` on one pooled PostgreSQL connection with no `statement_timeout`, then resets it.
 * Migrations take a lock (Kysely's `pg_advisory_lock`) that waits for another process's
 * migrations: on a busy machine that wait outlasts the requests' timeout (5 s by default), and
 * a start-up that should have found the work done failed with `canceling statement due to
 * statement timeout`. A connection that cannot be had is reported as the migrator reports its
 * own errors.
 */
async function withoutStatementTimeout(
  db: SqlDatabase, work: (on: SqlDatabase) => Promise<MigrationResultSet>,
): Promise<MigrationResultSet> {
  try {
    return await db.connection().execute(async (on) => {
      await sql`SET statement_timeout = 0`.execute(on);
      try {
        return await work(on);
      } finally {
        // back to the pool's own setting (given at connect time) for the requests that follow
        await sql`RESET statement_timeout`.execute(on);
      }
    });
  } catch (error) {
    return { error };
  }
}

/**
 * The SQLite dialect on its own connection (WAL, `busy_timeout`, foreign keys on, `ek_lower`),
 * logged (see `LoggedDialect`, which it tells whether a transaction is still open).
 * Kysely's driver prepares every statement it runs (better-sqlite3's `prepare`, ~15 µs); the
 * connection handed to it keeps each SQL text's statement instead (at most
 * {@link STATEMENT_CACHE_SIZE}, the least recently used dropped first): statements are
 * parameterised, so the texts are few, and the driver runs one at a time to completion
 * (`all`/`run`), so one statement is never busy twice.
 */
function sqliteDialect(
  file: string, option: string,
): { dialect: LoggedDialect; changeStamp: () => string | undefined } {
  const database = openSqlite(file, option);
  database.pragma('foreign_keys = ON');
  database.function(SQLITE_LOWER, { deterministic: true },
    (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value));
  type Statement = ReturnType<typeof database.prepare>;
  const statements = new LRUCache<string, Statement>({ max: STATEMENT_CACHE_SIZE });
  const prepare = (text: string): Statement => {
    const statement = database.prepare(text);
    statements.set(text, statement);
    return statement;
  };
  const dialect = new SqliteDialect({
    database: {
      prepare: (text: string) => statements.get(text) ?? prepare(text),
      close: () => { statements.clear(); database.close(); },
    },
  });
  const inTransaction = (): boolean => database.inTransaction;
  return {
    dialect: new LoggedDialect(dialect, 'sqlite', { inTransaction }), changeStamp: sqliteChangeStamp(database),
  };
}

/**
 * The built-in SQL store: a Kysely database on SQLite (better-sqlite3, a file, the default) or
 * PostgreSQL (`pg`, when `url` is a `postgres://` URL), with its `StateProvider` and
 * `StateProcessor` (see `SqlState`) and its migrator. Nothing connects before the first call (a
 * wrong PostgreSQL URL fails at `migrate`, which an application runs at start).
 * @param options - see {@link CreateSqlStateOptions}
 * @returns the store
 * @throws KernelConfigError naming the option, for both or a bad URL, or a bad `timeoutMs`
 * @throws MissingPeerDependencyError `pg is not installed: npm install pg (…)` (or better-sqlite3)
 * @example
 * ```ts
 * const store = createSqlState({ url: process.env.DATABASE_URL, sqlitePath: undefined });
 * await store.migrate({ '2026-05-01-tables': resourceTablesMigration([author, book]) });
 * ```
 */
export function createSqlState(options: CreateSqlStateOptions = {}): SqlStore {
  const urlOption = options.optionNames?.url ?? 'url';
  const pathOption = options.optionNames?.sqlitePath ?? 'sqlitePath';
  const timeoutMs = resolveTimeout(options.timeoutMs);
  if (options.url !== undefined && options.sqlitePath !== undefined) {
    throw new KernelConfigError(urlOption,
      `give either ${urlOption} (PostgreSQL) or ${pathOption} (SQLite), not both.`);
  }
  let dialect: LoggedDialect;
  let changeStamp: (() => string | undefined) | undefined;
  if (options.url !== undefined) {
    if (!/^postgres(ql)?:\/\//i.test(options.url)) {
      const shown = JSON.stringify(withoutPassword(options.url));
      throw new KernelConfigError(urlOption,
        `expected a postgres:// URL, e.g. postgres://app@127.0.0.1:5432/app, got ${shown}.`);
    }
    dialect = new LoggedDialect(postgresDialect(options.url, options, timeoutMs), 'postgres');
  } else {
    ({ dialect, changeStamp } = sqliteDialect(options.sqlitePath ?? ':memory:', pathOption));
  }
  const db: SqlDatabase = new Kysely({ dialect });
  const folding = dialect.flavour === 'sqlite'
    ? sqliteFolding
    : postgresFolding(options.caseFolding === 'database' ? 'default' : 'und-x-icu');
  const state = new SqlState(db, { flavour: dialect.flavour, folding, timeoutMs, changeStamp });
  const where = options.url !== undefined
    ? `PostgreSQL at "${withoutPassword(options.url)}"`
    : `SQLite database "${options.sqlitePath ?? ':memory:'}"`;
  return {
    provider: state,
    processor: state,
    state,
    db,
    flavour: dialect.flavour,
    async migrate(migrations: Migrations): Promise<string[]> {
      const provider = new InCodeMigrationProvider(migrations);
      const toLatest = (on: SqlDatabase): Promise<MigrationResultSet> =>
        new Migrator({ db: on, provider }).migrateToLatest();
      const { error, results = [] } = dialect.flavour === 'postgres'
        ? await withoutStatementTimeout(db, toLatest)
        : await toLatest(db);
      state.forgetSchema();
      if (error !== undefined) {
        const failed = results.find((r) => r.status === 'Error')?.migrationName;
        const reason = error instanceof Error ? error.message : JSON.stringify(error);
        if (failed === undefined && isStoreOutage(error)) {
          throw new KernelConfigError(options.url !== undefined ? urlOption : pathOption,
            `cannot migrate the ${where}: ${reason}`);
        }
        const name = JSON.stringify(failed ?? '(setup)');
        throw new Error(`Migration ${name} failed on the ${where}: ${reason}`, { cause: error });
      }
      return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
    },
    close: () => db.destroy(),
  };
}
