import type { SessionData } from 'express-session';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openSqlite, SqliteDatabase } from '../../src/storage/sqlite';
import { SqliteSessionStore } from '../../src/session';

const data = (extra: Record<string, unknown> = {}, expires?: Date): SessionData =>
  ({ cookie: { originalMaxAge: null, expires, httpOnly: true, path: '/' }, ...extra }) as unknown as SessionData;

function open(db: SqliteDatabase, ttlSeconds = 60) {
  const store = new SqliteSessionStore({ db, ttlSeconds, pruneIntervalSeconds: 0 });
  return {
    store,
    get: promisify(store.get.bind(store)) as (sid: string) => Promise<SessionData | null>,
    set: promisify(store.set.bind(store)) as (sid: string, s: SessionData) => Promise<void>,
    touch: promisify(store.touch.bind(store)) as (sid: string, s: SessionData) => Promise<void>,
    destroy: promisify(store.destroy.bind(store)) as (sid: string) => Promise<void>,
    length: promisify(store.length.bind(store)) as () => Promise<number>,
  };
}

describe('SqliteSessionStore', () => {
  let db: SqliteDatabase;
  beforeEach(() => { db = openSqlite(':memory:'); });
  afterEach(() => { if (db.open) db.close(); jest.useRealTimers(); });

  it('writes, reads, replaces and destroys a session', async () => {
    const s = open(db);
    expect(await s.get('a')).toBeNull();
    await s.set('a', data({ cart: ['apple'] }));
    expect(await s.get('a')).toMatchObject({ cart: ['apple'] });
    await s.set('a', data({ cart: ['pear'] }));
    expect(await s.get('a')).toMatchObject({ cart: ['pear'] });
    expect(await s.length()).toBe(1);
    await s.destroy('a');
    expect(await s.get('a')).toBeNull();
  });

  it('keeps an idle session for ttlSeconds, and touch() extends it', async () => {
    jest.useFakeTimers({ now: Date.UTC(2024, 0, 1), doNotFake: ['nextTick', 'setImmediate'] });
    const s = open(db, 60);
    await s.set('a', data());
    jest.setSystemTime(Date.UTC(2024, 0, 1, 0, 0, 50));
    await s.touch('a', data());
    jest.setSystemTime(Date.UTC(2024, 0, 1, 0, 1, 40));
    expect(await s.get('a')).not.toBeNull();
    jest.setSystemTime(Date.UTC(2024, 0, 1, 0, 1, 51));
    expect(await s.get('a')).toBeNull();
  });

  it('uses the cookie\'s expiry when it has one', async () => {
    const s = open(db, 3600);
    await s.set('past', data({}, new Date(Date.now() - 1000)));
    await s.set('future', data({}, new Date(Date.now() + 10_000)));
    expect(await s.get('past')).toBeNull();
    expect(await s.get('future')).not.toBeNull();
  });

  it('prunes expired sessions', async () => {
    const s = open(db, 3600);
    await s.set('old', data({}, new Date(Date.now() - 1000)));
    await s.set('live', data());
    expect(s.store.prune()).toBe(1);
    expect(db.prepare('SELECT sid FROM sessions').all()).toEqual([{ sid: 'live' }]);
  });

  it('prunes on open, so sessions that expired while the process was down go', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-store-'));
    try {
      const file = path.join(dir, 's.sqlite');
      const first = openSqlite(file);
      new SqliteSessionStore({ db: first, pruneIntervalSeconds: 0 }).stop();
      first.prepare('INSERT INTO sessions VALUES (?, ?, ?)').run('gone', '{}', Date.now() - 1);
      first.close();
      const second = openSqlite(file);
      new SqliteSessionStore({ db: second, pruneIntervalSeconds: 0 }).stop();
      expect(second.prepare('SELECT COUNT(*) AS n FROM sessions').get()).toEqual({ n: 0 });
      second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a closed database through the callback, asynchronously, without throwing', async () => {
    const s = open(db);
    db.close();
    let sync = true;
    const result = new Promise((resolve) => s.store.get('a', (err) => resolve([err, sync])));
    sync = false;
    const [err, wasSync] = (await result) as [Error, boolean];
    expect(err.message).toMatch(/not open/);
    expect(wasSync).toBe(false);
    await expect(s.set('a', data())).rejects.toThrow(/not open/);
  });

  it('refuses a table name that is not an identifier', () => {
    expect(() => new SqliteSessionStore({ db, table: 'x; DROP TABLE y' })).toThrow('Invalid table name "x; DROP TABLE y"');
  });
});
