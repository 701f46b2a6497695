/**
 * queryLogFor(req): a request's statements are kept for the profiler's Database panel only when
 * someone reads them: a kernel that does not profile the request logs nothing; outside a kernel
 * every statement is kept. A real SQLite file, real HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import request from 'supertest';
import { createSqlState, queryLogFor, resourceTablesMigration, type SqlStore } from '../../../src/api/sql';
import type { ResourceMetadata } from '../../../src/api/state/types';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { Route } from '../../../src/routing/Route';
import { RouteCollection } from '../../../src/routing/RouteCollection';

const NOTE: ResourceMetadata = {
  shortName: 'Note',
  table: 'notes',
  properties: [{ name: 'text', kind: 'string', nullable: false, readOnly: false, writeOnly: false }],
};

let dir: string;
let store: SqlStore;
const kernels: Kernel[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-query-log-'));
  store = createSqlState({ sqlitePath: path.join(dir, 'app.sqlite') });
  await store.migrate({ '0001-notes': resourceTablesMigration([NOTE]) });
  await store.processor.create(NOTE, { text: 'hello' });
});

afterAll(async () => {
  for (const k of kernels) await k.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Reads note 1 with the request's query log, and answers what the log holds. */
async function readNote(req: Request, res: Response): Promise<void> {
  const context = queryLogFor(req);
  const item = await store.provider.provideItem(NOTE, 1, context);
  res.json({ text: item?.data.text, logged: req.databaseQueries?.map((q) => q.sql) ?? null });
}

function kernelWith(debug: boolean): Kernel {
  const routes = new RouteCollection();
  routes.add('note', new Route('/note', { controller: readNote }));
  const kernel = createKernel({ routes, debug, securityHeaders: false });
  kernels.push(kernel);
  return kernel;
}

test('a kernel that does not profile the request keeps no statement', async () => {
  const res = await request(kernelWith(false)).get('/note').expect(200);
  expect(res.body).toEqual({ text: 'hello', logged: null });
});

test('a profiled request keeps the statement it ran', async () => {
  const res = await request(kernelWith(true)).get('/note').expect(200);
  expect(res.body.text).toBe('hello');
  expect(res.body.logged).toEqual([expect.stringMatching(/^select .* from "notes" where "id" = \?$/s)]);
});

test('outside a kernel, every statement is kept', async () => {
  const app = express();
  app.get('/note', readNote);
  const res = await request(app).get('/note').expect(200);
  expect(res.body.logged).toHaveLength(1);
});
