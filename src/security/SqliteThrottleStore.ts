import type { Statement } from 'better-sqlite3';
import { sqliteCall, type SqliteDatabase } from '../storage/sqlite';
import { NONE, ThrottleHit, ThrottleStore } from './ThrottleStore';
import { z } from 'zod';
import { functionOption, optionsObject } from '../config/optionSchemas';
import { parseOptions } from '../config/parseOptions';

const TABLE = 'expected an SQL identifier (letters, digits, _)';

/** The options of {@link SqliteThrottleStore}: {@link SqliteThrottleStoreOptions}. */
export const sqliteThrottleStoreOptionsSchema = optionsObject({
  /** The table, created when missing. Letters, digits and `_`. @default 'security_login_throttling' */
  table: z.string({ error: TABLE }).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: TABLE })
    .default('security_login_throttling'),
  /**
   * The clock, in milliseconds since the epoch; instances sharing a file should share a clock.
   * @default Date.now
   */
  now: functionOption<() => number>('a function () => milliseconds since the epoch').default(() => Date.now),
});

/** Options of {@link SqliteThrottleStore}. */
export type SqliteThrottleStoreOptions = z.input<typeof sqliteThrottleStoreOptionsSchema>;

/**
 * A {@link ThrottleStore} in an SQLite database (open it with `openSqlite`): processes that open
 * the same file share counters. Each hit is one atomic upsert (safe with several processes on one
 * file; give the connection a `busy_timeout`, as `openSqlite` does); expired rows are deleted every
 * 1000 hits. A read-only, full or locked database throws a `StorageUnavailableError` (503).
 */
export class SqliteThrottleStore implements ThrottleStore {
  private readonly upsert: Statement<
    [{ key: string; now: number; expiresAt: number }],
    { count: number; expires_at: number }
  >;
  private readonly read: Statement<[string, number], { count: number; expires_at: number }>;
  private readonly remove: Statement<[string]>;
  private readonly prune: Statement<[number]>;
  private readonly now: () => number;
  private hits = 0;

  /**
   * @param db - an open database (`openSqlite(file)`)
   * @throws KernelConfigError `Invalid option "table": …`
   */
  constructor(db: SqliteDatabase, options: SqliteThrottleStoreOptions = {}) {
    const { table, now } = parseOptions(sqliteThrottleStoreOptionsSchema, options, '');
    this.now = now;
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, count INTEGER NOT NULL, `
      + 'expires_at INTEGER NOT NULL) WITHOUT ROWID');
    this.upsert = db.prepare(`INSERT INTO ${table} (key, count, expires_at) VALUES (@key, 1, @expiresAt)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN expires_at <= @now THEN 1 ELSE count + 1 END,
        expires_at = CASE WHEN expires_at <= @now THEN @expiresAt ELSE expires_at END
      RETURNING count, expires_at`);
    this.read = db.prepare(`SELECT count, expires_at FROM ${table} WHERE key = ? AND expires_at > ?`);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE key = ?`);
    this.prune = db.prepare(`DELETE FROM ${table} WHERE expires_at <= ?`);
  }

  async hit(key: string, windowSeconds: number): Promise<ThrottleHit> {
    const now = this.now();
    const [row] = sqliteCall('Login throttling', () => {
      if (++this.hits % 1000 === 0) this.prune.run(now);
      // `all`, not `get`: `get` returns the first row and resets the statement, and the autocommit's
      // error (the WAL that cannot be written: SQLITE_IOERR_WRITE, SQLITE_FULL) is lost in the
      // reset, so a hit that was never stored looked counted; `all` steps to the end, commit included
      return this.upsert.all({ key, now, expiresAt: now + windowSeconds * 1000 });
    });
    if (row === undefined) throw new Error('SQLite upsert returned no row');
    return { count: row.count, retryAfterSeconds: Math.max(0, row.expires_at - now) / 1000 };
  }

  async peek(key: string): Promise<ThrottleHit> {
    const now = this.now();
    const row = this.read.get(key, now);
    return row === undefined ? NONE : { count: row.count, retryAfterSeconds: (row.expires_at - now) / 1000 };
  }

  async reset(key: string): Promise<void> {
    sqliteCall('Login throttling', () => this.remove.run(key));
  }
}
