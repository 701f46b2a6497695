/**
 * An SQLite file that cannot be written while the server runs: the database file and its WAL made
 * immutable (`chattr +i`, see tests/helpers/immutable.ts). SQLite then fails at the commit, when
 * it writes the WAL (SQLITE_IOERR_WRITE), not at the statement, as a read-only connection
 * (`PRAGMA query_only`, tests/faults/storageOutage.test.ts) does; reads go on.
 *
 * - Login throttling (sessions and counters in the demo's SQLite file): every attempt is the same
 *   503, whatever the password; before, a wrong password was a 401 and counted nothing (the
 *   commit's error was lost by `INSERT … RETURNING` read with `.get()`), the right one a 503.
 * - The book API (its own SQLite file): a write is a 503 with SQLite's reason in the log; before,
 *   a 500 logging `cannot rollback - no transaction is active` (SQLite had already rolled the
 *   transaction back, and Kysely's failed rollback replaced the commit's error).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import request from 'supertest';
import type { SqlStore } from '../../src/api/sql/createSqlState';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';
import { makeImmutable } from '../helpers/immutable';

const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * What a client can tell apart: the status, the headers that are not the date, the body. Each
 * supertest request reaches the kernel on a server of its own, so the port in the documentation's
 * absolute `Link` (every API response has it) is left out.
 */
function answer(res: request.Response): unknown {
  const { date: _date, ...headers } = res.headers;
  if (typeof headers.link === 'string') headers.link = headers.link.replace(/\/\/127\.0\.0\.1:\d+\//g, '//127.0.0.1/');
  return { status: res.status, headers, body: res.text };
}

describe('an SQLite file made immutable while the demo runs (chattr +i)', () => {
  let dir: string;
  let kernel: DemoKernel;
  let books: SqlStore;
  let restore: (() => void) | undefined;
  const logs: string[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-immutable-'));
    logs.length = 0;
    const logger = pino({ level: 'warn' }, { write: (line: string) => { logs.push(line); } });
    books = await openDemoDatabase({ SQLITE_PATH: path.join(dir, 'books.sqlite') });
    // production settings: 5xx details hidden, as a client on the internet sees them
    kernel = createDemoKernel({ debug: false, sqlitePath: path.join(dir, 'demo.sqlite'), logger, store: books });
  });

  afterEach(async () => {
    restore?.();
    restore = undefined;
    await kernel.close();
    await books.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Makes `<name>` and `<name>-wal` in the test's folder immutable until the test ends. */
  function freeze(name: string): void {
    const file = path.join(dir, name);
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    restore = makeImmutable([file, `${file}-wal`]);
  }

  test('login throttling: 20 wrong passwords and the right one all get the same 503; counted again once writable', async () => {
    const json = { Accept: 'application/json' };
    // a first login: the session and throttling tables are there and the WAL is open
    await request(kernel).get('/api/time').set(json).set('Authorization', basic('admin', 'admin')).expect(200);
    freeze('demo.sqlite');
    const wrong = [];
    for (let i = 0; i < 20; i++) {
      wrong.push(answer(await request(kernel).get('/api/time').set(json).set('Authorization', basic('admin', `guess${i}`))));
    }
    const right = answer(await request(kernel).get('/api/time').set(json).set('Authorization', basic('admin', 'admin')));
    expect(wrong[0]).toMatchObject({ status: 503, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
    expect([...new Set([...wrong, right].map((a) => JSON.stringify(a)))]).toHaveLength(1);
    expect(logs.join('')).toMatch(/"reason":"SQLITE_IOERR_WRITE: disk I\/O error"/);

    restore!();
    restore = undefined;
    // writable again: wrong passwords are 401s and counted, until the 5th is throttled
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await request(kernel).get('/api/time').set(json).set('Authorization', basic('admin', `again${i}`))).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test('POST /api/books: a 503 with SQLite\'s reason in the log (not a 500 logging the failed rollback)', async () => {
    // Basic credentials are stateless: no session is written, so the books file is the only store written
    const user = basic('user', 'user');
    await request(kernel).post('/api/books').set('Authorization', user).send({ title: 'Before' }).expect(201);
    freeze('books.sqlite');
    const res = await request(kernel).post('/api/books').set('Authorization', user).set('Accept', 'application/json')
      .send({ title: 'Ubik' });
    expect({ status: res.status, detail: (res.body as { detail?: string }).detail }).toEqual({
      status: 503, detail: 'Service Unavailable',
    });
    const log = logs.join('');
    expect(log).toMatch(/SQLITE_IOERR_WRITE|SQLITE_READONLY/);
    expect(log).not.toMatch(/cannot rollback/);
    restore!();
    restore = undefined;
    // the connection goes on once the file is writable; the refused book was not stored
    await request(kernel).post('/api/books').set('Authorization', user).send({ title: 'After' }).expect(201);
    const { rows } = await sql<{ title: string }>`select title from books where title in ('Before', 'Ubik', 'After')
      order by id`.execute(books.db);
    expect(rows.map((r) => r.title)).toEqual(['Before', 'After']);
  });
});
