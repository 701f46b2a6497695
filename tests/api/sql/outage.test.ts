/**
 * Store outages are 503s (StorageUnavailableError, `<Resource> storage is unavailable.`), never
 * a 500 with a stack: SQLite read-only or locked past busy_timeout, PostgreSQL stalled past the
 * deadline or gone. A statement that is wrong (a missing table) stays an error of its own.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createSqlState, resourceTablesMigration, type SqlStore } from '../../../src/api/sql';
import type { ResourceMetadata } from '../../../src/api/state/types';
import { openSqlite } from '../../../src/storage/sqlite';
import { isKernelError } from '../../../src/errors/KernelError';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

const NOTE: ResourceMetadata = {
  shortName: 'Note',
  table: 'notes',
  properties: [{ name: 'text', kind: 'text', nullable: false, readOnly: false, writeOnly: false }],
};

async function unavailable(work: Promise<unknown>): Promise<{ status: number; message: string; reason: string }> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  if (!isKernelError(error, 'ERR_HTTP_STORAGE_UNAVAILABLE')) throw new Error(`expected a StorageUnavailableError, got ${String(error)}`);
  return { status: error.status, message: error.message, reason: error.reason };
}

describe('SQLite', () => {
  let dir: string;
  let store: SqlStore;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-sql-outage-'));
    store = createSqlState({ sqlitePath: path.join(dir, 'app.sqlite') });
    await store.migrate({ '0001': resourceTablesMigration([NOTE]) });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a read-only database: writes are a 503 naming the resource, reads still answer', async () => {
    await store.processor.create(NOTE, { text: 'kept' });
    await sql`pragma query_only = on`.execute(store.db);
    expect(await unavailable(store.processor.create(NOTE, { text: 'x' }))).toEqual({
      status: 503, message: 'Note storage is unavailable.', reason: expect.stringMatching(/^SQLITE_READONLY/),
    });
    expect((await store.provider.provideItem(NOTE, 1))?.data).toEqual({ text: 'kept' });
  });

  test('a write lock held by another connection past busy_timeout: a 503, and nothing half-written', async () => {
    const other = openSqlite(path.join(dir, 'app.sqlite'));
    other.pragma('busy_timeout = 0');
    other.exec('begin immediate');
    try {
      await sql`pragma busy_timeout = 200`.execute(store.db);
      expect(await unavailable(store.processor.create(NOTE, { text: 'x' }))).toMatchObject({
        status: 503, reason: expect.stringMatching(/^SQLITE_BUSY/),
      });
    } finally {
      other.exec('rollback');
      other.close();
    }
    expect(await store.processor.create(NOTE, { text: 'after' })).toMatchObject({ status: 'ok', item: { id: 1 } });
  });

  test('a statement that is wrong (no such table) is not an outage', async () => {
    const missing = { ...NOTE, table: 'nowhere' };
    const error = await store.provider.provideItem(missing, 1).catch((e: unknown) => e);
    expect(isKernelError(error, 'ERR_HTTP_STORAGE_UNAVAILABLE')).toBe(false);
    expect(String(error)).toMatch(/no such table: nowhere/);
  });
});

describeWith('postgresql')('PostgreSQL', () => {
  let server: TestPostgres;
  let url: string;
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase('outage');
    const store = createSqlState({ url });
    await store.migrate({ '0001': resourceTablesMigration([NOTE]) });
    await store.close();
  }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });

  test('a stalled server: a 503 after the deadline; the store answers again once it is back', async () => {
    const store = createSqlState({ url, timeoutMs: 500 });
    try {
      await store.processor.create(NOTE, { text: 'before' });
      server.signal('SIGSTOP');
      try {
        expect(await unavailable(store.provider.provideItem(NOTE, 1))).toEqual({
          status: 503, message: 'Note storage is unavailable.', reason: 'timed out after 500 ms',
        });
      } finally {
        server.signal('SIGCONT');
      }
      const deadline = Date.now() + 10_000;
      let item = null;
      while (item === null && Date.now() < deadline) {
        item = await store.provider.provideItem(NOTE, 1).catch(() => null);
      }
      expect(item?.data).toEqual({ text: 'before' });
    } finally {
      await store.close();
    }
  }, scaled(30_000));

  test('nothing listening: a 503, not a 500', async () => {
    const store = createSqlState({ url: 'postgres://app@127.0.0.1:1/app', timeoutMs: 2000 });
    try {
      expect(await unavailable(store.provider.provideItem(NOTE, 1))).toMatchObject({
        status: 503, reason: expect.stringContaining('ECONNREFUSED'),
      });
    } finally {
      await store.close();
    }
  });
});
