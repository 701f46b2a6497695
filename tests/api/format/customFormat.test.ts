/**
 * Adding a format needs no edit in the request path (issue 25, point 4): this file alone
 * declares a small `text/plain` format (one `name: value` line a property) and gives it to
 * `apiRoutes`; items, collections, request bodies, errors, the 406 message and the OpenAPI
 * document all pick it up, on MemoryState, SQLite and PostgreSQL.
 */
import request from 'supertest';
import {
  Delete, FormatRegistry, Get, GetCollection, Post, Put, type Format,
} from '../../../src/api';
import { HttpError } from '../../../src/http/errors';
import type { Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore } from '../http/demoOnEveryStore';
import { booksApiPerTest } from './booksApi';

const TEXT = 'text/plain';

/** `name: value` lines; a collection's items apart by an empty line. */
const lines = (object: Record<string, unknown>): string =>
  Object.entries(object).map(([k, v]) => `${k}: ${v === null ? '~' : JSON.stringify(v).replace(/^"|"$/g, '')}`).join('\n');

const text: Format = {
  name: 'text',
  mimeTypes: [TEXT],
  item: (c) => `${lines(c.normalize(c.item))}\n`,
  collection: (c) => `total: ${c.page.totalItems ?? '?'}\n\n${c.items.map((i) => lines(c.normalize(i))).join('\n\n')}\n`,
  error: (c) => ({ contentType: 'text/plain; charset=utf-8', body: `error ${c.parts.status}: ${c.parts.detail}\n` }),
  decode: (body) => {
    if (typeof body !== 'string') throw new HttpError('ERR_HTTP_BAD_REQUEST', 'Expected name: value lines.');
    const out: Record<string, unknown> = {};
    for (const line of body.split('\n').filter((l) => l.trim() !== '')) {
      const m = /^(\w+):\s?(.*)$/.exec(line);
      if (m === null) throw new HttpError('ERR_HTTP_BAD_REQUEST', `Expected "name: value", got "${line.slice(0, 40)}".`);
      out[m[1]] = m[2] === '~' ? null : /^-?\d+(\.\d+)?$/.test(m[2]) ? Number(m[2]) : m[2];
    }
    return out;
  },
  docs: {
    item: () => ({ type: 'string', description: 'name: value lines' }),
    collection: () => ({ type: 'string', description: 'items apart by an empty line' }),
    input: () => ({ type: 'string', description: 'name: value lines' }),
  },
};

describeOnEveryStore('a format registered from a test file', (open) => {
  const operations = [GetCollection(), Get(), Post(), Put(), Delete()];
  const api = booksApiPerTest(open, operations, new FormatRegistry().register(text));
  const kernel = (): Kernel => api.kernel();

  test('an item in it, with its Content-Type and Vary: Accept', async () => {
    const res = await request(kernel()).get('/api/books/1').set('Accept', TEXT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers.vary).toContain('Accept');
    expect(res.text).toMatch(/^id: 1\ntitle: Dune\n/);
    expect(res.text).toContain('author: /api/authors/1\n');
  });

  test('a collection in it: the page\'s items and the count', async () => {
    const res = await request(kernel()).get('/api/books?order[id]=asc').set('Accept', TEXT);
    expect(res.status).toBe(200);
    expect(res.text.split('\n\n')[0]).toBe('total: 3');
    expect(res.text.match(/^title: .*$/gm)).toEqual(['title: Dune', 'title: Hyperion', 'title: Solaris']);
  });

  test('errors in it: a 404 and a 422 as its error encoder writes them', async () => {
    const missing = await request(kernel()).get('/api/books/999').set('Accept', TEXT);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(missing.text).toBe('error 404: Not Found: no Book has the id "999".\n');
    const invalid = await request(kernel()).post('/api/books').set('Content-Type', TEXT).set('Accept', TEXT)
      .send('title: \n');
    expect(invalid.status).toBe(422);
    expect(invalid.text).toMatch(/^error 422: title: /);
  });

  test('a body in it is read by its decoder: 201, and the book is stored', async () => {
    const res = await request(kernel()).post('/api/books').set('Content-Type', TEXT).set('Accept', 'application/json')
      .send('title: Ubik\nprice: 9.5\nauthor: /api/authors/2\n');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'Ubik', price: 9.5, author: '/api/authors/2' });
    const stored = await request(kernel()).get(String(res.headers.location)).set('Accept', TEXT);
    expect(stored.text).toContain('title: Ubik\n');
  });

  test('the other formats still answer, and the 406 lists the new type', async () => {
    expect((await request(kernel()).get('/api/books/1')).headers['content-type']).toBe('application/ld+json; charset=utf-8');
    const refused = await request(kernel()).get('/api/books/1').set('Accept', 'image/png');
    expect(refused.status).toBe(406);
    expect(refused.body.detail).toContain('text/plain');
  });

  test('the OpenAPI document lists it for responses and request bodies', async () => {
    type Operation = { responses: Record<string, { content?: object }>; requestBody?: { content: object } };
    const doc = (await request(kernel()).get('/api/docs.json')).body as { paths: Record<string, Record<string, Operation>> };
    expect(Object.keys(doc.paths['/books'].get.responses['200'].content!)).toEqual([
      'application/ld+json', 'application/hal+json', 'application/json', TEXT,
    ]);
    expect(Object.keys(doc.paths['/books/{id}'].get.responses['200'].content!)).toContain(TEXT);
    expect(doc.paths['/books'].post.requestBody!.content).toHaveProperty([TEXT, 'schema', 'type'], 'string');
  });
});
