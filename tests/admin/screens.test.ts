/**
 * The back office over HTTP (supertest on the demo kernel), on a MemoryState and on a real
 * SQLite file: every screen with its data, sort, search, filters, pages, the forms' validation
 * (the API's messages, 422, values kept), Post/Redirect/Get with flash messages, optimistic
 * locking, deletes, CSRF refusals that change nothing, the audit log (kept in the change's own
 * transaction: a failing audit insert keeps neither), and one query for a page's related items.
 */
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { sql } from 'kysely';
import type { DatabaseData } from '../../src/profiler/collectors/DatabaseCollector';
import type { LoggerData } from '../../src/profiler/collectors/LoggerCollector';
import {
  flashesOf, loggedIn, rowsOf, STORES, titlesOf, tokenFrom, tokenOf, unescape, type Demo,
} from './backOffice';
import { scaled } from '../helpers/timeScale';

// a test makes up to 20 requests through the layers (SQLite sessions and store): on a loaded
// 2-core machine that can pass jest's 5 s default (seen once in a run of every suite at once)
jest.setTimeout(scaled(30_000));

describe.each(STORES)('the back office on %s', (_name, open) => {
  let demo: Demo;
  let admin: TestAgent;

  beforeEach(async () => {
    demo = await open();
    admin = await loggedIn(demo.kernel);
  });
  afterEach(() => demo.close());

  const book = async (id: number): Promise<Record<string, unknown> | undefined> => {
    const r = demo.kernel.resources.find((x) => x.shortName === 'Book')!;
    return (await r.provider!.provideItem(r.metadata, id))?.data;
  };
  const bookCount = async (): Promise<number> => {
    const r = demo.kernel.resources.find((x) => x.shortName === 'Book')!;
    const page = await r.provider!.provideCollection(r.metadata,
      { conditions: [], order: [], page: 1, itemsPerPage: 1, partial: false });
    return page.totalItems!;
  };
  const addBooks = async (n: number): Promise<void> => {
    const r = demo.kernel.resources.find((x) => x.shortName === 'Book')!;
    for (let i = 1; i <= n; i++) {
      await r.processor!.create(r.metadata, { title: `Volume ${String(i).padStart(2, '0')}`, featured: false });
    }
  };

  describe('GET screens', () => {
    test('the dashboard lists each resource with its count and a link, and says there is no change yet', async () => {
      const res = await admin.get('/admin').expect(200).expect('Content-Type', /text\/html/);
      expect(res.text).toMatch(/<a href="\/admin\/books">Books<\/a> <span class="count">3 items<\/span>/);
      expect(res.text).toMatch(/<a href="\/admin\/authors">Authors<\/a> <span class="count">3 items<\/span>/);
      expect(res.text).toContain('No change yet.');
      expect(res.text).toContain('<html lang="en">');
    });

    test('the index is a table of the books with the author\'s name linked and yes/no for featured', async () => {
      const res = await admin.get('/admin/books').expect(200);
      expect(titlesOf(res.text)).toEqual(['Dune', 'Hyperion', 'Solaris']);
      const dune = rowsOf(res.text)[0];
      expect(dune.slice(1, 8)).toEqual(['1', 'Dune', expect.any(String), 'Aug 1, 1965', expect.any(String), 'Yes',
        'Frank Herbert (#1)']);
      expect(res.text).toContain('<a href="/admin/authors/1">Frank Herbert (#1)</a>');
      expect(res.text).toContain('<caption>3 items</caption>');
    });

    test('the detail page shows every field; an unknown id is a 404', async () => {
      const res = await admin.get('/admin/books/3').expect(200);
      expect(res.text).toContain('<h1>Solaris (#3)</h1>');
      expect(res.text).toMatch(/<dt>Author<\/dt><dd><a href="\/admin\/authors\/3">Stanisław Lem \(#3\)<\/a><\/dd>/);
      await admin.get('/admin/books/999').expect(404);
      await admin.get('/admin/books/abc').expect(404);
    });

    test('the new form has a control per field: text, number, checkbox, date, a select of authors', async () => {
      const res = await admin.get('/admin/books/new').expect(200);
      expect(res.text).toMatch(/<label for="field-title">Title <span class="required">\*/);
      expect(res.text).toMatch(/<input type="text" id="field-title" name="title" aria-required="true"/);
      expect(res.text).toMatch(/<input type="number" id="field-price" name="price"[^>]*step="0.01">/);
      expect(res.text).toMatch(/<input type="checkbox" id="field-featured" name="featured" value="1"/);
      expect(res.text).toMatch(/<input type="date" id="field-publishedAt" name="publishedAt"/);
      expect(res.text).toMatch(/<select id="field-author" name="author"/);
      expect(res.text).toContain('<option value="1">Frank Herbert (#1)</option>');
      expect(res.text).toMatch(/name="_token" value="[0-9a-f]{32,}"/);
      expect(res.text).not.toContain('name="_version"');
    });

    test('the edit form holds the stored values and version; the delete page asks first', async () => {
      const edit = await admin.get('/admin/books/1/edit').expect(200);
      expect(edit.text).toMatch(/name="title"[^>]* value="Dune"/);
      expect(edit.text).toContain('<option value="1" selected>Frank Herbert (#1)</option>');
      expect(edit.text).toMatch(/name="featured" value="1" role="switch" checked/);
      expect(edit.text).toContain('name="_version" value="1"');
      const del = await admin.get('/admin/books/1/delete').expect(200);
      expect(del.text).toContain('This deletes Dune (#1) for good.');
      expect(await book(1)).toMatchObject({ title: 'Dune' });
    });

    test('pages are in French for a French client, and the stylesheet is served as CSS', async () => {
      const res = await admin.get('/admin').set('Accept-Language', 'fr').expect(200);
      expect(res.text).toContain('<html lang="fr">');
      expect(res.text).toContain('Tableau de bord');
      expect(res.text).toContain('Aucune modification pour l’instant.');
      const css = await admin.get('/bundles/admin/admin.css').expect(200).expect('Content-Type', /text\/css/);
      expect(css.text).toContain('@media (max-width: 40rem)');
    });
  });

  describe('index: sort, search, filters, pages', () => {
    test('?sort=title&direction=desc sorts and says so with aria-sort; the header links to the other way', async () => {
      const res = await admin.get('/admin/books?sort=title&direction=desc').expect(200);
      expect(titlesOf(res.text)).toEqual(['Solaris', 'Hyperion', 'Dune']);
      expect(res.text).toMatch(/<th scope="col" aria-sort="descending">\s*<a href="\/admin\/books\?sort=title&amp;direction=asc"/);
      expect(res.text).toMatch(/<th scope="col" aria-sort="none">\s*<a href="\/admin\/books\?sort=price&amp;direction=asc"/);
      await admin.get('/admin/books?sort=nope').expect(400);
      await admin.get('/admin/books?sort=title&direction=up').expect(400);
    });

    test('?query= searches the text fields, case-insensitively, any of them', async () => {
      expect(titlesOf((await admin.get('/admin/books?query=HYPER').expect(200)).text)).toEqual(['Hyperion']);
      // the isbn column is searched too: only Dune's (9780441172719) contains 0441
      expect(titlesOf((await admin.get('/admin/books?query=0441').expect(200)).text)).toEqual(['Dune']);
      expect((await admin.get('/admin/books?query=zzz').expect(200)).text).toContain('Nothing found.');
      expect(titlesOf((await admin.get('/admin/authors?query=lem').expect(200)).text)).toEqual(['Stanisław Lem']);
    });

    test('empty filter fields never stay in the URL: 303 to the list without them, filters, sort and page kept', async () => {
      const res = await admin.get('/admin/books?query=&featured=true&price%5Bgte%5D=&author=&sort=title&direction=desc&page=1')
        .expect(303);
      expect(res.headers.location).toBe('/admin/books?featured=true&sort=title&direction=desc&page=1');
      expect(titlesOf((await admin.get(res.headers.location).expect(200)).text)).toEqual(['Dune']);
      expect((await admin.get('/admin/books?title=&author=').expect(303)).headers.location).toBe('/admin/books');
    });

    test('the resource\'s filters apply; a bad value is a 400', async () => {
      const featured = await admin.get('/admin/books?featured=true').expect(200);
      expect(titlesOf(featured.text)).toEqual(['Dune']);
      expect(featured.text).toMatch(/<option value="true" selected>Yes<\/option>/);
      expect(titlesOf((await admin.get('/admin/books?author=2').expect(200)).text)).toEqual(['Hyperion']);
      await admin.get('/admin/books?featured=maybe').expect(400);
      await admin.get('/admin/books?nope=1').expect(400);
    });

    test('?page= pages by 20, links keep the sort and search; past the last page is a 400', async () => {
      await addBooks(25);
      const first = await admin.get('/admin/books?query=volume&sort=title&direction=desc').expect(200);
      expect(titlesOf(first.text)).toHaveLength(20);
      expect(titlesOf(first.text)[0]).toBe('Volume 25');
      expect(first.text).toContain('Page 1 of 2');
      expect(first.text).toContain('href="/admin/books?query=volume&amp;sort=title&amp;direction=desc&amp;page=2" rel="next"');
      const second = await admin.get('/admin/books?query=volume&sort=title&direction=desc&page=2').expect(200);
      expect(titlesOf(second.text)).toEqual(['Volume 05', 'Volume 04', 'Volume 03', 'Volume 02', 'Volume 01']);
      expect(second.text).toContain('rel="prev"');
      await admin.get('/admin/books?page=3&query=volume').expect(400);
      await admin.get('/admin/books?page=0').expect(400);
    });
  });

  describe('forms', () => {
    test('a create with errors is a 422 with the API\'s messages next to the fields, values kept; then 303 and a flash', async () => {
      const form = await admin.get('/admin/books/new').expect(200);
      const _token = tokenOf(form.text);
      const bad = await admin.post('/admin/books/new').type('form')
        .send({ _token, title: '  ', isbn: 'nope<b>', price: '-3', author: '2' }).expect(422);
      expect(bad.text).toMatch(/<input type="text" id="field-title" name="title" aria-required="true" aria-invalid="true" aria-describedby="error-title" value=" {2}">/);
      expect(bad.text).toMatch(/id="field-isbn" name="isbn" aria-invalid="true" aria-describedby="help-isbn error-isbn" value="nope&lt;b&gt;"/);
      expect(bad.text).toContain('<div class="error" id="error-isbn"><p>Expected an ISBN-10 or ISBN-13.</p></div>');
      expect(bad.text).toMatch(/id="error-price"><p>Too small: expected number to be &gt;=0<\/p>/);
      expect(bad.text).toContain('<option value="2" selected>Dan Simmons (#2)</option>');
      expect(bad.text).toContain('role="alert"');
      // the API answers the same messages
      const basic = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
      const api = await request(demo.kernel).post('/api/books').set('Authorization', basic)
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json').send({ title: '  ', isbn: 'nope<b>', price: -3 }).expect(422);
      const messages = (api.body as { violations: Array<{ message: string }> }).violations.map((v) => v.message);
      for (const m of messages) expect(unescape(bad.text)).toContain(m);
      expect(await bookCount()).toBe(3);

      const good = await admin.post('/admin/books/new').type('form')
        .send({ _token, title: 'Ubik', isbn: '978-0-547-57229-1', price: '9,5', publishedAt: '1969-05-01', author: '3',
          featured: '1' }).expect(303);
      expect(good.headers.location).toBe('/admin/books/4');
      expect(await book(4)).toMatchObject({ title: 'Ubik', price: 9.5, author: 3, featured: true });
      const page = await admin.get('/admin/books/4').expect(200);
      expect(flashesOf(page.text)).toEqual(['Ubik (#4) was created.']);
      expect(flashesOf((await admin.get('/admin/books/4').expect(200)).text)).toEqual([]); // shown once
    });

    test('an edit saves (303, flash) and the audit log names the changed fields', async () => {
      const form = await admin.get('/admin/books/2/edit').expect(200);
      const res = await admin.post('/admin/books/2/edit').type('form')
        .send({ _token: tokenOf(form.text), _version: '1', title: 'Hyperion (new)', isbn: '', publishedAt: '1989-05-26',
          price: '', author: '2' }).expect(303);
      expect(res.headers.location).toBe('/admin/books/2');
      expect(await book(2)).toMatchObject({ title: 'Hyperion (new)', price: null, featured: false });
      const dashboard = await admin.get('/admin').expect(200);
      // the item by its label, each changed field by its label with the old and new values
      expect(rowsOf(dashboard.text)[0].slice(1)).toEqual(['admin', 'updated', 'Hyperion (new) (#2)',
        'Title: Hyperion → Hyperion (new)ISBN: 9780553283686 → —Price: €8.99 → —']);
    });

    test('a stale edit (an older _version) is a 409 with a conflict message and overwrites nothing', async () => {
      const form = await admin.get('/admin/books/1/edit').expect(200);
      const _token = tokenOf(form.text);
      await admin.post('/admin/books/1/edit').type('form')
        .send({ _token, _version: '1', title: 'Dune (first)', author: '1', featured: '1' }).expect(303);
      const stale = await admin.post('/admin/books/1/edit').type('form')
        .send({ _token, _version: '1', title: 'Dune (second)', author: '1' }).expect(409);
      expect(stale.text).toContain('Someone else changed this item since you opened the form; nothing was saved.');
      expect(stale.text).toMatch(/value="Dune \(second\)"/);
      expect(await book(1)).toMatchObject({ title: 'Dune (first)', featured: true });
      await admin.post('/admin/books/1/edit').type('form').send({ _token, title: 'x' }).expect(409); // no version
    });

    test('delete: the confirmation page\'s POST deletes (303 to the index, flash); a referenced author is a 409', async () => {
      const page = await admin.get('/admin/books/3/delete').expect(200);
      const res = await admin.post('/admin/books/3/delete').type('form')
        .send({ _token: tokenOf(page.text), _version: '1' }).expect(303);
      expect(res.headers.location).toBe('/admin/books');
      expect(await book(3)).toBeUndefined();
      const index = await admin.get('/admin/books').expect(200);
      expect(flashesOf(index.text)).toEqual(['Solaris (#3) was deleted.']);
      expect(titlesOf(index.text)).toEqual(['Dune', 'Hyperion']);
      const author = await admin.get('/admin/authors/1/delete').expect(200);
      const refused = await admin.post('/admin/authors/1/delete').type('form')
        .send({ _token: tokenOf(author.text), _version: '1' }).expect(409);
      // the count of referrers and a link to them, whatever the store
      expect(refused.text).toContain('Frank Herbert (#1) cannot be deleted: 1 item of Books (Author) refers to it.');
      expect(refused.text).toContain('<a href="/admin/books?author=1">See them in the list');
    });

    test('batch delete deletes the checked rows and names those it kept', async () => {
      const index = await admin.get('/admin/authors').expect(200);
      const _token = tokenOf(index.text);
      // the first POST asks, naming the items that exist; nothing is deleted yet
      const asked = await admin.post('/admin/books/batch-delete').type('form')
        .send(`_token=${_token}&ids=2&ids=3&ids=99`).expect(200);
      expect(await bookCount()).toBe(3);
      expect(asked.text).toContain('These 2 items will be deleted for good:');
      expect(asked.text).toMatch(/<li>Hyperion \(#2\)<\/li>\s*<li>Solaris \(#3\)<\/li>/);
      await admin.post('/admin/books/batch-delete').type('form')
        .send(`_token=${_token}&ids=2&ids=3&ids=99&_confirmed=1`).expect(303);
      expect(await bookCount()).toBe(1);
      expect(flashesOf((await admin.get('/admin/books').expect(200)).text))
        .toEqual(['2 items were deleted: Hyperion (#2), Solaris (#3).']);
      const res = await admin.post('/admin/authors/batch-delete').type('form')
        .send(`_token=${_token}&ids=1&ids=2&_confirmed=1`).expect(303);
      expect(res.headers.location).toBe('/admin/authors');
      const after = await admin.get('/admin/authors').expect(200);
      expect(flashesOf(after.text)).toEqual(['1 item was deleted: Dan Simmons (#2). Not deleted: Frank Herbert (#1).']);
      expect(titlesOf(after.text)).toEqual(['Frank Herbert', 'Stanisław Lem']);
      await admin.post('/admin/authors/batch-delete').type('form').send({ _token }).expect(303);
      expect(flashesOf((await admin.get('/admin/authors')).text)).toEqual(['No item was selected.']);
    });
  });

  describe('CSRF', () => {
    test('a missing or wrong _token is a 403 and stores, changes and deletes nothing', async () => {
      const token = await tokenFrom(admin);
      // the token with its last character changed (a fixed '0' was the token itself when it ended in 0)
      const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
      expect(wrong).not.toBe(token);
      const posts: Array<[string, Record<string, string>]> = [
        ['/admin/books/new', { title: 'Forged' }],
        ['/admin/books/1/edit', { _version: '1', title: 'Forged', author: '1' }],
        ['/admin/books/1/delete', { _version: '1' }],
        ['/admin/books/batch-delete', { ids: '2' }],
      ];
      for (const [url, fields] of posts) {
        await admin.post(url).type('form').send(fields).expect(403);
        await admin.post(url).type('form').send({ ...fields, _token: wrong }).expect(403);
        await admin.post(url).type('form').send(`_token=${token}&_token=${token}&title=Forged`).expect(403);
      }
      expect(await bookCount()).toBe(3);
      expect(await book(1)).toMatchObject({ title: 'Dune' });
      expect((await admin.get('/admin').expect(200)).text).toContain('No change yet.');
    });
  });

  describe('audit', () => {
    test('each create, update and delete is logged through req.log (the Logs panel) and listed, newest first', async () => {
      const _token = await tokenFrom(admin, '/admin/authors/new');
      const created = await admin.post('/admin/authors/new').type('form')
        .send({ _token, name: 'Ursula K. Le Guin', birthDate: '1929-10-21' }).expect(303);
      const profile = await demo.kernel.profiler!.storage.read(String(created.headers['x-debug-token']));
      const logger = profile?.collectors.logger as LoggerData;
      const record = logger.records.find((r) => r.msg.startsWith('admin:'));
      expect(record?.msg).toBe('admin: Author 4 created by admin');
      expect(record?.context.audit).toMatchObject({
        username: 'admin', action: 'create', resource: 'Author', itemId: 4, label: 'Ursula K. Le Guin (#4)',
        changes: [{ field: 'name', to: 'Ursula K. Le Guin' }, { field: 'birthDate', to: '1929-10-21' }],
      });
      await admin.post('/admin/authors/4/edit').type('form').send({ _token, _version: '1', name: 'Ursula Le Guin' })
        .expect(303);
      await admin.post('/admin/authors/4/delete').type('form').send({ _token, _version: '2' }).expect(303);
      const dashboard = await admin.get('/admin').expect(200);
      expect(rowsOf(dashboard.text).map((r) => r.slice(1))).toEqual([
        // gone: its last label, no link
        ['admin', 'deleted', 'Ursula Le Guin (#4)', 'Name: Ursula Le Guin'],
        ['admin', 'updated', 'Ursula Le Guin (#4)', 'Name: Ursula K. Le Guin → Ursula Le GuinBorn on: October 21, 1929 → —'],
        ['admin', 'created', 'Ursula Le Guin (#4)', 'Name: Ursula K. Le GuinBorn on: October 21, 1929'],
      ]);
      if (demo.sql !== undefined) {
        const rows = await demo.sql.db.selectFrom('audit_log').selectAll().orderBy('id').execute();
        expect(rows.map((r) => [r.action, r.resource, r.itemId, r.username])).toEqual([
          ['create', 'Author', '4', 'admin'], ['update', 'Author', '4', 'admin'], ['delete', 'Author', '4', 'admin'],
        ]);
      }
    });
  });

  describe('queries', () => {
    test('the index reads the related authors of a page in one query, however many there are', async () => {
      const authors = demo.kernel.resources.find((x) => x.shortName === 'Author')!;
      const books = demo.kernel.resources.find((x) => x.shortName === 'Book')!;
      for (let i = 1; i <= 15; i++) {
        const author = await authors.processor!.create(authors.metadata, { name: `Author ${i}`, birthDate: null });
        if (author.status !== 'ok') throw new Error(author.status);
        await books.processor!.create(books.metadata, { title: `Book ${i}`, featured: false, author: author.item.id });
      }
      const res = await admin.get('/admin/books').expect(200);
      expect(rowsOf(res.text)).toHaveLength(18);
      expect(res.text).toContain('Author 15');
      const profile = await demo.kernel.profiler!.storage.read(String(res.headers['x-debug-token']));
      const { queries } = profile?.collectors.database as Extract<DatabaseData, { enabled: true }>;
      const ofAuthors = queries.filter((q) => /\bauthors\b|memory: Author /.test(q.sql));
      // the author filter's choices, then the labels of the page's 18 authors (were 18 queries, one per id)
      expect(ofAuthors.map((q) => q.rows)).toEqual([18, 18]);
      expect(ofAuthors).toHaveLength(2);
    });
  });
});

describe('the audit entry and the change it records are kept together, or neither (SQLite)', () => {
  let demo: Demo;
  let admin: TestAgent;
  beforeEach(async () => {
    demo = await STORES[1][1]();
    admin = await loggedIn(demo.kernel);
    // the audit store fails on insert from now on, as a full or broken audit table would
    await sql`create trigger audit_down before insert on audit_log begin select raise(abort, 'audit log down'); end`
      .execute(demo.sql!.db);
  });
  afterEach(() => demo.close());

  const stored = async (table: string): Promise<number> =>
    Number((await demo.sql!.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

  test('a failing audit insert keeps neither the edit nor the entry: the form again, 503, values kept, no stack', async () => {
    const form = await admin.get('/admin/books/2/edit').expect(200);
    const res = await admin.post('/admin/books/2/edit').type('form')
      .send({ _token: tokenOf(form.text), _version: '1', title: 'Hyperion (lost)', author: '2' });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(unescape(res.text)).toContain('Nothing was saved: the audit log cannot be written right now.');
    expect(res.text).toContain('value="Hyperion (lost)"');
    expect(res.text).not.toMatch(/at \S+ \(|SQLITE_|audit log down/); // no stack, no driver message
    const item = await demo.sql!.provider.provideItem(demo.kernel.resources[0].metadata, 2);
    expect(item).toMatchObject({ version: 1, data: { title: 'Hyperion' } });
    expect(await stored('audit_log')).toBe(0);
  });

  test('neither a create, a delete nor a batch delete is kept without its entry', async () => {
    const _token = await tokenFrom(admin, '/admin/authors/new');
    const books = await stored('books');
    const authors = await stored('authors');
    const created = await admin.post('/admin/authors/new').type('form').send({ _token, name: 'Stanisław Lem' });
    expect(created.status).toBe(503);
    const removed = await admin.post('/admin/books/3/delete').type('form').send({ _token, _version: '1' });
    expect(removed.status).toBe(503);
    expect(unescape(removed.text)).toContain('Nothing was saved');
    const batch = await admin.post('/admin/books/batch-delete').type('form').send(`_token=${_token}&ids=1&ids=2&_confirmed=1`)
      .expect(303);
    const index = await admin.get(batch.headers.location).expect(200);
    expect(flashesOf(index.text)).toEqual([expect.stringContaining('No item was deleted. The audit log cannot be written')]);
    expect([await stored('books'), await stored('authors'), await stored('audit_log')]).toEqual([books, authors, 0]);
    // once the audit log works again, so do changes, each with its entry
    await sql`drop trigger audit_down`.execute(demo.sql!.db);
    await admin.post('/admin/books/3/delete').type('form').send({ _token, _version: '1' }).expect(303);
    expect([await stored('books'), await stored('audit_log')]).toEqual([books - 1, 1]);
  });
});

describe('the back office in debug mode', () => {
  test('the profiler toolbar is injected into pages of a session (express-session splits what it ends)', async () => {
    const demo = await STORES[0][1]();
    try {
      const admin = await loggedIn(demo.kernel);
      for (const url of ['/admin', '/admin/books', '/admin/books/1/edit', '/admin/login']) {
        const res = await admin.get(url).expect(200);
        const token = String(res.headers['x-debug-token']);
        expect(res.text).toContain(`<script src="/_wdt/toolbar.js" data-token="${token}"`);
        expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
      }
    } finally {
      await demo.close();
    }
  });
});
