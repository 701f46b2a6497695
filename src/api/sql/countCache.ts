/** What {@link sqliteChangeStamp} needs of a better-sqlite3 database. */
export interface StampedDatabase {
  readonly inTransaction: boolean;
  prepare(text: string): { get(): unknown };
}

/**
 * The change stamp of a SQLite connection, one small statement read on the connection itself
 * (synchronously, before the page it stamps):
 * - `total_changes()`: rows this connection inserted, updated or deleted since it opened
 *   (sqlite.org/c3ref/total_changes.html), the store's writes and the application's own
 *   statements on the same connection alike;
 * - `PRAGMA data_version`: changes when another connection (this process or another) committed
 *   to the file (sqlite.org/pragma.html#pragma_data_version);
 * - `PRAGMA schema_version`: changes with the schema (a table dropped and made anew counts no
 *   changed row).
 * Each only grows, so a count read after the stamp and kept under it is never served once the
 * database has moved on. Read apart from the page (as columns of each page row it cost about 70 µs
 * for a page of 30, more than the count it saves; about 5 µs alone).
 * @param database - the store's better-sqlite3 connection (the one Kysely's driver uses)
 * @returns a reader of the stamp: a string, or undefined inside a transaction (a rollback takes
 *   rows back without moving `total_changes()`: nothing is kept or served then)
 */
export function sqliteChangeStamp(database: StampedDatabase): () => string | undefined {
  const statement = database.prepare(`select total_changes() as c,
    (select data_version from pragma_data_version) as d, (select schema_version from pragma_schema_version) as s`);
  return () => {
    if (database.inTransaction) return undefined;
    const row = statement.get() as { c: number | bigint; d: number | bigint; s: number | bigint } | undefined;
    return row === undefined ? undefined : `${row.c}:${row.d}:${row.s}`;
  };
}

/**
 * The unfiltered row count of each table on one SQLite connection, kept with the change stamp
 * ({@link sqliteChangeStamp}) it was counted under: a page read under the same stamp gets the
 * count without a `select count(*)` (a statement per collection request: about a tenth of the
 * demo's page of 30 books, see docs/benchmarks/api.md). Any committed write, by this connection
 * or another, and any schema change moves the stamp, so a count is never served after a write.
 * Inside a transaction nothing is kept or served: a rollback takes rows back without moving
 * `total_changes()`.
 */
export class SqliteCountCache {
  private readonly counts = new Map<string, { stamp: string; n: number }>();

  /** @param stamp - the connection's change stamp now ({@link sqliteChangeStamp}) */
  constructor(readonly stamp: () => string | undefined) {}

  /**
   * The count `statement` gave under `stamp` (read before the page), or undefined: none kept,
   * another stamp, or no stamp (in a transaction).
   */
  lookup(statement: string, stamp: string | undefined): number | undefined {
    if (stamp === undefined) return undefined;
    const kept = this.counts.get(statement);
    return kept?.stamp === stamp ? kept.n : undefined;
  }

  /** Keeps the count `n` of `statement`, read after `stamp` was; nothing without a stamp. */
  remember(statement: string, stamp: string | undefined, n: number): void {
    if (stamp !== undefined) this.counts.set(statement, { stamp, n });
  }
}
