/**
 * The relation tests' resources on every store the API layer runs on (habit 10, as
 * tests/api/http/demoOnEveryStore.ts does for the demo): MemoryState, the SQL store on a real
 * SQLite file, and on a real PostgreSQL (tests/helpers/postgres.ts). Not a test file itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryState, type Resource, type StateProcessor, type StateProvider } from '../../../src/api';
import { createSqlState, resourceTablesMigration } from '../../../src/api/sql';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';
import { scaled } from '../../helpers/timeScale';

/** Declares the resources of a test on a store (targets of relations first). */
export type DefineResources = (provider: StateProvider, processor: StateProcessor) => readonly Resource[];

/** The resources on a new, empty store, and how to close it. */
export interface OpenedStore {
  readonly resources: readonly Resource[];
  close(): Promise<void>;
}

/**
 * Declares `cases` once per store.
 * @param title - each block is titled `<title> on <store>`
 * @param define - the resources, declared on the store each case opens
 */
export function describeOnEveryStore(
  title: string, define: DefineResources,
  cases: (open: () => Promise<OpenedStore>, store: 'MemoryState' | 'SQLite' | 'PostgreSQL') => void,
): void {
  describe(`${title} on MemoryState`, () => {
    cases(() => {
      const state = new MemoryState();
      return Promise.resolve({ resources: define(state, state), close: () => Promise.resolve() });
    }, 'MemoryState');
  });

  const sqlCase = async (options: { url: string } | { sqlitePath: string }): Promise<OpenedStore> => {
    const store = createSqlState(options);
    const resources = define(store.provider, store.processor);
    await store.migrate({ '0001-tables': resourceTablesMigration(resources.map((r) => r.metadata)) });
    return { resources, close: () => store.close() };
  };

  describe(`${title} on SQLite`, () => {
    let dir: string;
    let n = 0;
    beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-relations-')); });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    cases(() => sqlCase({ sqlitePath: path.join(dir, `case-${++n}.sqlite`) }), 'SQLite');
  });

  describeWith('postgresql')(`${title} on PostgreSQL`, () => {
    let server: TestPostgres;
    let n = 0;
    beforeAll(async () => { server = await startPostgres(); }, scaled(30_000));
    afterAll(async () => { await server?.stop(); });
    cases(async () => sqlCase({ url: await server.createDatabase(`relations_${++n}`) }), 'PostgreSQL');
  });
}
