import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../../src/storage/sqlite';
import { SqliteProfilerStorage } from '../../../src/profiler/storage/SqliteProfilerStorage';
import { describeProfilerStorage } from './conformance';
import { makeProfile, T0 } from './profiles';
import { constantData, profileJson } from '../../../src/profiler/profileJson';

let dir: string;
let n = 0;
const freshFile = (): string => path.join(dir, `profiles-${++n}.sqlite`);
const now = (): number => T0;

beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-profiler-')); });
afterAll(() => { fs.rmSync(dir, { recursive: true, force: true }); });

describeProfilerStorage('SqliteProfilerStorage', (options) => new SqliteProfilerStorage({ ...options, sqlitePath: freshFile() }));

describe('new SqliteProfilerStorage({ sqlitePath })', () => {
  it('keeps profiles across a restart: a new store on the same file reads them', async () => {
    const file = path.join(dir, 'nested', 'folder', 'profiler.sqlite');
    const before = new SqliteProfilerStorage({ sqlitePath: file, now });
    await before.write(makeProfile('aaaaaa', 0, { route: 'home' }));
    await before.write(makeProfile('bbbbbb', 1));
    await before.close();

    const after = new SqliteProfilerStorage({ sqlitePath: file, now });
    expect(await after.read('aaaaaa')).toStrictEqual(makeProfile('aaaaaa', 0, { route: 'home' }));
    expect((await after.find({})).map((s) => s.token)).toEqual(['bbbbbb', 'aaaaaa']);
    await after.close();
  });

  it('shows a queued profile to its own reads before the commit, and to another store once committed', async () => {
    const file = freshFile();
    const a = new SqliteProfilerStorage({ sqlitePath: file, now });
    const b = new SqliteProfilerStorage({ sqlitePath: file, now });
    let committed = false;
    const written = a.write(makeProfile('aaaaaa', 0)).then(() => { committed = true; });
    expect(await a.has('aaaaaa')).toBe(true);
    expect(committed).toBe(false);
    expect(await b.has('aaaaaa')).toBe(false);
    await written;
    expect(await b.has('aaaaaa')).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('awaitCommit: the profiler waits for the commit unless it is false; a non-boolean is refused', async () => {
    const waiting = new SqliteProfilerStorage({ sqlitePath: freshFile(), now });
    const atOnce = new SqliteProfilerStorage({ sqlitePath: freshFile(), now, awaitCommit: false });
    expect([waiting.writesVisibleAtOnce, atOnce.writesVisibleAtOnce]).toEqual([false, true]);
    await Promise.all([waiting.close(), atOnce.close()]);
    expect(() => new SqliteProfilerStorage({ sqlitePath: freshFile(), awaitCommit: 'yes' as unknown as boolean }))
      .toThrow('Invalid option "profiler.storage.awaitCommit": expected true or false');
  });

  it('shares profiles with another store open on the same file', async () => {
    const file = freshFile();
    const a = new SqliteProfilerStorage({ sqlitePath: file, now });
    const b = new SqliteProfilerStorage({ sqlitePath: file, now });
    await a.write(makeProfile('aaaaaa', 0));
    expect(await b.has('aaaaaa')).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('commits the writes of one turn together: another store sees all of them once they resolve, none before', async () => {
    const file = freshFile();
    const a = new SqliteProfilerStorage({ sqlitePath: file, now });
    const b = new SqliteProfilerStorage({ sqlitePath: file, now });
    const tokens = Array.from({ length: 20 }, (_, i) => `${(0xa00000 + i).toString(16)}`);
    const writes = tokens.map((t, i) => a.write(makeProfile(t, i)));
    // queued, not yet committed: this store answers for them, the other file handle does not see them
    expect(await a.has(tokens[0])).toBe(true);
    expect(await b.has(tokens[0])).toBe(false);
    await Promise.all(writes);
    expect((await b.find({ limit: 50 })).map((s) => s.token)).toEqual([...tokens].reverse());
    await Promise.all([a.close(), b.close()]);
  });

  it('commits at the end of the event loop\'s turn: a lone write resolves before any timer set with it', async () => {
    // the queue used to wait 4 ms for company, holding every response of a quiet server back
    const store = new SqliteProfilerStorage({ sqlitePath: freshFile(), now });
    await store.write(makeProfile('aaaaaa', 0)); // the file's first commit, out of the way
    // from the timers phase, so that this turn's check phase (setImmediate) comes before the next
    // turn's timers, however long the commit or the machine takes
    await new Promise((resolve) => { setTimeout(resolve, 0); });
    const first = await Promise.race([
      store.write(makeProfile('bbbbbb', 1)).then(() => 'committed'),
      new Promise((resolve) => { setTimeout(() => resolve('timer'), 1); }),
    ]);
    expect(first).toBe('committed');
    await store.close();
  });

  it('enforces the caps on a file written before the totals table existed (recounted at open)', async () => {
    const file = freshFile();
    const old = new SqliteProfilerStorage({ sqlitePath: file, now });
    for (const [i, t] of ['a00001', 'a00002', 'a00003'].entries()) await old.write(makeProfile(t, i));
    await old.close();
    const db = openSqlite(file);
    db.exec('DROP TRIGGER profiler_profiles_count_insert; DROP TRIGGER profiler_profiles_count_delete; DROP TABLE profiler_totals;');
    db.close();
    const store = new SqliteProfilerStorage({ sqlitePath: file, now, maxProfiles: 3 });
    await store.write(makeProfile('a00004', 3));
    expect((await store.find({})).map((s) => s.token)).toEqual(['a00004', 'a00003', 'a00002']);
    await store.close();
  });

  it('reads a profile whose write is still queued', async () => {
    const store = new SqliteProfilerStorage({ sqlitePath: freshFile(), now });
    const write = store.write(makeProfile('cccccc', 0, { route: 'home' }));
    expect(await store.read('cccccc')).toStrictEqual(makeProfile('cccccc', 0, { route: 'home' }));
    await write;
    await store.close();
  });

  it('rejects every write of a batch whose commit fails, and keeps working afterwards', async () => {
    const database = openSqlite(':memory:');
    const store = new SqliteProfilerStorage({ database, now });
    database.exec('CREATE TRIGGER refuse BEFORE INSERT ON profiler_profiles BEGIN SELECT RAISE(ABORT, \'disk says no\'); END;');
    const results = await Promise.allSettled([store.write(makeProfile('dddddd', 0)), store.write(makeProfile('eeeeee', 1))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toContain('disk says no');
    database.exec('DROP TRIGGER refuse');
    await store.write(makeProfile('ffffff', 2));
    expect((await store.find({})).map((s) => s.token)).toEqual(['ffffff']);
    database.close();
  });

  it('names the option when the file cannot be opened', () => {
    const blocker = path.join(dir, 'a-file');
    fs.writeFileSync(blocker, '');
    expect(() => new SqliteProfilerStorage({ sqlitePath: path.join(blocker, 'x.sqlite') }))
      .toThrow(/^Invalid option "profiler\.storage\.sqlitePath": cannot open SQLite database ".*x\.sqlite": /);
  });

  it.each([[''], [42]])('rejects sqlitePath %p', (value) => {
    expect(() => new SqliteProfilerStorage({ sqlitePath: value as string }))
      .toThrow(`Invalid option "profiler.storage.sqlitePath": expected a file path, e.g. "var/profiler.sqlite" (got ${JSON.stringify(value)}).`);
  });

  it('indexes the search columns, the time newest first', async () => {
    const file = freshFile();
    const store = new SqliteProfilerStorage({ sqlitePath: file, now });
    await store.close();
    const db = openSqlite(file);
    const columns = (db.prepare('PRAGMA table_info(profiler_profiles)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns).toEqual(['token', 'parent', 'ip', 'method', 'url', 'time', 'status_code', 'route', 'size_bytes', 'profile']);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN SELECT token, url FROM profiler_profiles
      WHERE time >= 0 AND instr(url, 'x') > 0 ORDER BY time DESC, token DESC LIMIT 10`).all() as Array<{ detail: string }>).map((p) => p.detail).join('\n');
    expect(plan).toContain('USING INDEX profiler_profiles_time');
    expect(plan).not.toContain('TEMP B-TREE'); // no sort: the index gives the order
    db.close();
  });
});

describe('new SqliteProfilerStorage({ database })', () => {
  it('uses a database opened elsewhere, and leaves it open on close', async () => {
    const db = openSqlite(':memory:');
    const store = new SqliteProfilerStorage({ database: db, now });
    await store.write(makeProfile('aaaaaa', 0));
    await store.close();
    expect(db.open).toBe(true);
    expect(db.prepare('SELECT count(*) AS n FROM profiler_profiles').get()).toEqual({ n: 1 });
    db.close();
  });

  it('rejects something that is not a database', () => {
    expect(() => new SqliteProfilerStorage({ database: {} as never }))
      .toThrow('Invalid option "profiler.storage.database": expected an open better-sqlite3 database, e.g. openSqlite(file).');
  });
});

describe('SqliteProfilerStorage: a collector\'s constant data is stored once', () => {
  const config = constantData({ kernel: { debug: true, environment: 'dev' }, versions: { node: process.version }, bundles: ['a', 'b', 'c'] });
  const withConfig = (token: string, at: number) =>
    makeProfile(token, at, { collectors: { request: { headers: { accept: 'text/html' } }, config } });
  const count = (db: ReturnType<typeof openSqlite>, table: string): number =>
    (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

  it('profiles refer to one copy; read gives each profile back whole', async () => {
    const db = openSqlite(':memory:');
    const store = new SqliteProfilerStorage({ database: db, now });
    await Promise.all([store.write(withConfig('aaaaaa', 0)), store.write(withConfig('bbbbbb', 1))]);
    await store.write(withConfig('cccccc', 2));
    for (const [token, at] of [['aaaaaa', 0], ['bbbbbb', 1], ['cccccc', 2]] as const) {
      expect(await store.read(token)).toEqual(JSON.parse(JSON.stringify(withConfig(token, at))));
    }
    expect(count(db, 'profiler_shared')).toBe(1);
    const row = db.prepare('SELECT size_bytes, profile FROM profiler_profiles WHERE token = ?').get('aaaaaa') as { size_bytes: number; profile: string };
    expect(row.profile).not.toContain('environment');
    expect(row.size_bytes).toBe(Buffer.byteLength(row.profile, 'utf8'));
    expect(row.size_bytes).toBeLessThan(Buffer.byteLength(profileJson(withConfig('aaaaaa', 0)), 'utf8'));
    await store.close();
    db.close();
  });

  it('another store on the file reads it; purge removes the copy and the next write brings it back', async () => {
    const file = freshFile();
    const a = new SqliteProfilerStorage({ sqlitePath: file, now });
    const b = new SqliteProfilerStorage({ sqlitePath: file, now });
    await a.write(withConfig('aaaaaa', 0));
    expect(await b.read('aaaaaa')).toEqual(JSON.parse(JSON.stringify(withConfig('aaaaaa', 0))));
    await b.purge();
    const db = openSqlite(file);
    expect(count(db, 'profiler_shared')).toBe(0);
    await a.write(withConfig('bbbbbb', 1)); // a still knows the id: its batch writes the copy again
    expect(count(db, 'profiler_shared')).toBe(1);
    expect(await b.read('bbbbbb')).toEqual(JSON.parse(JSON.stringify(withConfig('bbbbbb', 1))));
    db.close();
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves data that only looks like a reference as it is', async () => {
    const store = new SqliteProfilerStorage({ sqlitePath: freshFile(), now });
    const lookalikes = {
      short: { $sharedJson: 'abc' },
      unknown: { $sharedJson: 'f'.repeat(64) },
      more: { $sharedJson: 'e'.repeat(64), other: 1 },
    };
    await store.write(makeProfile('aaaaaa', 0, { collectors: lookalikes }));
    expect((await store.read('aaaaaa'))?.collectors).toEqual(lookalikes);
    await store.close();
  });
});
