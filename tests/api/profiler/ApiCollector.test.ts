/**
 * The profiler's API panel (ApiCollector): resource, operation, format, provider and processor
 * classes, violations; on the demo kernel in debug mode, over real HTTP.
 */
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import type { ApiData } from '../../../src/api/profiler/ApiCollector';

const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: true }); });
afterEach(() => kernel.close());

async function apiData(token: string): Promise<ApiData> {
  const profile = await kernel.profiler!.storage.read(token);
  return profile!.collectors.api as ApiData;
}

test('records the resource, operation, negotiated format and the store classes of a read', async () => {
  const res = await request(kernel).get('/api/books/1').set('Accept', 'application/hal+json').expect(200);
  const data = await apiData(String(res.headers['x-debug-token']));
  expect(data).toMatchObject({
    enabled: true, resource: 'Book', operation: { name: 'book_show', kind: 'Get', method: 'GET', path: '/api/books/{id}' },
    format: 'application/hal+json', provider: 'MemoryState', item: { id: 1, version: 1 }, violations: [],
  });
  // a read has no processor (API Platform's Get has none): the panel shows none
  expect(data.processor).toBeUndefined();
});

test('records the store class of a write\'s processor', async () => {
  const res = await request(kernel).post('/api/books').set('Authorization', USER).send({ title: 'Ubik' }).expect(201);
  expect(await apiData(String(res.headers['x-debug-token']))).toMatchObject({ provider: 'MemoryState', processor: 'MemoryState' });
});

test('the panel lists the violations of a 422', async () => {
  const res = await request(kernel).post('/api/books').set('Authorization', USER).send({ title: '', isbn: 'x' }).expect(422);
  const token = String(res.headers['x-debug-token']);
  const data = await apiData(token);
  expect(data.violations.map((v) => v.propertyPath).sort()).toEqual(['isbn', 'title']);
  const panel = await request(kernel).get(`/_profiler/${token}?panel=api`).expect(200);
  expect(panel.text).toContain('<code>book_create</code>');
  expect(panel.text).toContain('Expected an ISBN-10 or ISBN-13.');
});

test('a page no API route served says so', async () => {
  const res = await request(kernel).get('/plain').expect(200);
  expect(await apiData(String(res.headers['x-debug-token']))).toMatchObject({ enabled: false });
});
