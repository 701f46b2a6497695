/**
 * The demo's database module: migrations, seed data on first start, the legacy `books` table of
 * older demo versions, DATABASE_URL / SQLITE_PATH. Real SQLite files, a real PostgreSQL server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOOKS_V1, LEGACY_BOOKS_TABLE, openDemoDatabase } from '../../src/demo/database';
import { openSqlite } from '../../src/storage/sqlite';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { describeWith } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';

const ALL = { conditions: [], order: [], page: 1, itemsPerPage: 100, partial: false } as const;

let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-demo-db-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function books(env: NodeJS.ProcessEnv): Promise<Array<{ id: number; title: unknown; author: unknown }>> {
  const store = await openDemoDatabase(env);
  try {
    const page = await store.provider.provideCollection(BOOKS_V1, ALL);
    return page.items.map((i) => ({ id: i.id as number, title: i.data.title, author: i.data.author }));
  } finally {
    await store.close();
  }
}

describe('openDemoDatabase(env) on SQLite', () => {
  test('a new file gets the tables and the seed: Dune, Hyperion, Solaris are books 1-3, with authors', async () => {
    const env = { SQLITE_PATH: path.join(dir, 'demo.sqlite') };
    const seeded = [
      { id: 1, title: 'Dune', author: 1 }, { id: 2, title: 'Hyperion', author: 2 },
      { id: 3, title: 'Solaris', author: 3 },
    ];
    expect(await books(env)).toEqual(seeded);
    // a second start runs nothing again
    expect(await books(env)).toEqual(seeded);
  });

  test('two processes starting at once on a new file seed it once', async () => {
    const file = path.join(dir, 'demo.sqlite');
    // both wait for the same moment (the parent's clock), so their migrations overlap
    const startAt = Date.now() + 3000;
    const code = `setTimeout(() => require('./src/demo/database')
      .openDemoDatabase({ SQLITE_PATH: ${JSON.stringify(file)} }).then((s) => s.close()), ${startAt} - Date.now())`;
    const start = (): Promise<void> => new Promise((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '-e', code], { cwd: path.join(__dirname, '..', '..') },
        (e, _out, err) => (e ? reject(new Error(err || e.message)) : resolve()));
    });
    await Promise.all([start(), start()]);
    expect((await books({ SQLITE_PATH: file })).map((b) => b.title)).toEqual(['Dune', 'Hyperion', 'Solaris']);
  }, scaled(60_000));

  test('a legacy books table (TEXT ids) is renamed books_legacy; its rows move over, numeric ids kept', async () => {
    const file = path.join(dir, 'old.sqlite');
    const old = openSqlite(file);
    // the table as the demo's BookRepository made it before the API layer
    old.exec(`CREATE TABLE IF NOT EXISTS books (id TEXT PRIMARY KEY, title TEXT NOT NULL,
      featured INTEGER NOT NULL DEFAULT 0)`);
    old.exec(`INSERT INTO books (id, title, featured) VALUES ('1', 'Dune', 0), ('7', 'Old seven', 1),
      ('abc', 'Put by a stray PUT', 0)`);
    old.close();
    expect(await books({ SQLITE_PATH: file })).toEqual([
      { id: 1, title: 'Dune', author: null },
      { id: 7, title: 'Old seven', author: null },
      { id: 8, title: 'Put by a stray PUT', author: null },
    ]);
    const after = openSqlite(file);
    try {
      const legacy = after.prepare(`select id from ${LEGACY_BOOKS_TABLE} order by id`).all();
      expect(legacy).toEqual([{ id: '1' }, { id: '7' }, { id: 'abc' }]);
      expect(after.prepare('select featured from books where id = 7').get()).toEqual({ featured: 1 });
    } finally {
      after.close();
    }
  });

  test('DATABASE_URL that is not postgres:// is refused at start, naming the variable, password hidden', async () => {
    await expect(openDemoDatabase({ DATABASE_URL: 'mysql://u:hunter2@db/app' })).rejects.toThrow(
      'Invalid environment variable "DATABASE_URL": expected a postgres:// URL, e.g. '
      + 'postgres://app:secret@127.0.0.1:5432/app, got "mysql://u:******@db/app".');
  });
});

describeWith('postgresql')('openDemoDatabase(env) on PostgreSQL (DATABASE_URL)', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });

  test('three starts at once migrate and seed once', async () => {
    const url = await server.createDatabase('demo');
    const stores = await Promise.all([1, 2, 3].map(() => openDemoDatabase({ DATABASE_URL: url })));
    await Promise.all(stores.map((s) => s.close()));
    expect(await books({ DATABASE_URL: url })).toEqual([
      { id: 1, title: 'Dune', author: 1 }, { id: 2, title: 'Hyperion', author: 2 },
      { id: 3, title: 'Solaris', author: 3 },
    ]);
  });

  test('a server that is not there is a start-up error naming DATABASE_URL', async () => {
    await expect(openDemoDatabase({ DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/app' }))
      .rejects.toThrow(new RegExp('^Invalid option "DATABASE_URL": cannot migrate the PostgreSQL at '
        + '"postgres://app:\\*{6}@127'));
  });
});
