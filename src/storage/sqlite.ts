import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { loadPeer } from './optionalPeer';
import { storageUnavailable } from './StorageUnavailableError';

/** An open embedded SQLite database (better-sqlite3). */
export type SqliteDatabase = Database.Database;

/**
 * Creates a folder and its missing parents, one level at a time. Not `mkdirSync(…, { recursive:
 * true })`: under `/proc` that loops for ever on Node 20 (libuv retries ENOENT), so a bad
 * SQLITE_PATH hung the start instead of failing.
 * @throws Error ENOENT, EACCES, ENOTDIR… from the first level that cannot be made
 */
function makeFolder(folder: string): void {
  const missing: string[] = [];
  let at = folder;
  while (!fs.existsSync(at)) {
    missing.unshift(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing) fs.mkdirSync(dir);
}

/** How long a statement waits for another connection's lock before SQLITE_BUSY, in ms. */
const BUSY_TIMEOUT_MS = 5000;

/** Where {@link whenUnlocked} sleeps (`Atomics.wait` on a value that never changes). */
const SLEEP = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY without waiting, sleeping 1, 2, 4… up to
 * 50 ms between tries, for at most `timeoutMs`. SQLite skips the busy handler (`busy_timeout`)
 * when waiting could deadlock: a connection that holds a read lock and wants to write while
 * another holds the write lock (sqlite.org `sqlite3_busy_handler`, "the busy handler is not
 * invoked"). Switching a new file to WAL is such a write: two processes opening the same new file
 * at once (two workers of a service, or a test's two writers) had one fail with "database is
 * locked". Synchronous, as `openSqlite` is: it runs at start-up.
 * @param step - the statement to run
 * @param timeoutMs - the longest total wait, in ms
 * @returns what `step` returns
 * @throws the last SQLITE_BUSY error once `timeoutMs` have passed; any other error at once
 */
function whenUnlocked<T>(step: () => T, timeoutMs: number): T {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return step();
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() + pause > deadline) throw e;
      Atomics.wait(SLEEP, 0, 0, pause);
    }
  }
}

/**
 * Opens (and creates) an SQLite file in WAL mode with `synchronous = NORMAL` (SQLite's advice for
 * WAL: commits cost no fsync), creating its folder. Several modules share one
 * database per file: sessions, login throttling, profiles and the demo's books.
 * @param file - a path, or `:memory:`
 * @param option - the option name to blame in the error message @default 'sqlitePath'
 * @returns the database
 * @throws Error `Invalid option "<option>": cannot open SQLite database "<file>": <reason>` at
 *   start-up, when the file cannot be opened
 * @throws MissingPeerDependencyError when better-sqlite3 is not installed (an optional peer)
 */
export function openSqlite(file: string, option = 'sqlitePath'): SqliteDatabase {
  const open = loadPeer<typeof Database>('better-sqlite3');
  try {
    if (file !== ':memory:') makeFolder(path.dirname(path.resolve(file)));
    // busy_timeout: a statement waits this long for another connection's lock
    const db = new open(file, { timeout: BUSY_TIMEOUT_MS });
    try {
      whenUnlocked(() => db.pragma('journal_mode = WAL'), BUSY_TIMEOUT_MS);
      // WAL with synchronous=NORMAL: a commit is not fsynced (the WAL is, at checkpoints). The
      // database stays consistent after a crash; a power loss may lose the last commits.
      db.pragma('synchronous = NORMAL');
    } catch (e) {
      db.close(); // not left open behind the start-up error
      throw e;
    }
    return db;
  } catch (e) {
    throw new Error(`Invalid option "${option}": cannot open SQLite database "${file}": ${(e as Error).message}`);
  }
}

/**
 * SQLite result codes that mean the store cannot serve now, rather than a bug in the query: a
 * read-only or full database, a lock held past `busy_timeout`, an I/O error, a file that cannot
 * be opened.
 */
const UNAVAILABLE_CODES = /^SQLITE_(READONLY|FULL|BUSY|LOCKED|IOERR|CANTOPEN|NOMEM|PROTOCOL)/;

/**
 * Whether an error thrown by better-sqlite3 means the database is unavailable (see above), or
 * the connection is closed.
 * @param error - what a statement threw
 */
export function isSqliteUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && UNAVAILABLE_CODES.test(e.code)) return true;
  return error instanceof TypeError && e?.message === 'The database connection is not open';
}

/**
 * Runs statements against a store kept in SQLite; an outage (see {@link isSqliteUnavailable})
 * becomes a 503 `StorageUnavailableError` whose reason is SQLite's (`SQLITE_READONLY: attempt to
 * write a readonly database`), other errors are rethrown as they are.
 * @param store - the store's name for the message, e.g. `Book` (`Book storage is unavailable.`)
 * @param work - the synchronous statements
 * @returns what `work` returned
 * @throws StorageUnavailableError when the database is unavailable
 */
export function sqliteCall<T>(store: string, work: () => T): T {
  try {
    return work();
  } catch (e) {
    if (isSqliteUnavailable(e)) throw storageUnavailable(store, e);
    throw e;
  }
}
