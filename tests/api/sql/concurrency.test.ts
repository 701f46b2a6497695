/**
 * Several service processes on one database (issue 9: "two service processes on one SQLite file,
 * or several on one PostgreSQL, never lose or overwrite an acknowledged write"): real child
 * processes that start at once (concurrent migrations), create items and increment one shared
 * item with optimistic locking. Every acknowledged create is stored once under its own id, and
 * the shared item counts every acknowledged increment.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqlState } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { COUNTER } from './fixtures/tables';
import { scaled } from '../../helpers/timeScale';

const WRITER = path.join(__dirname, 'fixtures', 'writer.ts');
const PER_PROCESS = 150;

interface Report { created: Array<{ id: number; title: string }>; increments: number; conflicts: number }

function writer(target: string, name: string, startAt: number): Promise<Report> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', WRITER, target, name, String(PER_PROCESS), String(startAt)],
      { cwd: path.join(__dirname, '..', '..', '..'), timeout: scaled(90_000) }, (error, stdout, stderr) => {
        if (error) reject(new Error(`${name} failed: ${stderr || error.message}`));
        else resolve(JSON.parse(stdout) as Report);
      });
  });
}

async function check(target: string, processes: number): Promise<void> {
  const names = Array.from({ length: processes }, (_, i) => `p${i}`);
  const startAt = Date.now() + 3000;
  const reports = await Promise.all(names.map((n) => writer(target, n, startAt)));
  process.stdout.write(`${target.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}: ${processes} processes, `
    + `${reports.reduce((n, r) => n + r.conflicts, 0)} conflicts retried\n`);
  const store = createSqlState(target.startsWith('postgres') ? { url: target } : { sqlitePath: target });
  try {
    const all = await store.provider.provideCollection(COUNTER,
      { conditions: [], order: [], page: 1, itemsPerPage: 100, partial: false });
    const pages = [all];
    for (let p = 2; pages[pages.length - 1].hasNextPage; p++) {
      pages.push(await store.provider.provideCollection(COUNTER,
        { conditions: [], order: [], page: p, itemsPerPage: 100, partial: false }));
    }
    const stored = new Map(pages.flatMap((pg) => pg.items).map((i) => [i.id, i.data.title]));
    const created = reports.flatMap((r) => r.created);
    // every acknowledged create is there, under the id it was acknowledged with; ids never collide
    expect(created).toHaveLength(processes * PER_PROCESS);
    expect(new Set(created.map((c) => c.id)).size).toBe(created.length);
    for (const c of created) expect(stored.get(c.id)).toBe(c.title);
    expect(stored.size).toBe(created.length + 1);
    // no increment lost or overwritten: the counter holds them all, its version one bump each
    const increments = reports.reduce((n, r) => n + r.increments, 0);
    expect(increments).toBe(processes * PER_PROCESS);
    const counter = await store.provider.provideItem(COUNTER, 1);
    expect(counter).toMatchObject({ version: 1 + increments, data: { title: 'counter', pages: increments } });
  } finally {
    await store.close();
  }
}

describe('several processes writing one database', () => {
  test('SQLite: two processes on one file (migrating at once, then writing) lose nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-sql-mp-'));
    try {
      await check(path.join(dir, 'shared.sqlite'), 2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, scaled(120_000));
});

describeWith('postgresql')('several processes writing one PostgreSQL database', () => {
  let server: TestPostgres;
  beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
  afterAll(async () => { await server?.stop(); });

  test('three processes (migrating at once, then writing) lose nothing', async () => {
    await check(await server.createDatabase('shared'), 3);
  }, scaled(120_000));
});
