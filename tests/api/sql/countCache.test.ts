/**
 * SqliteCountCache through SqlState on a real SQLite file: an unfiltered collection's
 * `totalItems` is counted once and kept while nothing changed, and every change is seen by the
 * next page: the store's own writes, the application's statements on the store's connection, a
 * second connection on the same file (another process would be the same), a schema change, and a
 * rolled-back unit.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { createSqlState, resourceTablesMigration, type SqlStore } from '../../../src/api/sql';
import { isAtomic, type CollectionQuery, type ResourceMetadata } from '../../../src/api/state/types';

const NOTE: ResourceMetadata = {
  shortName: 'Note',
  table: 'notes',
  properties: [{ name: 'text', kind: 'string', nullable: false, readOnly: false, writeOnly: false }],
};
/** A full page of two, so the store must know the total from a count (kept or not). */
const FIRST_PAGE: CollectionQuery = { conditions: [], order: [], page: 1, itemsPerPage: 2, partial: false };

let dir: string;
let file: string;
let store: SqlStore;
let other: Database.Database;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-count-cache-'));
  file = path.join(dir, 'app.sqlite');
  store = createSqlState({ sqlitePath: file });
  await store.migrate({ '0001-notes': resourceTablesMigration([NOTE]) });
  for (const text of ['a', 'b', 'c']) await store.processor.create(NOTE, { text });
  other = new Database(file);
});

afterEach(async () => {
  other.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The first page's totalItems, and the statements the read sent. */
async function firstPage(): Promise<{ totalItems: number | undefined; statements: string[] }> {
  const statements: string[] = [];
  const page = await store.provider.provideCollection(NOTE, FIRST_PAGE, { logQuery: (q) => statements.push(q.sql) });
  return { totalItems: page.totalItems, statements };
}

const counts = (statements: readonly string[]): number => statements.filter((s) => /count\(\*\)/.test(s)).length;

describe('totalItems of an unfiltered page on SQLite', () => {
  test('is counted once, then read again without a count while nothing changed', async () => {
    const first = await firstPage();
    expect(first.totalItems).toBe(3);
    expect(counts(first.statements)).toBe(1);
    const second = await firstPage();
    expect(second.totalItems).toBe(3);
    expect(second.statements).toHaveLength(1);
    expect(counts(second.statements)).toBe(0);
  });

  test("sees the store's own create and delete on the next page", async () => {
    await firstPage();
    await store.processor.create(NOTE, { text: 'd' });
    expect((await firstPage()).totalItems).toBe(4);
    expect((await store.processor.remove(NOTE, 1)).status).toBe('ok');
    expect((await firstPage()).totalItems).toBe(3);
  });

  test("sees the application's own statement on the store's connection", async () => {
    await firstPage();
    await sql`insert into notes (text, version) values ('raw', 1)`.execute(store.db);
    expect((await firstPage()).totalItems).toBe(4);
  });

  test('sees a write committed by a second connection on the same file', async () => {
    expect((await firstPage()).totalItems).toBe(3);
    other.prepare("INSERT INTO notes (text, version) VALUES ('elsewhere', 1)").run();
    expect((await firstPage()).totalItems).toBe(4);
    other.prepare('DELETE FROM notes WHERE id <= 2').run();
    expect((await firstPage()).totalItems).toBe(2);
  });

  test('sees a table made anew on the same connection, which changes no row', async () => {
    await firstPage();
    // CREATE TABLE … AS SELECT and DROP TABLE count no changed row: only the schema moves
    await sql`create table notes_copy as select * from notes where id <= 2`.execute(store.db);
    await sql`drop table notes`.execute(store.db);
    await sql`alter table notes_copy rename to notes`.execute(store.db);
    const after = await firstPage();
    expect(after.totalItems).toBe(2);
    expect(counts(after.statements)).toBe(1);
  });

  test('inside a unit counts what the unit sees, and after its rollback counts again', async () => {
    await firstPage();
    const processor = store.processor;
    if (!isAtomic(processor)) throw new Error('the SQL store runs units');
    const seen = await processor.atomically(async (unit) => {
      await unit.create(NOTE, { text: 'd' });
      const page = await unit.provideCollection(NOTE, FIRST_PAGE);
      throw Object.assign(new Error('roll back'), { seen: page.totalItems });
    }).catch((e: { seen?: number }) => e.seen);
    expect(seen).toBe(4);
    expect((await firstPage()).totalItems).toBe(3);
  });
});
