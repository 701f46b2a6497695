/**
 * Back office section (issue 26): the index page's render rate and the CSV export's rows per
 * second and memory, on the tests' own kind of resources (`Writer`, `Novel`) in an SQLite file of
 * `--rows` novels (100,000 by default), in this process, over HTTP on 127.0.0.1.
 *
 * - index: `GET /admin/novels?sort=title&page=N` (20 rows, their writers' labels), one request at
 *   a time, `--pages` requests;
 * - export: `GET /admin/novels/export.csv?sort=title` read to its end by a client that drops the
 *   bytes; the RSS before, its peak during the export (sampled every 20 ms) and after, so a
 *   flat peak shows the export keeps a chunk, not the list, in memory.
 *
 * Options (after `npm run bench -- admin`):
 *   --rows=100000   novels in the file
 *   --pages=200     index requests
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { adminRoutes, auditLogMigration } from '../src/admin';
import { defineResource, readOnly, relation, SearchFilter, text } from '../src/api';
import { createSqlState, resourceTablesMigration } from '../src/api/sql';
import { createKernel } from '../src/kernel/createKernel';
import { option } from './harness';
import type { BenchSection } from './run';

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** GETs `url` and reads the body to its end; resolves with its status, bytes and lines. */
function get(url: string): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

/** The compiled bench looks for the templates beside its `src` (`build/templates`): a link to the package's. */
function linkTemplates(): void {
  const wanted = path.resolve(__dirname, '..', 'templates');
  const real = path.resolve(__dirname, '..', '..', 'templates');
  if (!fs.existsSync(wanted) && fs.existsSync(real)) fs.symlinkSync(real, wanted, 'dir');
}

async function run(args: readonly string[]): Promise<void> {
  linkTemplates();
  const rows = Number(option(args, 'rows') ?? 100_000);
  const pages = Number(option(args, 'pages') ?? 200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-bench-admin-'));
  const store = createSqlState({ sqlitePath: path.join(dir, 'admin.sqlite') });
  const writer = defineResource({
    shortName: 'Writer',
    schema: z.object({ id: readOnly(z.int()), fullName: z.string().min(1) }),
    provider: store.provider, processor: store.processor,
  });
  const novel = defineResource({
    shortName: 'Novel',
    schema: z.object({
      id: readOnly(z.int()), title: z.string().min(1), pageCount: z.int().nullable().optional(),
      blurb: text(z.string()).nullable().optional(), writer: relation('Writer').nullable().optional(),
    }),
    filters: [SearchFilter({ writer: 'exact' })],
    provider: store.provider, processor: store.processor,
  });
  await store.migrate({
    '0001-tables': resourceTablesMigration([writer.metadata, novel.metadata]),
    '0002-audit-log': auditLogMigration(),
  });
  const writers = 1000;
  for (let i = 0; i < writers; i += 500) {
    await store.db.insertInto('writers' as never).values(Array.from({ length: 500 }, (_, j) => (
      { fullName: `Writer ${i + j + 1}`, version: 1 }))as never).execute();
  }
  for (let i = 0; i < rows; i += 500) {
    const batch = Array.from({ length: Math.min(500, rows - i) }, (_, j) => {
      const n = i + j + 1;
      return { title: `Novel ${n}`, pageCount: n % 900, blurb: n % 10 === 0 ? `A blurb, "quoted", ${n}` : null,
        writer: (n % writers) + 1, version: 1 };
    });
    await store.db.insertInto('novels' as never).values(batch as never).execute();
  }
  const kernel = createKernel({
    routes: adminRoutes({ resources: [writer, novel], role: 'PUBLIC_ACCESS' }),
    debug: false, environment: 'test', secret: 'a bench secret of at least thirty-two characters',
    session: { store: 'memory' },
  });
  const server = http.createServer(kernel);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    console.log(`${rows} novels, ${writers} writers (SQLite file), node ${process.version}`);
    // index: warm up, then one request at a time
    for (let i = 1; i <= 10; i++) await get(`${base}/admin/novels?sort=title&page=${i}`);
    const last = Math.ceil(rows / 20);
    let started = process.hrtime.bigint();
    for (let i = 0; i < pages; i++) {
      const page = 1 + Math.floor((i * 7919) % last);
      const res = await get(`${base}/admin/novels?sort=title&page=${page}`);
      if (res.status !== 200) throw new Error(`index page ${page}: ${res.status}`);
    }
    let seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(`index page (20 rows, sorted by title): ${(pages / seconds).toFixed(1)} pages/s, `
      + `${(seconds / pages * 1000).toFixed(1)} ms each (${pages} requests)`);
    // export: RSS before, peak during, after
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
    started = process.hrtime.bigint();
    const res = await get(`${base}/admin/novels/export.csv?sort=title`);
    seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const after = process.memoryUsage().rss;
    if (res.status !== 200 || res.lines !== rows + 1) throw new Error(`export: ${res.status}, ${res.lines} lines`);
    console.log(`CSV export (sorted by title): ${rows} rows, ${mb(res.bytes)} in ${seconds.toFixed(2)} s: `
      + `${Math.round(rows / seconds)} rows/s`);
    console.log(`RSS: before ${mb(before)}, peak during ${mb(peak)} (+${mb(peak - before)}), after ${mb(after)}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await kernel.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The back office section. */
export const adminSection: BenchSection = {
  name: 'admin',
  description: 'back office: index page render, CSV export rows/s and RSS (options: --rows=100000 --pages=200)',
  run,
};
