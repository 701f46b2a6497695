/**
 * The demo's resources served from the SQL store (openDemoDatabase on a real SQLite file): the
 * seeded books over HTTP, filters and pages through SQL, and the statements in the profiler's
 * Database panel.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { SqlStore } from '../../../src/api/sql';
import { openDemoDatabase } from '../../../src/demo/database';
import { createDemoResources } from '../../../src/demo/resources';
import { createDemoRoutes } from '../../../src/demo/routes';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { DatabaseCollector, type DatabaseData } from '../../../src/profiler';

let dir: string;
let store: SqlStore;
let kernel: Kernel;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-demo-sql-'));
  store = await openDemoDatabase({ SQLITE_PATH: path.join(dir, 'demo.sqlite') });
  const routes = createDemoRoutes(createDemoResources(store));
  const profiler = { collectors: [new DatabaseCollector()] };
  kernel = createKernel({ routes, debug: true, securityHeaders: false, profiler });
});

afterAll(async () => {
  await kernel.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('GET /api/books lists the seeded books from SQLite, Dune first', async () => {
  const res = await request(kernel).get('/api/books').set('Accept', 'application/json').expect(200);
  expect((res.body as Array<{ title: string }>).map((b) => b.title)).toEqual(['Dune', 'Hyperion', 'Solaris']);
});

test('GET /api/books/3 is Solaris, by Stanisław Lem (a relation IRI)', async () => {
  const res = await request(kernel).get('/api/books/3').set('Accept', 'application/ld+json').expect(200);
  expect(res.body).toMatchObject({ '@id': '/api/books/3', title: 'Solaris', author: '/api/authors/3' });
});

test('a filtered, ordered page runs as SQL; the Database panel shows its statements, parameters bound', async () => {
  const res = await request(kernel).get('/api/books?title=DUNE&order[title]=desc').set('Accept', 'application/json')
    .expect(200);
  expect((res.body as Array<{ title: string }>).map((b) => b.title)).toEqual(['Dune']);
  const profile = await kernel.profiler?.storage.read(res.headers['x-debug-token']);
  const data = profile?.collectors.database as DatabaseData;
  if (!data.enabled) throw new Error('no statements were logged');
  const select = data.queries.find((q) => q.sql.includes('from "books"'));
  expect(select?.sql).toMatch(/ek_lower\("title"\) like \? escape/);
  expect(select?.sql).toMatch(/order by "title" desc nulls last, "id" asc/);
  expect(select?.parameters[0]).toBe('%dune%');
});
