/**
 * Items identified by a UUID or a client-chosen string (issue 25 point 3) in the back office:
 * the new form of a string-identified resource asks for the id (the API requires it on POST) and
 * creates the item at it; its pages, edit form and delete answer at the id (dots, spaces, non-ASCII
 * included); a UUID resource's items are created with the store's UUID and shown and edited at it.
 * On MemoryState, SQLite and PostgreSQL (when installed).
 */
import { z } from 'zod';
import { adminRoutes, auditLogMigration } from '../../src/admin';
import { defineResource, readOnly, relation } from '../../src/api';
import { resourceTablesMigration } from '../../src/api/sql';
import type { Kernel } from '../../src/kernel/createKernel';
import { scaled } from '../helpers/timeScale';
import { adminKernel, flashes, formToken, ownStores, parse, resources, signedIn, type OwnStore } from './ownBackOffice';

jest.setTimeout(scaled(60_000));

const stores = ownStores('admin_identifiers');

describe.each(stores)('identifiers in the back office on %s', (_name, open) => {
  let store: OwnStore;
  let kernel: Kernel;
  beforeEach(async () => {
    store = await open();
    const tag = defineResource({
      shortName: 'Tag',
      schema: z.object({ id: z.string().min(1).max(40), label: z.string().min(1) }),
      provider: store.provider, processor: store.processor,
    });
    const author = defineResource({
      shortName: 'Author',
      schema: z.object({ id: readOnly(z.uuid()), name: z.string().min(1) }),
      provider: store.provider, processor: store.processor,
    });
    const { writer, novel } = resources(store.provider, store.processor);
    const note = defineResource({
      shortName: 'Note',
      schema: z.object({ id: z.string().min(1), text: z.string().min(1), tag: relation('Tag').nullable().optional() }),
      provider: store.provider, processor: store.processor,
    });
    await store.sql?.migrate({
      '0001-tables': resourceTablesMigration([writer.metadata, novel.metadata]), '0002-audit-log': auditLogMigration(),
      '0003-identifiers': resourceTablesMigration([tag.metadata, author.metadata, note.metadata]),
    });
    // a picker, not a select, from the first tag on
    kernel = adminKernel(adminRoutes({ resources: [tag, author, note], relationSelectLimit: 0 }));
  });
  afterEach(async () => {
    await kernel.close();
    await store.close();
  });

  test('a string id: the new form asks for it; the item is created, shown, edited and deleted at it', async () => {
    const alice = await signedIn(kernel, 'alice');
    const form = await alice.get('/admin/tags/new').expect(200);
    const $ = parse(form.text);
    expect($('input[name="id"]')).toHaveLength(1);
    const id = 'sci.fi été 2';
    const created = await alice.post('/admin/tags/new').type('form')
      .send({ _token: formToken(form.text), id, label: 'Science fiction' }).expect(303);
    const at = `/admin/tags/${encodeURIComponent(id)}`;
    expect(created.headers.location).toBe(at);
    const detail = parse((await alice.get(at).expect(200)).text);
    expect(detail('main').text()).toContain('Science fiction');
    expect(flashes(detail).join(' ')).toContain('created');
    const edit = await alice.get(`${at}/edit`).expect(200);
    const version = parse(edit.text)('input[name="_version"]').val();
    await alice.post(`${at}/edit`).type('form')
      .send({ _token: formToken(edit.text), _version: version, label: 'SF' }).expect(303);
    expect((await alice.get(at).expect(200)).text).toContain('SF');
    const del = await alice.get(`${at}/delete`).expect(200);
    await alice.post(`${at}/delete`).type('form')
      .send({ _token: formToken(del.text), _version: parse(del.text)('input[name="_version"]').val() }).expect(303);
    await alice.get(at).expect(404);
  });

  test('a string id: a missing or taken id is shown at its field, nothing is stored', async () => {
    const alice = await signedIn(kernel, 'alice');
    const form = await alice.get('/admin/tags/new').expect(200);
    const answer = await alice.post('/admin/tags/new').type('form')
      .send({ _token: formToken(form.text), id: '', label: 'Science fiction' }).expect(422);
    const page = parse(answer.text);
    expect(page('#field-id').attr('aria-invalid')).toBe('true');
    expect(page('#error-id').text()).toContain('This value should not be blank.');
    // an id taken: the store's duplicate, at the field
    await alice.post('/admin/tags/new').type('form')
      .send({ _token: formToken(form.text), id: 'sf', label: 'SF' }).expect(303);
    const again = await alice.post('/admin/tags/new').type('form')
      .send({ _token: formToken(form.text), id: 'sf', label: 'Science fiction' }).expect(422);
    expect(parse(again.text)('#error-id').text()).toContain('This value is already used.');
    expect(parse((await alice.get('/admin/tags').expect(200)).text)('tbody').text()).not.toContain('Science fiction');
  });

  test('a string-identified item\'s relation picker finds a string-identified target by its id', async () => {
    const alice = await signedIn(kernel, 'alice');
    for (const [id, label] of [['sf', 'Science fiction'], ['fantasy', 'Fantasy']]) {
      const form = await alice.get('/admin/tags/new').expect(200);
      await alice.post('/admin/tags/new').type('form').send({ _token: formToken(form.text), id, label }).expect(303);
    }
    const form = await alice.get('/admin/notes/new').expect(200);
    await alice.post('/admin/notes/new').type('form')
      .send({ _token: formToken(form.text), id: 'n.1', text: 'Read Dune', tag: '' }).expect(303);
    const edit = await alice.get('/admin/notes/n.1/edit').expect(200);
    const token = formToken(edit.text);
    const version = String(parse(edit.text)('input[name="_version"]').val());
    // the edit form's picker (was routed for digit ids only: a 404 here)
    const picker = await alice.post('/admin/notes/n.1/edit/pick/tag').type('form')
      .send({ _token: token, _version: version, text: 'Read Dune', tag: '', _q: 'sf' }).expect(200);
    const $ = parse(picker.text);
    expect($('ul.choices button').toArray().map((b) => $(b).attr('value'))).toEqual(['sf']);
    await alice.post('/admin/notes/n.1/edit').type('form')
      .send({ _token: token, _version: version, text: 'Read Dune', tag: 'sf' }).expect(303);
    expect(parse((await alice.get('/admin/notes/n.1').expect(200)).text)('main').text()).toContain('Science fiction');
  });

  test('a UUID: the new form does not ask for it; the item is shown and edited at the store\'s UUID', async () => {
    const alice = await signedIn(kernel, 'alice');
    const form = await alice.get('/admin/authors/new').expect(200);
    expect(parse(form.text)('input[name="id"]')).toHaveLength(0);
    const created = await alice.post('/admin/authors/new').type('form')
      .send({ _token: formToken(form.text), name: 'Ursula' }).expect(303);
    expect(created.headers.location).toMatch(/^\/admin\/authors\/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const at = String(created.headers.location);
    expect((await alice.get(at).expect(200)).text).toContain('Ursula');
    const edit = await alice.get(`${at}/edit`).expect(200);
    const version = parse(edit.text)('input[name="_version"]').val();
    await alice.post(`${at}/edit`).type('form')
      .send({ _token: formToken(edit.text), _version: version, name: 'Ursula K.' }).expect(303);
    expect((await alice.get(at).expect(200)).text).toContain('Ursula K.');
    await alice.get('/admin/authors/not-a-uuid').expect(404);
  });
});
