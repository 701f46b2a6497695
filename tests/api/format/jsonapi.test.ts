/**
 * JSON:API through the format registry (issue 25, point 4), as API Platform 3.4's `jsonapi`
 * (features/jsonapi/*.feature): resource objects with IRIs as ids, `include`, sparse fieldsets,
 * collections with links and meta, bodies in, errors as JSON:API error objects.
 */
import request from 'supertest';
import { Get, GetCollection, Post } from '../../../src/api';
import type { Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore } from '../http/demoOnEveryStore';
import { booksApiPerTest } from './booksApi';

const JSONAPI = 'application/vnd.api+json';

describeOnEveryStore('JSON:API', (open) => {
  const api = booksApiPerTest(open, [GetCollection(), Get(), Post()], ['jsonld', 'json', 'jsonapi']);
  const kernel = (): Kernel => api.kernel();
  const get = (url: string) => request(kernel()).get(url).set('Accept', JSONAPI);

  test('an item: id its IRI, type, attributes with _id, the author a relationship', async () => {
    const res = await get('/api/books/1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8');
    expect(res.body.data).toMatchObject({
      id: '/api/books/1', type: 'Book', attributes: { _id: 1, title: 'Dune' },
      relationships: { author: { data: { type: 'Author', id: '/api/authors/1' } } },
    });
    expect(res.body.data.attributes).not.toHaveProperty('author');
    expect(res.body).not.toHaveProperty('included');
  });

  test('include=author adds the author once; fields[Book] and fields[author] keep only those attributes', async () => {
    const res = await get('/api/books/1?include=author&fields[Book]=title&fields[author]=name');
    expect(res.body.data.attributes).toEqual({ title: 'Dune' });
    expect(res.body.included).toEqual([{ id: '/api/authors/1', type: 'Author', attributes: { name: 'Frank Herbert' } }]);
  });

  test('a collection: links, meta (totalItems, itemsPerPage, currentPage) and data', async () => {
    const res = await get('/api/books?itemsPerPage=2&page=1&order[id]=asc');
    expect(res.body.meta).toEqual({ totalItems: 3, itemsPerPage: 2, currentPage: 1 });
    expect(res.body.links.next).toContain('page=2');
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual(['/api/books/1', '/api/books/2']);
  });

  test('a POST body { data: { attributes, relationships } } creates the book', async () => {
    const res = await request(kernel()).post('/api/books').set('Content-Type', JSONAPI).set('Accept', JSONAPI)
      .send(JSON.stringify({ data: { type: 'Book', attributes: { title: 'Ubik' },
        relationships: { author: { data: { type: 'Author', id: '/api/authors/2' } } } } }));
    expect(res.status).toBe(201);
    expect(res.body.data.attributes.title).toBe('Ubik');
    expect(res.body.data.relationships.author.data.id).toBe('/api/authors/2');
  });

  test('errors: a 404 and a 422 as JSON:API error objects, the violation pointing into the document', async () => {
    const missing = await get('/api/books/999');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8');
    expect(missing.body.errors[0]).toMatchObject({ status: 404, title: 'An error occurred' });
    const invalid = await request(kernel()).post('/api/books').set('Content-Type', JSONAPI).set('Accept', JSONAPI)
      .send(JSON.stringify({ data: { type: 'Book', attributes: { title: '' } } }));
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ source: { pointer: 'data/attributes/title' } })]);
  });
});
