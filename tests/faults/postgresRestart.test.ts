/**
 * PostgreSQL stopped and started again under the demo's book API (`DATABASE_URL`), writes in
 * flight: while it is down every write is a 503 `Book storage is unavailable.`, the process lives
 * on (a connection the pool had lent out used to emit an unhandled 'error' on the server's 57P01
 * and end the process), the first write after the restart is stored, and every acknowledged
 * write (a 201) is in the table afterwards.
 *
 * A connection is held checked out across the stop (Kysely's `db.connection()`), so the lent-out
 * client meets the shutdown in every run, not only when a write happens to be between statements.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { SqlStore } from '../../src/api/sql/createSqlState';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { describeWith } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';
import { startWriteLoad, type WriteResult } from '../helpers/writeLoad';

/** A 503 problem details naming the store (the demo runs with debug on, so the detail is shown). */
function isUnavailable(r: WriteResult): boolean {
  return r.status === 503 && /"detail":"Book storage is unavailable\."/.test(r.body ?? '');
}

describeWith('postgresql')('PostgreSQL stopped under API writes', () => {
  let pg: TestPostgres;
  let books: SqlStore;
  let kernel: DemoKernel;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    // crash-safe: an immediate stop must not lose a commit PostgreSQL acknowledged
    pg = await startPostgres({ crashSafe: true });
    books = await openDemoDatabase({ DATABASE_URL: await pg.createDatabase('restart') });
    kernel = createDemoKernel({ debug: true, store: books });
    server = http.createServer(kernel);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }, scaled(60_000));

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await kernel?.close();
    await books?.close();
    await pg?.stop();
  });

  test.each(['fast', 'immediate'] as const)(
    'pg_ctl stop -m %s: 503s while down, the process lives on, writes resume, nothing acknowledged lost',
    async (mode) => {
      const load = startWriteLoad(port, { prefix: mode });
      let held: Promise<unknown> | undefined;
      try {
        await load.next((r) => r.status === 201);
        // a connection lent out by the pool, idle between two statements when the server goes
        let release!: () => void;
        const stopped = new Promise<void>((resolve) => { release = resolve; });
        let checkedOut!: () => void;
        const out = new Promise<void>((resolve) => { checkedOut = resolve; });
        held = books.db.connection().execute(async (db) => {
          await sql`select 1`.execute(db);
          checkedOut();
          await stopped;
          return sql`select 1`.execute(db);
        }).then(() => 'answered', (e: unknown) => e);
        await out;
        const down = load.next(isUnavailable);
        await pg.halt(mode);
        release();
        // the held client's next statement fails with the lost connection's reason, not a crash
        expect(String(await held)).toMatch(/Connection terminated|not queryable|terminating connection/);
        expect(isUnavailable(await down)).toBe(true);
        await pg.start();
        const after = await load.next((r) => r.status === 201);
        expect(after).toMatchObject({ status: 201 });
      } finally {
        await load.stop();
        await held;
      }
      // every answer: a 201, or a 503 naming the store (no 500, no connection reset)
      const odd = load.results.filter((r) => r.status !== 201 && !isUnavailable(r));
      expect(odd).toEqual([]);
      const acknowledged = load.results.filter((r) => r.status === 201);
      const { rows } = await sql<{ id: number; title: string }>`select id, title from books
        where title like ${`${mode}-%`}`.execute(books.db);
      const stored = new Map(rows.map((r) => [Number(r.id), r.title]));
      const lost = acknowledged.filter((r) => stored.get(r.id!) !== r.title);
      expect({ acknowledged: acknowledged.length > 0, lost }).toEqual({ acknowledged: true, lost: [] });
    },
    scaled(60_000),
  );
});
