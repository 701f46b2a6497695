/**
 * Per-operation formats (issue 25, point 4), as API Platform 3.4's operation `formats`,
 * `inputFormats` and `outputFormats` (features/main/content_negotiation.feature's
 * `dummy_custom_formats`): an operation answers and reads only its formats, another `Accept` is a
 * 406 and another body a 415, each listing the allowed media types; the OpenAPI document lists
 * each operation's own.
 */
import request from 'supertest';
import { Get, GetCollection, Post } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createDemoResources } from '../../../src/demo/resources';
import type { Kernel } from '../../../src/kernel/createKernel';
import { describeOnEveryStore } from '../http/demoOnEveryStore';
import { booksApiOn, booksApiPerTest } from './booksApi';

const API_FORMATS = ['jsonld', 'json', 'csv', 'xml'] as const;
const OPERATIONS = [
  GetCollection({ formats: ['jsonld', 'csv'] }),
  Get({ formats: ['jsonld', 'xml'] }),
  Post({ inputFormats: ['csv'], outputFormats: ['xml'] }),
];

describeOnEveryStore('per-operation formats', (open) => {
  const api = booksApiPerTest(open, OPERATIONS, [...API_FORMATS]);
  const kernel = (): Kernel => api.kernel();

  test('the collection answers CSV, its own format; JSON, which it does not list, is a 406 naming its types', async () => {
    const csv = await request(kernel()).get('/api/books?order[id]=asc').set('Accept', 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.text.split('\n')[0]).toBe('id,title,isbn,publishedAt,price,featured,author');
    const json = await request(kernel()).get('/api/books').set('Accept', 'application/json');
    expect(json.status).toBe(406);
    expect(json.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(json.body.detail).toBe('Not Acceptable: "application/json" matches none of application/ld+json, text/csv, text/html.');
  });

  test('the item answers XML but not CSV, though the API serves CSV', async () => {
    expect((await request(kernel()).get('/api/books/1').set('Accept', 'text/xml')).status).toBe(200);
    const csv = await request(kernel()).get('/api/books/1').set('Accept', 'text/csv');
    expect(csv.status).toBe(406);
    expect(csv.body.detail).toContain('application/ld+json, application/xml, text/xml');
  });

  test('the POST reads a CSV body and answers in XML; a JSON body is a 415 naming text/csv', async () => {
    const created = await request(kernel()).post('/api/books').set('Content-Type', 'text/csv')
      .set('Accept', 'application/xml').send('title\nKevin\n');
    expect(created.status).toBe(201);
    expect(created.text).toContain('<response><id>4</id><title>Kevin</title>');
    const json = await request(kernel()).post('/api/books').set('Content-Type', 'application/json')
      .set('Accept', 'application/xml').send({ title: 'Kevin' });
    expect(json.status).toBe(415);
    expect(json.body.detail).toBe('Unsupported Media Type: expected text/csv, got "application/json".');
  });

  test('the OpenAPI document lists each operation\'s own content types', async () => {
    type Operation = { responses: Record<string, { content?: object }>; requestBody?: { content: object } };
    const doc = (await request(kernel()).get('/api/docs.json')).body as { paths: Record<string, Record<string, Operation>> };
    expect(Object.keys(doc.paths['/books'].get.responses['200'].content!)).toEqual(['application/ld+json', 'text/csv']);
    expect(Object.keys(doc.paths['/books/{id}'].get.responses['200'].content!))
      .toEqual(['application/ld+json', 'application/xml']);
    expect(Object.keys(doc.paths['/books'].post.requestBody!.content)).toEqual(['text/csv']);
    expect(Object.keys(doc.paths['/books'].post.responses['201'].content!)).toEqual(['application/xml']);
  });
});

describe('per-operation formats at start-up', () => {
  test('a format the API does not serve is a KernelConfigError naming the option and the API\'s formats', () => {
    const state = new MemoryState();
    createDemoResources({ provider: state, processor: state });
    const declared = [GetCollection({ formats: ['yaml'] })];
    expect(() => booksApiOn({ provider: state, processor: state }, declared, ['jsonld', 'json', 'csv'])).toThrow(
      /^Invalid option "resources\.Book\.operations\.\w+\.outputFormats": expected formats of the API \(jsonld, json, csv; apiRoutes' formats\) \(got "yaml"\)\.$/,
    );
  });
});
