/**
 * The demo's cases on every store the API layer runs on (habit 10, as tests/api/state does for
 * the state contract): MemoryState, the SQL store on a real SQLite file, and on a real PostgreSQL
 * (tests/helpers/postgres.ts). Each call of `open` gives a new store with the demo's seed (Dune,
 * Hyperion, Solaris). Not a test file itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { openDemoDatabase } from '../../../src/demo/database';
import { createDemoResources, type DemoStore } from '../../../src/demo/resources';
import { seedDemoData } from '../../../src/demo/seed';
import { startPostgres, type TestPostgres } from '../../helpers/postgres';
import { describeWith } from '../../helpers/requirements';

/** A seeded demo store and how to close it. */
export interface OpenedDemoStore {
  readonly store: DemoStore;
  close(): Promise<void>;
}

/** Opens a new seeded demo store (call it in `beforeEach` or `beforeAll`). */
export type OpenDemoStore = () => Promise<OpenedDemoStore>;

/** The store names, as the describe blocks' titles give them. */
export type DemoStoreName = 'MemoryState' | 'SQLite' | 'PostgreSQL';

/**
 * Declares `cases` three times, once per store.
 * @param title - what the cases are about; each block is titled `<title> on <store>`
 */
export function describeOnEveryStore(
  title: string, cases: (open: OpenDemoStore, name: DemoStoreName) => void,
): void {
  describe(`${title} on MemoryState`, () => {
    cases(() => {
      const state = new MemoryState();
      const store = { provider: state, processor: state };
      seedDemoData(state, createDemoResources(store));
      return Promise.resolve({ store, close: () => Promise.resolve() });
    }, 'MemoryState');
  });

  describe(`${title} on SQLite`, () => {
    let dir: string;
    let n = 0;
    beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-demo-stores-')); });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
    cases(async () => {
      const store = await openDemoDatabase({ SQLITE_PATH: path.join(dir, `demo-${++n}.sqlite`) });
      return { store, close: () => store.close() };
    }, 'SQLite');
  });

  describeWith('postgresql')(`${title} on PostgreSQL`, () => {
    let server: TestPostgres;
    let n = 0;
    beforeAll(async () => { server = await startPostgres(); }, 30_000);
    afterAll(async () => { await server?.stop(); });
    cases(async () => {
      const store = await openDemoDatabase({ DATABASE_URL: await server.createDatabase(`demo_${++n}`) });
      return { store, close: () => store.close() };
    }, 'PostgreSQL');
  });
}
