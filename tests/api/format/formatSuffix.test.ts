/**
 * The `{._format}` suffix (issue 25, point 4), as API Platform 3.4's: the route loader turns
 * `{._format}` into symfony's optional `.{_format}` and `ContentNegotiationTrait` narrows the
 * negotiation to the format it names (features/main/content_negotiation.feature: "Retrieve a
 * collection in XML using the .xml URL", "Requesting the same format in the Accept header and in
 * the URL should work", "Requesting any format in the Accept header should default to the format
 * passed in the URL"). An unknown suffix is a 404 `Format "yaml" is not supported`, another
 * `Accept` a 406, the body still goes by `Content-Type`, IRIs never carry the suffix. On
 * MemoryState: the suffix is routing and negotiation, no store is involved.
 */
import fc from 'fast-check';
import request from 'supertest';
import { z } from 'zod';
import {
  apiRoutes, defineResource, Delete, Get, GetCollection, link, MemoryState, Patch, Post, Put,
} from '../../../src/api';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { createDemoResources } from '../../../src/demo/resources';
import { seedDemoData } from '../../../src/demo/seed';
import { booksApiOn } from './booksApi';

const ALL = ['jsonld', 'jsonhal', 'json', 'jsonapi', 'csv', 'xml'] as const;
const TYPES: Record<(typeof ALL)[number], string> = {
  jsonld: 'application/ld+json', jsonhal: 'application/hal+json', json: 'application/json',
  jsonapi: 'application/vnd.api+json', csv: 'text/csv', xml: 'application/xml',
};
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

function seeded(): MemoryState {
  const state = new MemoryState();
  seedDemoData(state, createDemoResources({ provider: state, processor: state }));
  return state;
}

const OPERATIONS = [
  GetCollection(), Get(), Post(), Put(), Patch(), Delete(),
  GetCollection({ name: 'book_featured', uriTemplate: '/featured_books{._format}' }),
  Get({ name: 'book_plain', uriTemplate: '/plain_books/{id}' }),
  GetCollection({
    name: 'author_books', uriTemplate: '/authors/{authorId}/books{._format}',
    uriVariables: { authorId: link({ fromClass: 'Author', toProperty: 'author' }) },
  }),
];

describe('the format suffix', () => {
  let kernel: Kernel;
  beforeEach(() => {
    const state = seeded();
    kernel = booksApiOn({ provider: state, processor: state }, OPERATIONS, [...ALL]);
  });

  test.each(ALL)('.%s on the collection and on an item answers that format; the items\' IRIs have no suffix', async (name) => {
    const list = await request(kernel).get(`/api/books.${name}`);
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe(`${TYPES[name]}; charset=utf-8`);
    const item = await request(kernel).get(`/api/books/1.${name}`);
    expect(item.status).toBe(200);
    expect(item.headers['content-type']).toBe(`${TYPES[name]}; charset=utf-8`);
    expect(item.headers['content-location']).toBe('/api/books/1');
    expect(item.text).toContain(name === 'json' || name === 'csv' || name === 'xml' ? 'Dune' : '"/api/books/1"');
    // the collection's own links (HAL's and JSON:API's self, a page) are the request's URI, as API Platform's
    expect(list.text.replaceAll(`"/api/books.${name}"`, '')).not.toContain(`.${name}`);
    expect(item.text).not.toContain(`.${name}`);
  });

  test('JSON-LD by suffix: @id and hydra:member IRIs are the resources\', pages keep the suffix the client used', async () => {
    const res = await request(kernel).get('/api/books.jsonld?itemsPerPage=1&order[id]=asc');
    expect(res.body['@id']).toBe('/api/books');
    expect(res.body['hydra:member'][0]['@id']).toBe('/api/books/1');
    expect(res.body['hydra:view']['@id']).toBe('/api/books.jsonld?itemsPerPage=1&order%5Bid%5D=asc&page=1');
    expect(res.body['hydra:view']['hydra:next']).toBe('/api/books.jsonld?itemsPerPage=1&order%5Bid%5D=asc&page=2');
  });

  test('the suffix and an Accept of its media types, or */*, answer it (content_negotiation.feature)', async () => {
    const same = await request(kernel).get('/api/books/1.xml').set('Accept', 'text/xml');
    expect(same.status).toBe(200);
    expect(same.headers['content-type']).toBe('application/xml; charset=utf-8');
    const any = await request(kernel).get('/api/books/1.xml').set('Accept', 'text/plain; charset=utf-8, */*');
    expect(any.status).toBe(200);
    expect(any.headers['content-type']).toBe('application/xml; charset=utf-8');
    // a browser gets the format it asked for by URL, not the documentation page
    const browser = await request(kernel).get('/api/books.jsonld').set('Accept', BROWSER);
    expect(browser.status).toBe(200);
    expect(browser.headers['content-type']).toBe('application/ld+json; charset=utf-8');
  });

  test('the suffix and an Accept of another format: a 406 naming the suffix\'s types, written in the suffix\'s format', async () => {
    const res = await request(kernel).get('/api/books/1.xml').set('Accept', 'application/json');
    expect(res.status).toBe(406);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.body.detail).toBe('Not Acceptable: "application/json" matches none of application/xml, text/xml.');
    const jsonapi = await request(kernel).get('/api/books.jsonapi').set('Accept', 'application/ld+json');
    expect(jsonapi.status).toBe(406);
    expect(jsonapi.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8');
    expect(jsonapi.body.errors).toHaveLength(1);
  });

  test('an unknown suffix is a 404 problem document "Format "yaml" is not supported", on the collection and an item', async () => {
    for (const url of ['/api/books.yaml', '/api/books/1.yaml', '/api/books/1.html', '/api/books.JSON']) {
      const res = await request(kernel).get(url).set('Accept', 'application/problem+json');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.body).toMatchObject({
        status: 404, detail: `Format "${url.slice(url.lastIndexOf('.') + 1)}" is not supported`,
      });
    }
  });

  test('an error on a path with a suffix is written in that format (API Platform\'s error listener)', async () => {
    const ld = await request(kernel).get('/api/books/999.jsonld');
    expect(ld.status).toBe(404);
    expect(ld.body['@type']).toBe('hydra:Error');
    const jsonapi = await request(kernel).get('/api/books/999.jsonapi');
    expect(jsonapi.status).toBe(404);
    expect(jsonapi.headers['content-type']).toBe('application/vnd.api+json; charset=utf-8');
  });

  test('writes: the suffix chooses the response, Content-Type the body; Location is the IRI', async () => {
    const created = await request(kernel).post('/api/books.xml').set('Content-Type', 'application/json')
      .send({ title: 'Kevin' });
    expect(created.status).toBe(201);
    expect(created.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(created.headers.location).toBe('/api/books/4');
    expect(created.text).toContain('<title>Kevin</title>');
    const fromCsv = await request(kernel).post('/api/books.jsonld').set('Content-Type', 'text/csv').send('title\nLem\n');
    expect(fromCsv.status).toBe(201);
    expect(fromCsv.body['@id']).toBe('/api/books/5');
    const patched = await request(kernel).patch('/api/books/1.json')
      .set('Content-Type', 'application/merge-patch+json').send(JSON.stringify({ title: 'Dune Messiah' }));
    expect(patched.status).toBe(200);
    expect(patched.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(patched.body.title).toBe('Dune Messiah');
    // the suffix says nothing of the body: a body no format reads is still a 415
    const plain = await request(kernel).put('/api/books/1.json').set('Content-Type', 'text/plain').send('Dune');
    expect(plain.status).toBe(415);
    expect((await request(kernel).delete('/api/books/2.json')).status).toBe(204);
    expect((await request(kernel).get('/api/books/2')).status).toBe(404);
    expect((await request(kernel).delete('/api/books/3.yaml')).status).toBe(404);
    expect((await request(kernel).get('/api/books/3')).status).toBe(200);
  });

  test('a uriTemplate takes the suffix when it ends with {._format}, a subresource too; its @id has none', async () => {
    const featured = await request(kernel).get('/api/featured_books.csv');
    expect(featured.status).toBe(200);
    expect(featured.headers['content-type']).toBe('text/csv; charset=utf-8');
    const sub = await request(kernel).get('/api/authors/1/books.jsonld');
    expect(sub.status).toBe(200);
    expect(sub.body['@id']).toBe('/api/authors/1/books');
    expect((await request(kernel).get('/api/authors/1/books.yaml')).status).toBe(404);
    expect((await request(kernel).get('/api/plain_books/1')).status).toBe(200);
    const plain = await request(kernel).get('/api/plain_books/1.json').set('Accept', 'application/problem+json');
    expect(plain.status).toBe(404);
    expect(plain.body.detail).not.toContain('Format');
  });

  test('the OpenAPI document does not list the suffixed paths (API Platform does not)', async () => {
    const doc = await request(kernel).get('/api/docs.json');
    const paths = Object.keys(doc.body.paths as object);
    expect(paths).toEqual(expect.arrayContaining(['/books', '/books/{id}', '/featured_books', '/authors/{authorId}/books']));
    expect(paths.filter((p) => p.includes('format'))).toEqual([]);
  });

  test('property: a path with any suffix is a format of the API or a 404, never a 500', async () => {
    const suffix = fc.oneof(fc.constantFrom(...ALL, 'html', 'yaml', 'JSON', 'json.json', ''), fc.string({ maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }));
    const base = fc.constantFrom('/api/books', '/api/books/1', '/api/books/999', '/api/featured_books');
    await fc.assert(fc.asyncProperty(base, suffix, async (path, s) => {
      const res = await request(kernel).get(`${path}.${encodeURIComponent(s)}`);
      const known = (ALL as readonly string[]).includes(s);
      if (res.status === 200) {
        expect(known).toBe(true);
        expect(res.headers['content-type']).toBe(`${TYPES[s as (typeof ALL)[number]]}; charset=utf-8`);
      } else {
        expect(res.status).toBe(404);
      }
      if (known && !path.endsWith('999')) expect(res.status).toBe(200);
    }), { numRuns: 50 });
  });
});

describe('the format suffix per operation', () => {
  let kernel: Kernel;
  beforeEach(() => {
    const state = seeded();
    const operations = [GetCollection({ formats: ['jsonld', 'csv'] }), Get({ formats: ['jsonld', 'xml'] })];
    kernel = booksApiOn({ provider: state, processor: state }, operations, ['jsonld', 'json', 'csv', 'xml']);
  });

  test('a suffix naming one of the operation\'s formats answers it; one of the API\'s that the operation lacks is a 404', async () => {
    expect((await request(kernel).get('/api/books.csv')).status).toBe(200);
    expect((await request(kernel).get('/api/books/1.xml')).status).toBe(200);
    for (const url of ['/api/books.xml', '/api/books/1.csv', '/api/books/1.json']) {
      const res = await request(kernel).get(url).set('Accept', 'application/problem+json');
      expect(res.status).toBe(404);
      expect(res.body.detail).toBe(`Format "${url.slice(url.lastIndexOf('.') + 1)}" is not supported`);
    }
  });
});

describe('the format suffix after a string identifier', () => {
  let kernel: Kernel;
  beforeEach(async () => {
    const state = new MemoryState();
    const thing = defineResource({
      shortName: 'Thing', schema: z.object({ id: z.string().max(40), name: z.string() }),
      provider: state, processor: state,
    });
    kernel = createKernel({ routes: apiRoutes({ resources: [thing], formats: [...ALL] }), debug: false });
    for (const id of ['a.b', 'a.yaml', 'a', 'v1.2.json']) {
      const res = await request(kernel).post('/api/things').set('Content-Type', 'application/json')
        .send({ id, name: `named ${id}` });
      expect(res.status).toBe(201);
    }
  });

  test('/api/things/a.b.json is a.b in JSON: the suffix is a format name, the id what comes before it', async () => {
    const res = await request(kernel).get('/api/things/a.b.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual({ id: 'a.b', name: 'named a.b' });
  });

  test('a dot not followed by a format name belongs to the id: /api/things/a.b and /api/things/a.yaml are those things', async () => {
    const ab = await request(kernel).get('/api/things/a.b');
    expect(ab.status).toBe(200);
    expect(ab.body['@id']).toBe('/api/things/a.b');
    const yaml = await request(kernel).get('/api/things/a.yaml.jsonld');
    expect(yaml.body['@id']).toBe('/api/things/a.yaml');
    expect((await request(kernel).get('/api/things/a.yaml')).body.name).toBe('named a.yaml');
    expect((await request(kernel).get('/api/things/b.yaml')).status).toBe(404);
  });

  test('an id that ends with a format\'s name is read as that suffix; another suffix after it reaches the item', async () => {
    const suffixed = await request(kernel).get('/api/things/v1.2.json');
    expect(suffixed.status).toBe(404);
    const item = await request(kernel).get('/api/things/v1.2.json.jsonld');
    expect(item.status).toBe(200);
    expect(item.body['@id']).toBe('/api/things/v1.2.json');
  });
});

describe('the format suffix at start-up', () => {
  test('{._format} elsewhere than at the end of a uriTemplate, or symfony\'s .{_format}, is a KernelConfigError', () => {
    const state = new MemoryState();
    const declare = (op: ReturnType<typeof Get>) => () => defineResource({
      shortName: 'Thing', schema: z.object({ name: z.string() }), provider: state, processor: state, operations: [op],
    });
    expect(declare(Get({ uriTemplate: '/things/{id}{._format}/cover' }))).toThrow(
      'Invalid option "resources.Thing.operations[0].uriTemplate": expected the format suffix as {._format} at the end '
      + 'of the path, after something (e.g. "/books/{id}{._format}") (got "/things/{id}{._format}/cover").',
    );
    expect(declare(Get({ path: '/api/things/{id}.{_format}' }))).toThrow(/operations\[0\]\.path": expected the format suffix/);
    expect(declare(Get({ uriTemplate: '/things/{id}{._format}' }))).not.toThrow();
  });
});
