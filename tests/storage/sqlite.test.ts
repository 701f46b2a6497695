import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../src/storage/sqlite';

/**
 * Another process that made `file` (rollback journal, as a brand-new file is) and holds its write
 * lock (`BEGIN IMMEDIATE`) for `holdMs`, as a second process switching the same new file to WAL
 * does. Resolves once the lock is held; `done` once it is released and the process has exited.
 */
async function holdWriteLock(file: string, holdMs: number): Promise<{ done: Promise<number | null> }> {
  const script = `
    const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
    const db = new Database(${JSON.stringify(file)});
    db.exec('CREATE TABLE t (x)');
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('locked')) resolve(); });
    child.on('exit', (code) => reject(new Error(`the lock holder exited first (${code})`)));
  });
  return { done };
}

describe('openSqlite', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-sqlite-open-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  test('waits for another process that holds the new file\'s write lock, then opens it in WAL mode', async () => {
    // SQLite answers this switch to WAL with SQLITE_BUSY at once (no busy_timeout wait), which
    // failed one of two processes opening a new file together ("database is locked")
    const file = path.join(dir, 'shared.sqlite');
    const holder = await holdWriteLock(file, 300);
    const started = Date.now();
    const db = openSqlite(file);
    const waited = Date.now() - started;
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(waited).toBeGreaterThanOrEqual(100); // it did wait for the other process's commit
      db.exec('INSERT INTO t VALUES (1)');
      expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
    expect(await holder.done).toBe(0);
  });

  test('a file that cannot be opened is a start-up error naming the option', () => {
    const file = path.join(dir, 'not-a-database.sqlite');
    fs.writeFileSync(file, 'this is not an SQLite file, and it is long enough to have a header of its own...');
    expect(() => openSqlite(file, 'profiler.storage.sqlitePath'))
      .toThrow(`Invalid option "profiler.storage.sqlitePath": cannot open SQLite database "${file}": file is not a database`);
  });
});
