/**
 * The API layer over real HTTP (supertest), on the demo's Book and Author resources (issue 9,
 * points 1–8 and 12): routing, formats, hypermedia, pagination, filters, writes, caching.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { SqlStore } from '../../src/api/sql/createSqlState';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { has } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';

const basic = (user: string, pass: string): string => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
const ADMIN = basic('admin', 'admin');
const USER = basic('user', 'user');
const MERGE = 'application/merge-patch+json';
const JSON_TYPE = 'application/json';

let kernel: DemoKernel;
let dir: string;
let n = 0;
/** A throwaway PostgreSQL server for the PostgreSQL cases (when Debian's postgresql is installed). */
let postgres: TestPostgres | undefined;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-api-'));
  if (WITH_POSTGRES) postgres = await startPostgres();
}, scaled(60_000));
afterAll(async () => {
  await postgres?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** postgresql: apt-get install -y postgresql (skipped with one line when missing; CI=true requires it) */
const WITH_POSTGRES = has('postgresql');

/**
 * Each case on a fresh demo: the in-memory store, the SQL store on a new SQLite file, and (with
 * Debian's postgresql) on a new PostgreSQL database: migrated and seeded by the demo's own start-up.
 */
const STORES: Array<[string, () => Promise<SqlStore | undefined>]> = [
  ['MemoryState', () => Promise.resolve(undefined)],
  ['SQLite file', () => openDemoDatabase({ SQLITE_PATH: path.join(dir, `demo-${++n}.sqlite`) })],
  ...(WITH_POSTGRES ? [['PostgreSQL', async () => openDemoDatabase({
    DATABASE_URL: await postgres!.createDatabase(`demo_${++n}`),
  })] as [string, () => Promise<SqlStore | undefined>]] : []),
];

const create = async (body: object, auth = USER) => request(kernel).post('/api/books').set('Authorization', auth).send(body);

describe.each(STORES)('on %s', (_name, open) => {
  let database: SqlStore | undefined;
  beforeEach(async () => {
    database = await open();
    kernel = createDemoKernel({ debug: false, ...(database !== undefined ? { store: database } : {}) });
  });
  afterEach(async () => { await kernel.close(); await database?.close(); });

  describe('1–2. resources register routes in the routing table', () => {
    test('the Book operations keep the reference names, paths, methods and requirements', () => {
      const table = Object.fromEntries(kernel.routeCollection.all().map(([name, r]) => [name, [r.path, r.methods.join('|'), r.requirements]]));
      expect(table.api_entrypoint).toEqual(['/api', 'GET', {}]);
      // each with API Platform's optional format suffix (`{._format}`: `_format` defaults to null)
      expect(table.book_list).toEqual(['/api/books.{_format}', 'GET', {}]);
      expect(table.book_create).toEqual(['/api/books.{_format}', 'POST', {}]);
      expect(table.book_show).toEqual(['/api/books/{id}.{_format}', 'GET', { id: '\\d+' }]);
      expect(table.book_update).toEqual(['/api/books/{id}.{_format}', 'PUT|PATCH', {}]);
      expect(table.book_delete).toEqual(['/api/books/{id}.{_format}', 'DELETE', {}]);
      expect(kernel.routeCollection.get('book_show')?.defaults).toEqual({ _format: null });
      const names = kernel.routeCollection.all().map(([n]) => n);
      expect(names.slice(0, 7)).toEqual(['home', 'api_entrypoint', 'book_list', 'book_create', 'book_show', 'book_update', 'book_delete']);
    });

    test('an unknown path is a 404 and a wrong method a 405, whatever the credentials', async () => {
      for (const auth of [undefined, USER, ADMIN]) {
        let r = request(kernel).delete('/api/books');
        if (auth !== undefined) r = r.set('Authorization', auth);
        const res = await r;
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, POST');
        let n = request(kernel).get('/api/bookz');
        if (auth !== undefined) n = n.set('Authorization', auth);
        expect((await n).status).toBe(404);
      }
    });

    test('PUT /api/books/abc matches book_update and answers 404: nothing is created', async () => {
      const res = await request(kernel).put('/api/books/abc').set('Authorization', USER).send({ title: 'X' });
      expect(res.status).toBe(404);
      const list = await request(kernel).get('/api/books').set('Accept', JSON_TYPE);
      expect(list.body.map((b: { title: string }) => b.title)).not.toContain('X');
    });

    test('security runs after the match and before the body is read: an anonymous write is the Basic challenge', async () => {
      const res = await request(kernel).post('/api/books').set('Content-Type', JSON_TYPE).send('{"malformed":');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="Secured Area"');
      expect(res.headers.vary).toMatch(/Accept/);
    });
  });

  describe('3. formats by content negotiation', () => {
    test.each([
      [undefined, 'application/ld+json'],
      ['*/*', 'application/ld+json'],
      ['application/ld+json', 'application/ld+json'],
      ['application/hal+json', 'application/hal+json'],
      ['application/json', 'application/json'],
      ['application/json;q=0.5, application/hal+json', 'application/hal+json'],
    ])('Accept %s → %s, with Vary: Accept', async (accept, type) => {
      let r = request(kernel).get('/api/books/1');
      if (accept !== undefined) r = r.set('Accept', accept);
      const res = await r;
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(`${type}; charset=utf-8`);
      expect(res.headers.vary).toMatch(/\bAccept\b/);
    });

    test('a client accepting only HTML gets the documentation page; an unacceptable type is a 406', async () => {
      const html = await request(kernel).get('/api/books').set('Accept', 'text/html,application/xhtml+xml;q=0.9');
      expect(html.status).toBe(200);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.text).toContain('/api/docs');
      const no = await request(kernel).get('/api/books').set('Accept', 'text/csv');
      expect(no.status).toBe(406);
      expect(no.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(no.body.detail).toContain('text/csv');
      expect(no.headers.vary).toMatch(/Accept/);
    });

    test('plain JSON: relations as IRIs, no JSON-LD keys', async () => {
      const res = await request(kernel).get('/api/books/1').set('Accept', JSON_TYPE);
      expect(res.body).toEqual({
        id: 1, title: 'Dune', isbn: '9780441172719', publishedAt: '1965-08-01', price: 9.99, featured: true, author: '/api/authors/1',
      });
    });

    test('HAL: _links.self and relations as links', async () => {
      const res = await request(kernel).get('/api/books/1').set('Accept', 'application/hal+json');
      expect(res.body._links).toEqual({ self: { href: '/api/books/1' }, author: { href: '/api/authors/1' } });
      expect(res.body.author).toBeUndefined();
    });
  });

  describe('4. hypermedia', () => {
    test('GET /api is the entrypoint with a link per collection', async () => {
      const res = await request(kernel).get('/api');
      expect(res.body).toEqual({
        '@context': '/api/contexts/Entrypoint', '@id': '/api', '@type': 'Entrypoint', book: '/api/books', author: '/api/authors',
      });
    });

    test('items carry @id, @type and relations as IRIs; contexts and the Hydra documentation are served', async () => {
      const res = await request(kernel).get('/api/books/2');
      expect(res.body).toMatchObject({ '@context': '/api/contexts/Book', '@id': '/api/books/2', '@type': 'Book', author: '/api/authors/2' });
      const ctx = await request(kernel).get('/api/contexts/Book');
      expect(ctx.body['@context'].author).toEqual({ '@id': 'Book/author', '@type': '@id' });
      expect((await request(kernel).get('/api/contexts/Nope')).status).toBe(404);
      const docs = await request(kernel).get('/api/docs.jsonld');
      expect(docs.body['@type']).toBe('hydra:ApiDocumentation');
      expect(docs.body['hydra:supportedClass'].map((c: { '@id': string }) => c['@id'])).toEqual(expect.arrayContaining(['#Book', '#Author']));
    });
  });

  describe('5. pagination', () => {
    beforeEach(async () => {
      for (let i = 0; i < 7; i++) expect((await create({ title: `Book ${i}` })).status).toBe(201);
    });

    test('page and itemsPerPage; the view links first, last, previous, next; totalItems', async () => {
      const res = await request(kernel).get('/api/books?itemsPerPage=4&page=2');
      expect(res.body['hydra:totalItems']).toBe(10);
      expect(res.body['hydra:member']).toHaveLength(4);
      expect(res.body['hydra:view']).toEqual({
        '@id': '/api/books?itemsPerPage=4&page=2', '@type': 'hydra:PartialCollectionView',
        'hydra:first': '/api/books?itemsPerPage=4&page=1', 'hydra:last': '/api/books?itemsPerPage=4&page=3',
        'hydra:previous': '/api/books?itemsPerPage=4&page=1', 'hydra:next': '/api/books?itemsPerPage=4&page=3',
      });
    });

    test('HAL has _links of the same names; plain JSON an RFC 8288 Link header', async () => {
      const hal = await request(kernel).get('/api/books?itemsPerPage=4&page=2').set('Accept', 'application/hal+json');
      expect(Object.keys(hal.body._links)).toEqual(['self', 'first', 'last', 'prev', 'next', 'item']);
      expect(hal.body._embedded.item).toHaveLength(4);
      const json = await request(kernel).get('/api/books?itemsPerPage=4&page=2').set('Accept', JSON_TYPE);
      // the API documentation's link first (every API response has it), then the page links
      const [docs, ...pages] = json.headers.link.split(', ');
      expect(docs).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/api\/docs\.jsonld>; rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"$/);
      expect(pages.join(', ')).toBe('</api/books?itemsPerPage=4&page=1>; rel="first", </api/books?itemsPerPage=4&page=1>; rel="prev", '
        + '</api/books?itemsPerPage=4&page=3>; rel="next", </api/books?itemsPerPage=4&page=3>; rel="last"');
    });

    test('partial mode: no count and no last page, only next', async () => {
      const res = await request(kernel).get('/api/books?partial=true&itemsPerPage=4');
      expect(res.body['hydra:totalItems']).toBeUndefined();
      expect(res.body['hydra:view']['hydra:last']).toBeUndefined();
      // the query as the client sent it, page last (API Platform's IriHelper)
      expect(res.body['hydra:view']['hydra:next']).toBe('/api/books?partial=true&itemsPerPage=4&page=2');
    });

    // API Platform: a page past the last is an empty page, itemsPerPage is clamped (0: the count
    // alone), a repeated page is the last one, an unreadable itemsPerPage or partial is ignored
    test.each([
      ['page=5', 0], ['itemsPerPage=0', 0], ['itemsPerPage=101', 10], ['itemsPerPage=x', 10], ['page=1&page=2', 0],
      ['partial=maybe', 10],
    ])('?%s is a 200 with %d books (API Platform)', async (query, count) => {
      const res = await request(kernel).get(`/api/books?${query}`).set('Accept', JSON_TYPE);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(count);
    });

    test.each([
      ['page=0', 'page'], ['page=-1', 'page'], ['page=abc', 'page'], ['page=1.5', 'page'], ['page=99999999999', 'page'],
      ['itemsPerPage=-1', 'itemsPerPage'], ['itemsPerPage=0&page=2', 'page'],
    ])('?%s is a 400 naming %s', async (query, named) => {
      const res = await request(kernel).get(`/api/books?${query}`).set('Accept', JSON_TYPE);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.detail).toContain(named);
    });
  });

  describe('6. filters', () => {
    const titles = async (query: string): Promise<string[]> => {
      const res = await request(kernel).get(`/api/books?${query}`).set('Accept', JSON_TYPE);
      expect(res.status).toBe(200);
      return res.body.map((b: { title: string }) => b.title);
    };

    test.each([
      ['title=dun', ['Dune']],
      ['title[]=dune&title[]=sol', ['Dune', 'Solaris']],
      ['isbn=9780553283686', ['Hyperion']],
      ['author=/api/authors/3', ['Solaris']],
      ['author=3', ['Solaris']],
      ['order[price]=desc', ['Solaris', 'Dune', 'Hyperion']],
      ['price[gt]=9', ['Dune', 'Solaris']],
      ['price[between]=9..10', ['Dune']],
      ['featured=true', ['Dune']],
      ['featured=0', ['Hyperion', 'Solaris']],
      ['publishedAt[before]=1965-08-01', ['Dune', 'Solaris']],
      ['publishedAt[strictly_after]=1965-08-01', ['Hyperion']],
      ['exists[author]=false', []],
      ['order[title]=desc&price[lte]=10', ['Hyperion', 'Dune']],
    ])('?%s → %j', async (query, expected) => {
      expect(await titles(query)).toEqual(expected);
    });

    test('the search template is documented in Hydra', async () => {
      const res = await request(kernel).get('/api/books');
      expect(res.body['hydra:search']['hydra:template']).toMatch(/^\/api\/books\{\?title,title\[\],isbn/);
    });

    // API Platform's filters ignore what they cannot read (strictQueryParameterValidation makes
    // these 400s: tests/api/wire/collections.test.ts)
    test.each([
      ['nope=1'], ['titel=x'], ['order[isbn]=asc'], ['order[title]=up'], ['price[gt]=cheap'], ['price[between]=1'],
      ['featured=yes'], ['publishedAt[after]=2020-02-30'], ['exists[author]=maybe'], ['author=/api/books/1'], ['title='],
      ['%ZZ=1'], ['title[x][y]=1'],
    ])('?%s is ignored: every book', async (query) => {
      expect(await titles(query)).toEqual(['Dune', 'Hyperion', 'Solaris']);
    });
  });

  describe('7. writes', () => {
    test('POST: 201 with Location, Content-Location and the item', async () => {
      const res = await create({ title: 'Neuromancer', price: 7, author: '/api/authors/1', publishedAt: '1984-07-01' });
      expect(res.status).toBe(201);
      expect(res.headers.location).toMatch(/^\/api\/books\/\d+$/);
      expect(res.headers['content-location']).toBe(res.headers.location);
      expect(res.body).toMatchObject({ '@id': res.headers.location, title: 'Neuromancer', author: '/api/authors/1', featured: false });
    });

    test('readOnly id in the body is ignored', async () => {
      const res = await create({ id: 77, title: 'Id ignored' });
      expect(res.body.id).not.toBe(77);
    });

    test('PUT replaces: absent nullable properties become null', async () => {
      const res = await request(kernel).put('/api/books/3').set('Authorization', USER).send({ title: 'Solaris (new)' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: 3, title: 'Solaris (new)', isbn: null, price: null, author: null, featured: false });
    });

    test('PATCH merges (RFC 7386): null removes, other members stay', async () => {
      const res = await request(kernel).patch('/api/books/2').set('Authorization', USER).set('Content-Type', MERGE)
        .send(JSON.stringify({ price: null, title: 'Hyperion!' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Hyperion!', price: null, isbn: '9780553283686', author: '/api/authors/2' });
    });

    test.each([JSON_TYPE, 'application/ld+json', 'text/plain'])('PATCH with %s is a 415', async (type) => {
      const res = await request(kernel).patch('/api/books/2').set('Authorization', USER).set('Content-Type', type).send('{"title":"x"}');
      expect(res.status).toBe(415);
      expect(res.body['hydra:description']).toContain('application/merge-patch+json');
    });

    test.each(['text/plain', 'application/x-www-form-urlencoded', MERGE])('POST with %s is a 415; nothing is stored', async (type) => {
      const res = await request(kernel).post('/api/books').set('Authorization', USER).set('Content-Type', type).send('{"title":"x"}');
      expect(res.status).toBe(415);
      expect((await request(kernel).get('/api/books/4')).status).toBe(404);
    });

    test('malformed JSON is a 400 whose message does not echo the body', async () => {
      const res = await request(kernel).post('/api/books').set('Authorization', USER).set('Content-Type', JSON_TYPE)
        .set('Accept', JSON_TYPE).send('{"title": "hunter2');
      expect(res.status).toBe(400);
      expect(res.text).not.toContain('hunter2');
    });

    test.each([['[1,2]'], ['"a string"'], ['42']])('a JSON body that is not an object (%s) is a 400', async (body) => {
      const res = await request(kernel).post('/api/books').set('Authorization', USER).set('Content-Type', JSON_TYPE).send(body);
      expect(res.status).toBe(400);
    });

    test('a body over the limit is a 413', async () => {
      const res = await request(kernel).post('/api/books').set('Authorization', USER).set('Content-Type', JSON_TYPE)
        .send(JSON.stringify({ title: 'x'.repeat(200 * 1024) }));
      expect(res.status).toBe(413);
    });

    test('validation: a 422 ConstraintViolationList (JSON-LD) and problem details with violations (JSON)', async () => {
      const ld = await create({ title: '', price: -1, isbn: 'nope', publishedAt: '2020-13-01' });
      expect(ld.status).toBe(422);
      expect(ld.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(ld.body['@type']).toBe('ConstraintViolationList');
      expect(ld.body.violations.map((v: { propertyPath: string }) => v.propertyPath).sort())
        .toEqual(['isbn', 'price', 'publishedAt', 'title']);
      const json = await request(kernel).post('/api/books').set('Authorization', USER).set('Accept', JSON_TYPE).send({});
      expect(json.status).toBe(422);
      expect(json.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json.body).toMatchObject({ status: 422, violations: [{ propertyPath: 'title', code: 'invalid_type' }] });
      expect(typeof json.body.violations[0].message).toBe('string');
    });

    test.each([
      ['/api/authors/999', 'Item not found for "/api/authors/999".'],
      ['/api/books/1', 'Invalid IRI "/api/books/1".'],
      ['not an iri', 'Invalid IRI "not an iri".'],
      ['/api/authors/abc', 'Invalid IRI "/api/authors/abc".'],
    ])('a relation %s that names no author is a 400 (API Platform\'s message); nothing is stored', async (iri, detail) => {
      const res = await create({ title: 'Orphan', author: iri });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(detail);
      const all = await request(kernel).get('/api/books?title=Orphan').set('Accept', JSON_TYPE);
      expect(all.body).toEqual([]);
    });

    test('DELETE: 204; an author a book refers to is a 409', async () => {
      expect((await request(kernel).delete('/api/books/3').set('Authorization', ADMIN)).status).toBe(204);
      expect((await request(kernel).get('/api/books/3')).status).toBe(404);
      const res = await request(kernel).delete('/api/authors/1').set('Authorization', ADMIN).set('Accept', JSON_TYPE);
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('Author 1 cannot be deleted');
    });
  });

  describe('8. HTTP caching and concurrency', () => {
    test('a strong ETag; If-None-Match gives 304', async () => {
      const res = await request(kernel).get('/api/books/1');
      expect(res.headers.etag).toMatch(/^"[^"]+"$/);
      const again = await request(kernel).get('/api/books/1').set('If-None-Match', res.headers.etag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect((await request(kernel).get('/api/books/1').set('If-None-Match', '"other"')).status).toBe(200);
    });

    test.each(['PUT', 'PATCH', 'DELETE'])('%s with a stale If-Match is a 412 and changes nothing', async (method) => {
      const first = await request(kernel).get('/api/books/2');
      const stale = first.headers.etag;
      await request(kernel).patch('/api/books/2').set('Authorization', ADMIN).set('Content-Type', MERGE).send('{"title":"Moved on"}');
      const before = (await request(kernel).get('/api/books/2')).body;
      let r = request(kernel)[method.toLowerCase() as 'put'](`/api/books/2`).set('Authorization', ADMIN).set('If-Match', stale);
      r = method === 'PATCH' ? r.set('Content-Type', MERGE).send('{"title":"Lost"}') : r.send({ title: 'Lost' });
      const res = await r;
      expect(res.status).toBe(412);
      expect((await request(kernel).get('/api/books/2')).body).toEqual(before);
    });

    test('If-Match with the current tag writes; the ETag changes', async () => {
      const first = await request(kernel).get('/api/books/2');
      const res = await request(kernel).patch('/api/books/2').set('Authorization', USER).set('If-Match', first.headers.etag)
        .set('Content-Type', MERGE).send('{"price":1}');
      expect(res.status).toBe(200);
      expect(res.headers.etag).not.toBe(first.headers.etag);
    });

    test('concurrent PATCHes without If-Match lose no update', async () => {
      const patches = Array.from({ length: 6 }, (_, i) => request(kernel).patch('/api/authors/2').set('Authorization', USER)
        .set('Content-Type', MERGE).send(JSON.stringify(i % 2 === 0 ? { name: `Name ${i}` } : { birthDate: `190${i}-01-01` })));
      for (const res of await Promise.all(patches)) expect(res.status).toBe(200);
      const res = await request(kernel).get('/api/authors/2').set('Accept', JSON_TYPE);
      expect(res.headers.etag).toBe('"2-7"');
    });
  });

  describe('12. the demo', () => {
    test('reads are anonymous; writes need ROLE_USER; DELETE and featured: true need ROLE_ADMIN', async () => {
      expect((await request(kernel).get('/api/authors')).status).toBe(200);
      expect((await request(kernel).post('/api/authors').send({ name: 'A' })).status).toBe(401);
      expect((await request(kernel).post('/api/authors').set('Authorization', USER).send({ name: 'A' })).status).toBe(201);
      expect((await create({ title: 'F', featured: true })).status).toBe(403);
      expect((await create({ title: 'F', featured: true }, ADMIN)).status).toBe(201);
      expect((await request(kernel).delete('/api/authors/4').set('Authorization', USER)).status).toBe(403);
      expect((await request(kernel).delete('/api/authors/4').set('Authorization', ADMIN)).status).toBe(204);
    });

    test('seed data on first start: three authors and three books', async () => {
      const res = await request(kernel).get('/api/books');
      expect(res.body['hydra:totalItems']).toBe(3);
      expect((await request(kernel).get('/api/authors')).body['hydra:totalItems']).toBe(3);
    });
  });
});
