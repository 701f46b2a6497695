import session, { SessionData } from 'express-session';
import type { SqliteDatabase } from '../storage/sqlite';

/** Options of {@link SqliteSessionStore}. */
export interface SqliteSessionStoreOptions {
  /** An open database (see `openSqlite`); the store creates its table in it. */
  db: SqliteDatabase;
  /**
   * How long an idle session is kept, in seconds, when its cookie has no expiry; every request
   * that uses the session extends it. @default 86400
   */
  ttlSeconds?: number;
  /** How often expired rows are deleted, in seconds; 0 never (call {@link SqliteSessionStore.prune}). @default 900 */
  pruneIntervalSeconds?: number;
  /** The table. @default 'sessions' */
  table?: string;
}

type Callback<T = unknown> = (err?: unknown, value?: T) => void;

/** Creates the table (idempotent) and prepares the store's statements. */
function prepareStatements(db: SqliteDatabase, table: string) {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (sid TEXT PRIMARY KEY NOT NULL, `
    + `data TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS ${table}_expires_at ON ${table} (expires_at);`);
  return {
    get: db.prepare<[string, number], { data: string }>(`SELECT data FROM ${table} WHERE sid = ? AND expires_at > ?`),
    set: db.prepare<[string, string, number]>(`INSERT INTO ${table} (sid, data, expires_at) VALUES (?, ?, ?) `
      + 'ON CONFLICT(sid) DO UPDATE SET data = excluded.data, expires_at = excluded.expires_at'),
    touch: db.prepare<[number, string]>(`UPDATE ${table} SET expires_at = ? WHERE sid = ?`),
    destroy: db.prepare<[string]>(`DELETE FROM ${table} WHERE sid = ?`),
    prune: db.prepare<[number]>(`DELETE FROM ${table} WHERE expires_at <= ?`),
    length: db.prepare<[number], { n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE expires_at > ?`),
    clear: db.prepare<[]>(`DELETE FROM ${table}`),
  };
}

/**
 * An express-session store in embedded SQLite (better-sqlite3): one row per session with its
 * JSON data and its expiry time (ms since the epoch), so sessions survive a restart; expired
 * rows are never returned and are pruned on open and then periodically. Mirrors Symfony's
 * `PdoSessionHandler`.
 *
 * Written here rather than taken from npm: `better-sqlite3-session-store` (0.1.0, the only
 * better-sqlite3 store) is GPL-3.0-only, which this MIT package cannot depend on, was built
 * against better-sqlite3 7, and ships no types.
 *
 * Callbacks are always called asynchronously (`process.nextTick`), errors included: a closed or
 * broken database reports its error, and never throws.
 */
export class SqliteSessionStore extends session.Store {
  readonly db: SqliteDatabase;
  readonly ttlSeconds: number;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private readonly timer: NodeJS.Timeout | undefined;

  /** @throws Error when the table cannot be created (database read-only or corrupt) */
  constructor(options: SqliteSessionStoreOptions) {
    super();
    this.db = options.db;
    this.ttlSeconds = options.ttlSeconds ?? 86400;
    const table = options.table ?? 'sessions';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) {
      throw new Error(`Invalid table name "${table}": use letters, digits and underscores.`);
    }
    this.statements = prepareStatements(this.db, table);
    this.prune();
    const every = options.pruneIntervalSeconds ?? 900;
    if (every > 0) {
      this.timer = setInterval(() => {
        try { this.prune(); } catch { /* database closed or busy: next time */ }
      }, every * 1000);
      this.timer.unref();
    }
  }

  /** When a session expires, in ms since the epoch: its cookie's expiry, else now + ttl. */
  private expiresAt(sess: SessionData): number {
    const expires = sess.cookie?.expires;
    const at = expires === undefined || expires === null ? NaN : new Date(expires).getTime();
    return Number.isFinite(at) ? at : Date.now() + this.ttlSeconds * 1000;
  }

  /** Runs `work` and reports its result or error to `cb` on the next tick. */
  private run<T>(cb: Callback<T> | undefined, work: () => T): void {
    let value: T | undefined;
    let error: unknown;
    try {
      value = work();
    } catch (e) {
      error = e;
    }
    if (cb !== undefined) process.nextTick(() => (error === undefined ? cb(null, value) : cb(error)));
  }

  /** Reads a session; null when absent or expired. */
  override get(sid: string, cb: Callback<SessionData | null>): void {
    this.run(cb, () => {
      const row = this.statements.get.get(sid, Date.now());
      return row === undefined ? null : (JSON.parse(row.data) as SessionData);
    });
  }

  /** Writes (inserts or replaces) a session with its expiry. */
  override set(sid: string, sess: SessionData, cb?: Callback): void {
    this.run(cb, () => { this.statements.set.run(sid, JSON.stringify(sess), this.expiresAt(sess)); });
  }

  /** Extends a session's expiry without rewriting its data. */
  override touch(sid: string, sess: SessionData, cb?: Callback): void {
    this.run(cb, () => { this.statements.touch.run(this.expiresAt(sess), sid); });
  }

  /** Deletes a session. */
  override destroy(sid: string, cb?: Callback): void {
    this.run(cb, () => { this.statements.destroy.run(sid); });
  }

  /** Counts the live sessions. */
  override length(cb: Callback<number>): void {
    this.run(cb, () => this.statements.length.get(Date.now())?.n ?? 0);
  }

  /** Deletes every session. */
  override clear(cb?: Callback): void {
    this.run(cb, () => { this.statements.clear.run(); });
  }

  /**
   * Deletes expired sessions now.
   * @returns how many rows were deleted
   * @throws Error when the database is closed
   */
  prune(): number {
    return this.statements.prune.run(Date.now()).changes;
  }

  /** Stops pruning (the database stays open; its owner closes it). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
  }
}
