/**
 * `createSqlState(...).migrate(migrations)` when several processes start at once, on a real
 * PostgreSQL: a start-up that waits for another one's migrations waits as long as they take.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { createSqlState } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

/** Kysely's migration lock (`PostgresAdapter`'s `LOCK_ID`), a session-level advisory lock. */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

describeWith('postgresql')('migrate(migrations) on PostgreSQL', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });

  test('waits for another process\'s migrations past the statement timeout, then finds its work done', async () => {
    const url = await server.createDatabase('migrate_wait');
    // the other process: holds the migration lock, as Kysely's migrator does while it migrates
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    await other.query(`SELECT pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
    const store = createSqlState({ url, timeoutMs: 200, maxConnections: 1 }); // one connection: the one that migrated
    try {
      const migrated = store.migrate({
        '0001-notes': { up: async (db) => { await db.schema.createTable('notes').addColumn('id', 'integer').execute(); } },
      });
      // once the migrator waits on the lock, hold it for longer than the 200 ms statement timeout
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      try {
        for (;;) {
          const { rows } = await watcher.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
          if (rows[0].n > 0) break;
          await new Promise((r) => setImmediate(r));
        }
      } finally {
        await watcher.end();
      }
      await new Promise((r) => setTimeout(r, 1000));
      await other.query(`SELECT pg_advisory_unlock(${KYSELY_MIGRATION_LOCK})`);
      expect(await migrated).toEqual(['0001-notes']);
      // the pooled connection is back on the requests' timeout: a longer statement is cancelled
      await expect(sql`SELECT pg_sleep(2)`.execute(store.db)).rejects.toThrow(/statement timeout/);
    } finally {
      await other.end();
      await store.close();
    }
  });
});
