/**
 * The state contract's conformance suite against the SQL store on SQLite: a real file per case.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { describeStateConformance } from './conformance';

let dir: string;
let n = 0;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-sql-state-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SqlState on SQLite (createSqlState({ sqlitePath }))', () => {
  describeStateConformance(async (resources) => {
    const store = createSqlState({ sqlitePath: path.join(dir, `case-${++n}.sqlite`) });
    await store.migrate({ '0001-tables': resourceTablesMigration(resources) });
    return store;
  });
});
