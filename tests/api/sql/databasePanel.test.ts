/**
 * The profiler's Database panel (DatabaseCollector) fed by the SQL store through
 * queryLogFor(req): a real debug kernel, a real SQLite file, real HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createSqlState, queryLogFor, resourceTablesMigration, type SqlStore } from '../../../src/api/sql';
import type { ResourceMetadata } from '../../../src/api/state/types';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { DatabaseCollector, type DatabaseData } from '../../../src/profiler';
import { parameterNames } from '../../../src/profiler/collectors/DatabaseCollector';
import { Route } from '../../../src/routing/Route';
import { RouteCollection } from '../../../src/routing/RouteCollection';

const ACCOUNT: ResourceMetadata = {
  shortName: 'Account',
  table: 'accounts',
  properties: [
    { name: 'login', kind: 'string', nullable: false, readOnly: false, writeOnly: false },
    { name: 'password', kind: 'string', nullable: false, readOnly: false, writeOnly: true },
    { name: 'note', kind: 'text', nullable: true, readOnly: false, writeOnly: false },
  ],
};

let dir: string;
let store: SqlStore;
let kernel: Kernel;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-db-panel-'));
  store = createSqlState({ sqlitePath: path.join(dir, 'app.sqlite') });
  await store.migrate({ '0001-accounts': resourceTablesMigration([ACCOUNT]) });
  const routes = new RouteCollection();
  routes.add('account_create', new Route('/accounts', {
    methods: ['POST'],
    controller: async (req, res) => {
      const context = queryLogFor(req);
      const outcome = await store.processor.create(ACCOUNT,
        { login: 'ada', password: 'correct horse battery', note: 'card 4111 1111 1111 1111' }, context);
      const page = await store.provider.provideCollection(ACCOUNT, {
        conditions: [{ type: 'search', property: 'password', strategy: 'exact', values: ['correct horse battery'] }],
        order: [], page: 1, itemsPerPage: 30, partial: false,
      }, context);
      res.status(201).json({ outcome: outcome.status, found: page.items.length });
    },
  }));
  routes.add('home', new Route('/', {
    controller: (_req, res) => { res.type('html').send('<html><body>hi</body></html>'); },
  }));
  const profiler = { collectors: [new DatabaseCollector()] };
  kernel = createKernel({ routes, debug: true, securityHeaders: false, profiler });
});

afterAll(async () => {
  await kernel.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function profileData(res: request.Response): Promise<DatabaseData> {
  const profile = await kernel.profiler?.storage.read(res.headers['x-debug-token']);
  return profile?.collectors.database as DatabaseData;
}

describe('DatabaseCollector', () => {
  test('lists every statement of the request with its time and rows; secrets never reach the profile', async () => {
    const res = await request(kernel).post('/accounts').expect(201);
    expect(res.body).toEqual({ outcome: 'ok', found: 1 });
    const data = await profileData(res);
    if (!data.enabled) throw new Error('the panel saw no statements');
    const statements = data.queries.map((q) => q.sql.replace(/\s+/g, ' ').split(' ').slice(0, 2).join(' '));
    expect(statements).toEqual(['begin immediate', 'select m.name', 'insert into', 'commit', 'select "id",']);
    const insert = data.queries[2];
    expect(insert.rows).toBe(1);
    expect(insert.parameters).toEqual(['ada', '******', 'card ******', 1]);
    expect(data.queries[4].parameters).toEqual(['******', 30, 0]);
    expect(data.totalMs).toBeGreaterThan(0);
    expect(JSON.stringify(data)).not.toContain('correct horse');
    // the card number, not a timing that happens to hold its digits (`"durationMs":0.0741110…`)
    expect(JSON.stringify(data)).not.toContain('4111 1111');
  });

  test('the toolbar shows the count and total time; the panel renders the statements', async () => {
    const res = await request(kernel).post('/accounts').expect(201);
    const token = res.headers['x-debug-token'];
    const data = await profileData(res);
    const toolbar = await request(kernel).get(`/_wdt/${token}`).expect(200);
    expect(toolbar.text).toContain('Database');
    if (!data.enabled) throw new Error('the panel saw no statements');
    // the store reads the foreign keys once: 4 statements now (begin, insert, commit, select)
    expect(data.queries).toHaveLength(4);
    expect(toolbar.text).toContain(`<span class="ek-value">4 in ${data.totalMs.toFixed(1)} ms</span>`);
    const panel = await request(kernel).get(`/_profiler/${token}?panel=database`).expect(200);
    expect(panel.text).toContain('insert into &quot;accounts&quot;');
    expect(panel.text).not.toContain('correct horse');
  });

  test('a request that ran no store is "n/a" in the toolbar', async () => {
    const res = await request(kernel).get('/').expect(200);
    expect(await profileData(res)).toEqual({ enabled: false });
  });
});

describe('parameterNames(sql, count)', () => {
  test('names an insert\'s columns and the columns placeholders are compared with, ? and $n alike', () => {
    expect(parameterNames('insert into "t" ("a", "pass""word") values (?, ?)', 2)).toEqual(['a', 'pass"word']);
    expect(parameterNames('select * from "t" where "token" = $2 and lower("x") like $1', 2)).toEqual(['x', 'token']);
    expect(parameterNames('select ? limit ?', 2)).toEqual([undefined, undefined]);
  });
});
