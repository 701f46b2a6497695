/**
 * A write that meets another client's change and retries on the new version runs the
 * operation's checks again (issue 27, point 4: a ROLE_USER's PUT re-featured a book the admin
 * had just un-featured, 7 of 60 rounds with two processes on one SQLite file). The race is made
 * deterministic: the store commits the admin's change, over HTTP, between the PUT's read and
 * its write.
 */
import type { Server } from 'node:http';
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, defineResource, Delete, Get, Put, readOnly } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createKernel } from '../../../src/kernel/createKernel';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import type { DemoStore } from '../../../src/demo/resources';
import { describeOnEveryStore, type OpenedDemoStore } from './demoOnEveryStore';

const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user}`).toString('base64')}`;
const ADMIN = basic('admin');
const USER = basic('user');
const MERGE = 'application/merge-patch+json';

/**
 * The store, with a hook that runs inside its next `replace` or `remove`, before the write goes
 * on: what another client commits there makes the write meet a newer version.
 */
function racing(store: DemoStore): { store: DemoStore; beforeNextWrite(hook: () => Promise<void>): void } {
  let pending: (() => Promise<void>) | undefined;
  const run = async (): Promise<void> => {
    const hook = pending;
    pending = undefined;
    await hook?.();
  };
  const { processor } = store;
  return {
    store: {
      provider: store.provider,
      processor: {
        create: (...args) => processor.create(...args),
        replace: async (...args) => { await run(); return processor.replace(...args); },
        remove: async (...args) => { await run(); return processor.remove(...args); },
      },
    },
    beforeNextWrite(hook) { pending = hook; },
  };
}

describeOnEveryStore('a PUT that retries after a concurrent change', (open) => {
  let opened: OpenedDemoStore;
  let race: ReturnType<typeof racing>;
  let kernel: DemoKernel;
  let server: Server;
  beforeEach(async () => {
    opened = await open();
    race = racing(opened.store);
    kernel = createDemoKernel({ debug: false, store: race.store });
    server = kernel.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });
  afterEach(async () => {
    await new Promise((r) => server.close(r));
    await kernel.close();
    await opened.close();
  });

  /** The admin's merge patch of Dune (book 1), committed while the user's write waits. */
  const adminPatches = (patch: object) => async (): Promise<void> => {
    const res = await request(server).patch('/api/books/1').set('Authorization', ADMIN)
      .set('Content-Type', MERGE).set('Accept', 'application/json').send(JSON.stringify(patch));
    expect(res.status).toBe(200);
  };
  const userPuts = (body: object) => request(server).put('/api/books/1').set('Authorization', USER)
    .set('Content-Type', 'application/json').set('Accept', 'application/json').send(JSON.stringify(body));
  const dune = async () => (await request(server).get('/api/books/1').set('Accept', 'application/json')).body as {
    title: string; featured: boolean; price: number | null;
  };

  test('a ROLE_USER cannot re-feature the book the admin un-featured meanwhile: 403, and it stays un-featured', async () => {
    expect((await dune()).featured).toBe(true);
    race.beforeNextWrite(adminPatches({ featured: false }));
    // allowed when read (Dune was featured: the value does not change), not on the admin's version
    const res = await userPuts({ title: 'Dune (2nd edition)', featured: true });
    expect([res.status, res.body.detail]).toEqual([403, 'Only an admin may feature a book.']);
    expect(await dune()).toMatchObject({ title: 'Dune', featured: false });
  });

  test('a retry the checks still allow is written on the new version (200, ETag "1-3")', async () => {
    race.beforeNextWrite(adminPatches({ price: 11 }));
    const res = await userPuts({ title: 'Dune (2nd edition)', featured: true });
    expect([res.status, res.headers.etag]).toEqual([200, '"1-3"']);
    // PUT replaces every property: the admin's price is gone, as the user's body says
    expect(await dune()).toMatchObject({ title: 'Dune (2nd edition)', featured: true, price: null });
  });
});

describe('a DELETE or PUT that retries after a concurrent change', () => {
  // `security` with the stored object: a locked note may be neither replaced nor deleted
  const state = new MemoryState();
  const race = racing({ provider: state, processor: state });
  const notLocked = ({ object }: { object: object | null }) => (object as { locked?: unknown } | null)?.locked !== true;
  const note = defineResource({
    shortName: 'Note',
    schema: z.object({ id: readOnly(z.int()), text: z.string(), locked: z.boolean().default(false) }),
    provider: race.store.provider,
    processor: race.store.processor,
    operations: [
      Get(), Put({ security: notLocked, securityMessage: 'The note is locked.' }),
      Delete({ security: notLocked, securityMessage: 'The note is locked.' }),
    ],
  });
  const kernel = createKernel({ routes: apiRoutes({ resources: [note] }), debug: false });
  // the stores' hook locks the note (another client's write) before the request's own write
  const lockMeanwhile = (id: number) => async (): Promise<void> => {
    const current = await state.provideItem(note.metadata, id);
    await state.replace(note.metadata, id, { ...current!.data, locked: true }, current!.version);
  };

  test.each([
    ['DELETE', (id: number) => request(kernel).delete(`/api/notes/${id}`)],
    ['PUT', (id: number) => request(kernel).put(`/api/notes/${id}`).set('Content-Type', 'application/json')
      .send(JSON.stringify({ text: 'changed' }))],
  ])('a %s runs `security` again on the new version: 403 once the note is locked', async (_method, send) => {
    const created = await state.create(note.metadata, { text: 'draft', locked: false });
    const { id } = (created as { item: { id: number } }).item;
    race.beforeNextWrite(lockMeanwhile(id));
    const res = await send(id).set('Accept', 'application/json');
    expect([res.status, res.body.detail]).toEqual([403, 'The note is locked.']);
    expect((await state.provideItem(note.metadata, id))?.data).toEqual({ text: 'draft', locked: true });
  });
});
