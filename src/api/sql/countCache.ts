import { sql, type RawBuilder } from 'kysely';

/**
 * The names of the three columns a SQLite page statement adds to each row so the store can tell
 * whether the table's count changed since it was last counted (see {@link SqliteCountCache}).
 */
const CHANGES = 'ek_total_changes';
const DATA_VERSION = 'ek_data_version';
const SCHEMA_VERSION = 'ek_schema_version';

/**
 * The change stamp of a SQLite connection, as extra columns of a statement (`, total_changes() as
 * …, (select data_version from pragma_data_version) as …, (select schema_version from
 * pragma_schema_version) as …`), read in the statement's own read transaction:
 * - `total_changes()`: rows this connection inserted, updated or deleted since it opened
 *   (sqlite.org/c3ref/total_changes.html), the store's writes and the application's own
 *   statements on the same connection alike;
 * - `PRAGMA data_version`: changes when another connection (this process or another) committed
 *   to the file (sqlite.org/pragma.html#pragma_data_version);
 * - `PRAGMA schema_version`: changes with the schema (a table dropped and made anew counts no
 *   changed row).
 */
export function changeStampColumns(): RawBuilder<unknown> {
  return sql`, total_changes() as ${sql.id(CHANGES)}, (select data_version from pragma_data_version) as ${
    sql.id(DATA_VERSION)}, (select schema_version from pragma_schema_version) as ${sql.id(SCHEMA_VERSION)}`;
}

/** The stamp a row read with {@link changeStampColumns} carries, as one string; undefined without it. */
function stampOf(row: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const changes = row?.[CHANGES];
  const data = row?.[DATA_VERSION];
  const schema = row?.[SCHEMA_VERSION];
  // SQLite gives integers (numbers, or bigints with safe integers on)
  const integer = (v: unknown): v is number | bigint => typeof v === 'number' || typeof v === 'bigint';
  if (!integer(changes) || !integer(data) || !integer(schema)) return undefined;
  return `${changes}:${data}:${schema}`;
}

/**
 * The unfiltered row count of each table on one SQLite connection, kept with the change stamp
 * ({@link changeStampColumns}) it was counted under: a page read under the same stamp gets the
 * count without a `select count(*)` (a statement per collection request: about a tenth of the
 * demo's page of 30 books, see docs/benchmarks/api.md). Any committed write, by this connection
 * or another, and any schema change moves the stamp, so a count is never served after a write.
 * Inside a transaction nothing is kept or served: a rollback takes rows back without moving
 * `total_changes()`.
 */
export class SqliteCountCache {
  private readonly counts = new Map<string, { stamp: string; n: number }>();

  /**
   * @param inTransaction - whether the connection is inside a transaction now (better-sqlite3's
   *   `inTransaction`)
   */
  constructor(private readonly inTransaction: () => boolean) {}

  /**
   * The count of `table` kept under the stamp of `row` (the first row of a page read with
   * {@link changeStampColumns}), or undefined: none kept, another stamp, or in a transaction.
   */
  lookup(statement: string, row: Readonly<Record<string, unknown>> | undefined): number | undefined {
    const stamp = stampOf(row);
    if (stamp === undefined || this.inTransaction()) return undefined;
    const kept = this.counts.get(statement);
    return kept?.stamp === stamp ? kept.n : undefined;
  }

  /**
   * Keeps the count of `table` read by a statement with {@link changeStampColumns} (`row` is its
   * one row, the count in `n`); nothing inside a transaction.
   */
  remember(statement: string, row: Readonly<Record<string, unknown>> | undefined, n: number): void {
    const stamp = stampOf(row);
    if (stamp === undefined || this.inTransaction()) return;
    this.counts.set(statement, { stamp, n });
  }
}
