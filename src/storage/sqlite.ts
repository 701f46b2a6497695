import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { loadPeer } from './optionalPeer';

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
    const db = new open(file);
    db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL: a commit is not fsynced (the WAL is, at checkpoints). The
    // database stays consistent after a crash; a power loss may lose the last commits.
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (e) {
    throw new Error(`Invalid option "${option}": cannot open SQLite database "${file}": ${(e as Error).message}`);
  }
}
