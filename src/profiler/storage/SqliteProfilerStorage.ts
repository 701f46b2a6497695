import { createHash } from 'node:crypto';
import type { Statement, Transaction } from 'better-sqlite3';
import { isSqliteUnavailable, openSqlite, sqliteCall, SqliteDatabase } from '../../storage/sqlite';
import { storageUnavailable } from '../../storage/StorageUnavailableError';
import type { Profile, ProfileCriteria, ProfileSummary } from '../Profile';
import type { ClosableProfilerStorage } from './ProfilerStorage';
import { resultLimit } from './ProfilerStorage';
import {
  ageCutoff, encodeProfile, OPTION_PREFIX, ProfilerStorageOptions, ResolvedRetention, resolveRetention,
} from './retention';
import { invalidOption } from '../../config/optionError';
import { due } from '../../support/due';

/** The file the embedded store uses when given none, relative to the working directory. */
export const DEFAULT_SQLITE_PATH = 'var/profiler.sqlite';

/** Options of {@link SqliteProfilerStorage}: where the database is, and the retention caps. */
export interface SqliteProfilerStorageOptions extends ProfilerStorageOptions {
  /**
   * The database file, created with its folder when missing. Ignored when `database` is given.
   * @default 'var/profiler.sqlite'
   */
  sqlitePath?: string;
  /** An open database (see `openSqlite`) shared with other modules; the store does not close it. */
  database?: SqliteDatabase;
  /**
   * Make each response wait for its profile's commit (at the end of the event loop's turn that
   * wrote it), so that every process on the file (several instances) reads it as soon as the
   * response is complete. `false` lets the response end at once: this process reads the queued
   * profile at once, the others once that turn's batch is committed.
   * Measured at 50 concurrent connections (`npm run bench -- notfound`), waiting is the cheaper:
   * the responses of a batch leave together, and the server's socket work is batched with them.
   * @default true
   */
  awaitCommit?: boolean;
}

const TABLE = 'profiler_profiles';
/** One row: the profile count and total size, kept by triggers so the caps cost no table scan. */
const TOTALS = 'profiler_totals';

/**
 * One copy of each collector's constant data (`constantData`: the configuration panel's), by the
 * SHA-256 of its JSON; a profile's JSON holds `{"$sharedJson": "<id>"}` in its place.
 */
const SHARED = 'profiler_shared';
const SHARED_KEY = '$sharedJson';
const SHARED_ID = /^[0-9a-f]{64}$/;
/** How many constant JSON texts a store remembers the ids of: one per kernel, so a few. */
const MAX_SHARED_IDS = 64;

/** The id of a reference to a shared row, or undefined when the value is none. */
function sharedIdOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>)[SHARED_KEY];
  return typeof id === 'string' && SHARED_ID.test(id) && Object.keys(value).length === 1 ? id : undefined;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ${SHARED} (id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ${TABLE} (
  token TEXT PRIMARY KEY,
  parent TEXT,
  ip TEXT NOT NULL,
  method TEXT NOT NULL,
  url TEXT NOT NULL,
  time INTEGER NOT NULL,
  status_code INTEGER NOT NULL,
  route TEXT,
  size_bytes INTEGER NOT NULL,
  profile TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ${TABLE}_time ON ${TABLE} (time DESC, token DESC);
-- find's other filters (status code, method…) are checked along the time index, newest first:
-- a status index cost every write more than it saved the search page
DROP INDEX IF EXISTS ${TABLE}_status_time;
CREATE TABLE IF NOT EXISTS ${TOTALS} (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL, `
  + `bytes INTEGER NOT NULL);
CREATE TRIGGER IF NOT EXISTS ${TABLE}_count_insert AFTER INSERT ON ${TABLE}
  BEGIN UPDATE ${TOTALS} SET n = n + 1, bytes = bytes + NEW.size_bytes WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS ${TABLE}_count_delete AFTER DELETE ON ${TABLE}
  BEGIN UPDATE ${TOTALS} SET n = n - 1, bytes = bytes - OLD.size_bytes WHERE id = 1; END;
CREATE TRIGGER IF NOT EXISTS ${TABLE}_count_update AFTER UPDATE OF size_bytes ON ${TABLE}
  BEGIN UPDATE ${TOTALS} SET bytes = bytes - OLD.size_bytes + NEW.size_bytes WHERE id = 1; END;
`;

/** Recounts the totals (at open: files written before the totals table existed). */
const RECOUNT = `INSERT OR REPLACE INTO ${TOTALS} (id, n, bytes) `
  + `SELECT 1, COUNT(*), COALESCE(SUM(size_bytes), 0) FROM ${TABLE}`;

const NEWEST_FIRST = 'ORDER BY time DESC, token DESC';

interface SummaryRow {
  token: string;
  parent: string | null;
  ip: string;
  method: string;
  url: string;
  time: number;
  status_code: number;
  route: string | null;
}

function summaryOfRow(row: SummaryRow): ProfileSummary {
  const summary: ProfileSummary = {
    token: row.token, ip: row.ip, method: row.method, url: row.url, time: row.time, statusCode: row.status_code,
  };
  if (row.parent !== null) summary.parent = row.parent;
  if (row.route !== null) summary.route = row.route;
  return summary;
}

/**
 * Profiles in an SQLite database (better-sqlite3): the embedded default. Profiles survive a
 * restart, and processes that open the same file share them. One row per profile: the index
 * columns `find` filters on, in SQL, and the profile's JSON.
 *
 * Index columns are stored as UTF-8, so an unpaired UTF-16 surrogate in an ip, method, url or
 * route reads back from `find` as U+FFFD; `read` returns the profile exactly, from its JSON.
 *
 * A collector's constant data (`constantData`: the configuration panel's, the same in every
 * profile of a kernel) is stored once, in a table of its own, and each profile's JSON refers to
 * it: a debug 404's row is 1.2 KB (a fifth) smaller. `size_bytes` and the `maxBytes` cap count
 * the rows' JSON; the shared copies (one per configuration) are not counted and stay until `purge`.
 */
export class SqliteProfilerStorage implements ClosableProfilerStorage {
  readonly retention: ResolvedRetention;
  /** The database file, or `undefined` for a database given to the constructor. */
  readonly file?: string;
  private readonly db: SqliteDatabase;
  private readonly ownsDatabase: boolean;
  private readonly statements: {
    read: Statement<[string, number], { profile: string }>;
    has: Statement<[string, number], { found: number }>;
    write: Statement<[Record<string, unknown>]>;
    remove: Statement<[string]>;
    expire: Statement<[number]>;
    oldest: Statement<[number], { token: string; size_bytes: number }>;
    evictOldest: Statement<[number]>;
    totals: Statement<[], { n: number; bytes: number }>;
    purge: Statement<[]>;
    share: Statement<[string, string]>;
    sharedJson: Statement<[string], { json: string }>;
    purgeShared: Statement<[]>;
  };
  /** The ids of the constant JSON texts written (see {@link SHARED}), by text. */
  private readonly sharedIds = new Map<string, string>();
  /** The shared rows the queued profiles refer to, by id: written with them, if not there yet. */
  private pendingShared = new Map<string, string>();
  /** When the age cap was last enforced (ms, the store's clock): at most once a second. */
  private lastExpire = Number.NEGATIVE_INFINITY;
  private readonly findStatements = new Map<string, Statement<unknown[], SummaryRow>>();
  private readonly writeAndEvict: Transaction<
    (rows: Array<Record<string, unknown>>, shared: ReadonlyArray<readonly [string, string]>) => void
  >;
  /** Rows written since the last flush, by token, with the promises their writers wait on. */
  private pending = new Map<
    string,
    { row: Record<string, unknown>; settle: Array<[() => void, (e: unknown) => void]> }
  >();
  private flushScheduled = false;

  /**
   * Opens (or creates) the database and its table.
   * @throws KernelConfigError naming an invalid option, or `"profiler.storage.sqlitePath"` when
   *   the file cannot be opened
   */
  constructor(options: SqliteProfilerStorageOptions = {}) {
    this.retention = resolveRetention(options, ['sqlitePath', 'database', 'awaitCommit']);
    if (options.awaitCommit !== undefined && typeof options.awaitCommit !== 'boolean') {
      throw invalidOption(`${OPTION_PREFIX}awaitCommit`, 'expected true or false', options.awaitCommit);
    }
    this.writesVisibleAtOnce = options.awaitCommit === false;
    if (options.database !== undefined) {
      if (typeof options.database !== 'object' || options.database === null
        || typeof options.database.prepare !== 'function') {
        const what = 'expected an open better-sqlite3 database, e.g. openSqlite(file)';
        throw invalidOption(`${OPTION_PREFIX}database`, what, options.database, { got: false });
      }
      this.db = options.database;
      this.ownsDatabase = false;
    } else {
      const file = options.sqlitePath ?? DEFAULT_SQLITE_PATH;
      if (typeof file !== 'string' || file === '') {
        throw invalidOption(`${OPTION_PREFIX}sqlitePath`, `expected a file path, e.g. "${DEFAULT_SQLITE_PATH}"`, file);
      }
      this.db = openSqlite(file, `${OPTION_PREFIX}sqlitePath`);
      // Profiles are debug data: like Symfony's file storage, which never fsyncs, this connection
      // does not wait for the disk at WAL checkpoints either. A crash of the process loses
      // nothing committed; a power loss may lose recent profiles (delete the file if it will
      // not open afterwards). A database given in `database` keeps its owner's setting.
      this.db.pragma('synchronous = OFF');
      this.file = file;
      this.ownsDatabase = true;
    }
    this.db.transaction(() => {
      this.db.exec(SCHEMA);
      this.db.exec(RECOUNT);
    }).immediate();
    this.statements = {
      read: this.db.prepare(`SELECT profile FROM ${TABLE} WHERE token = ? AND time >= ?`),
      has: this.db.prepare(`SELECT 1 AS found FROM ${TABLE} WHERE token = ? AND time >= ?`),
      // an upsert (not INSERT OR REPLACE, whose implicit delete fires no trigger): a token written
      // again replaces its row in place, and the update trigger keeps the byte total
      write: this.db.prepare(`INSERT INTO ${TABLE} (token, parent, ip, method, url, time, `
        + `status_code, route, size_bytes, profile)
        VALUES (@token, @parent, @ip, @method, @url, @time, @statusCode, @route, @bytes, @json)
        ON CONFLICT (token) DO UPDATE SET parent = excluded.parent, ip = excluded.ip, `
        + `method = excluded.method, url = excluded.url,
          time = excluded.time, status_code = excluded.status_code, route = excluded.route, `
        + 'size_bytes = excluded.size_bytes, profile = excluded.profile'),
      remove: this.db.prepare(`DELETE FROM ${TABLE} WHERE token = ?`),
      expire: this.db.prepare(`DELETE FROM ${TABLE} WHERE time < ?`),
      oldest: this.db.prepare(`SELECT token, size_bytes FROM ${TABLE} ORDER BY time ASC, token ASC LIMIT ?`),
      evictOldest: this.db.prepare(`DELETE FROM ${TABLE} WHERE token IN `
        + `(SELECT token FROM ${TABLE} ORDER BY time ASC, token ASC LIMIT ?)`),
      totals: this.db.prepare(`SELECT n, bytes FROM ${TOTALS} WHERE id = 1`),
      purge: this.db.prepare(`DELETE FROM ${TABLE}`),
      share: this.db.prepare(`INSERT OR IGNORE INTO ${SHARED} (id, json) VALUES (?, ?)`),
      sharedJson: this.db.prepare(`SELECT json FROM ${SHARED} WHERE id = ?`),
      purgeShared: this.db.prepare(`DELETE FROM ${SHARED}`),
    };
    // One transaction per batch of writes. The caps are read from the totals row; eviction walks
    // the time index from the oldest row only when a cap is exceeded; expired rows are deleted at
    // most once a second (read, has and find hide them at once).
    this.writeAndEvict = this.db.transaction((rows, shared) => {
      // each batch writes the shared rows it refers to (another process may have purged them)
      for (const [id, json] of shared) this.statements.share.run(id, json);
      for (const row of rows) this.statements.write.run(row);
      const now = this.retention.now();
      if (due(this.lastExpire, now, 1000)) {
        this.statements.expire.run(ageCutoff(this.retention));
        this.lastExpire = now;
      }
      let { n, bytes } = this.statements.totals.get() as { n: number; bytes: number };
      // Oldest first (by the time index) until both caps hold: the newest profiles that fit stay.
      // The count cap's excess goes in one statement (a batch's rows past it, in one walk of the
      // index), then the byte cap's, a row at a time.
      if (n > this.retention.maxProfiles) {
        this.statements.evictOldest.run(n - this.retention.maxProfiles);
        ({ n, bytes } = this.statements.totals.get() as { n: number; bytes: number });
      }
      while (n > this.retention.maxProfiles || bytes > this.retention.maxBytes) {
        const victims = this.statements.oldest.all(Math.max(n - this.retention.maxProfiles, 16));
        if (victims.length === 0) break;
        for (const v of victims) {
          if (n <= this.retention.maxProfiles && bytes <= this.retention.maxBytes) break;
          this.statements.remove.run(v.token);
          n -= 1;
          bytes -= v.size_bytes;
        }
      }
    });
  }

  async read(token: string): Promise<Profile | null> {
    if (this.pending.has(token)) this.flush();
    const row = sqliteCall('Profiler', () => this.statements.read.get(token, ageCutoff(this.retention)));
    return row === undefined ? null : this.withShared(JSON.parse(row.profile) as Profile);
  }

  /** Puts each collector's shared data back in place of its reference (one left as is if its row is gone). */
  private withShared(profile: Profile): Profile {
    const collectors = profile.collectors;
    for (const name of Object.keys(collectors)) {
      const id = sharedIdOf(collectors[name]);
      if (id === undefined) continue;
      const shared = sqliteCall('Profiler', () => this.statements.sharedJson.get(id));
      if (shared !== undefined) collectors[name] = JSON.parse(shared.json) as unknown;
    }
    return profile;
  }

  /** What a profile's JSON holds in place of a collector's constant data: a reference to its shared row. */
  private readonly reference = (json: string): string => {
    let id = this.sharedIds.get(json);
    if (id === undefined) {
      if (this.sharedIds.size >= MAX_SHARED_IDS) this.sharedIds.clear();
      id = createHash('sha256').update(json).digest('hex');
      this.sharedIds.set(json, id);
    }
    this.pendingShared.set(id, json);
    return `{"${SHARED_KEY}":"${id}"}`;
  };

  /**
   * A queued profile is read, found and `has` at once: `read` of a queued token, `find`, `purge`
   * and `close` commit the queue first, `has` looks in it. Other processes on the same file see it
   * once committed, at the end of the event loop's turn. True only with `awaitCommit: false`.
   */
  readonly writesVisibleAtOnce: boolean;

  /**
   * Queues the profile and resolves once it is committed. The queue is committed once the event
   * loop has run the callbacks of the I/O it polled (`setImmediate`, Node's check phase), so the
   * profiles of the requests a busy server handled in one turn share one transaction and one
   * eviction check. Until 2026-11-26 the queue waited 4 ms for company instead: under load the
   * server then sat idle, every connection's response waiting for the timer, and a debug-on 404
   * answered 13–20% fewer requests per second (docs/benchmarks/not-found.md, "The profile store
   * commits at the end of the loop's turn"). The profile is queued (so visible, see
   * `writesVisibleAtOnce`) when `write` returns.
   */
  async write(profile: Profile): Promise<void> {
    const { json, bytes } = encodeProfile(profile, this.retention, this.reference);
    const row = {
      token: profile.token,
      parent: profile.parent ?? null,
      ip: profile.ip,
      method: profile.method,
      url: profile.url,
      time: profile.time,
      statusCode: profile.statusCode,
      route: profile.route ?? null,
      bytes,
      json,
    };
    return new Promise<void>((resolve, reject) => {
      const queued = this.pending.get(profile.token);
      if (queued !== undefined) {
        queued.row = row; // a second write of the same token replaces the first
        queued.settle.push([resolve, reject]);
      } else {
        this.pending.set(profile.token, { row, settle: [[resolve, reject]] });
      }
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits the queued writes in one transaction and settles their promises. */
  private flush(): void {
    this.flushScheduled = false;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const shared = [...this.pendingShared];
    this.pendingShared = new Map();
    let failure: unknown;
    try {
      // BEGIN IMMEDIATE: the caps are read and enforced under the write lock, whichever process writes
      this.writeAndEvict.immediate([...batch.values()].map((q) => q.row), shared);
    } catch (e) {
      failure = isSqliteUnavailable(e) ? storageUnavailable('Profiler', e)
        : (e ?? new Error('profiler store write failed'));
    }
    for (const q of batch.values()) {
      for (const [resolve, reject] of q.settle) {
        if (failure === undefined) resolve();
        else reject(failure);
      }
    }
  }

  /**
   * Filters in SQL. Substrings (`ip`, `url`) are matched with `instr()`, which has no wildcard
   * characters at all (so `%`, `_` and `\` in a search are plain text) and, unlike `LIKE`, is
   * case-sensitive, as the other stores are.
   */
  async find(criteria: ProfileCriteria): Promise<ProfileSummary[]> {
    this.flush();
    const limit = resultLimit(criteria);
    if (limit === 0) return [];
    const where = ['time >= ?'];
    const params: unknown[] = [ageCutoff(this.retention)];
    const add = (clause: string, value: unknown): void => { where.push(clause); params.push(value); };
    if (criteria.ip !== undefined && criteria.ip !== '') add('instr(ip, ?) > 0', criteria.ip);
    if (criteria.method !== undefined && criteria.method !== '') add('method = ?', criteria.method.toUpperCase());
    if (criteria.url !== undefined && criteria.url !== '') add('instr(url, ?) > 0', criteria.url);
    if (criteria.statusCode !== undefined) add('status_code = ?', criteria.statusCode);
    if (criteria.start !== undefined) add('time >= ?', criteria.start);
    if (criteria.end !== undefined) add('time <= ?', criteria.end);
    params.push(Number.isFinite(limit) ? limit : -1);
    const sql = `SELECT token, parent, ip, method, url, time, status_code, route FROM ${TABLE}
      WHERE ${where.join(' AND ')} ${NEWEST_FIRST} LIMIT ?`;
    let statement = this.findStatements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare<unknown[], SummaryRow>(sql);
      this.findStatements.set(sql, statement);
    }
    const found = statement;
    return sqliteCall('Profiler', () => found.all(...params)).map(summaryOfRow);
  }

  async has(token: string): Promise<boolean> {
    if (this.pending.has(token)) return true;
    return sqliteCall('Profiler', () => this.statements.has.get(token, ageCutoff(this.retention))) !== undefined;
  }

  async purge(): Promise<void> {
    this.flush();
    // one transaction: another process's batch lands before both deletes or after them
    this.db.transaction(() => {
      this.statements.purge.run();
      this.statements.purgeShared.run();
    }).immediate();
  }

  /** Closes the database when the store opened it. */
  async close(): Promise<void> {
    if (this.db.open) this.flush();
    if (this.ownsDatabase && this.db.open) this.db.close();
  }
}
