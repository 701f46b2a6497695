/**
 * `apiRoutes` serves the API's own documentation by default (issue 29): the Swagger UI page, the
 * OpenAPI document of the resources given, and that page as every API route's answer to a
 * browser; `docs: false` leaves them out.
 */
import request from 'supertest';
import { z } from 'zod';
import { apiRoutes, defineResource, GetCollection, Get, Post, readOnly, type ApiOptions } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const store = new MemoryState();
const planet = defineResource({
  shortName: 'Planet',
  schema: z.object({ id: readOnly(z.int()), name: z.string().min(1) }),
  provider: store, processor: store,
  operations: [GetCollection(), Get(), Post()],
});

function kernelOf(options: Omit<ApiOptions, 'resources'>): Kernel {
  return createKernel({ routes: apiRoutes({ resources: [planet], title: 'Planets', ...options }) });
}

describe('apiRoutes serves the documentation by default', () => {
  let kernel: Kernel;
  beforeAll(() => { kernel = kernelOf({ docs: { description: 'Every planet.', version: '2.1.0' } }); });
  afterAll(async () => { await kernel.close(); });

  test('GET /api/docs.json is the OpenAPI document of the resources given, with the title and description', async () => {
    const res = await request(kernel).get('/api/docs.json').expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.openapi+json; charset=utf-8');
    const doc = JSON.parse(res.text) as { info: object; paths: Record<string, Record<string, unknown>> };
    expect(doc.info).toEqual({ title: 'Planets', version: '2.1.0', description: 'Every planet.' });
    expect(Object.keys(doc.paths)).toEqual(['/planets', '/planets/{id}']);
    expect(Object.keys(doc.paths['/planets'])).toEqual(['get', 'post']);
  });

  test('GET /api/docs: the Swagger UI page for a browser, the OpenAPI document for curl (Accept: */*)', async () => {
    const page = await request(kernel).get('/api/docs').set('Accept', BROWSER).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<title>Planets</title>');
    expect(page.text).toContain('src="/api/docs/ui/swagger-ui-bundle.js"');
    const curl = await request(kernel).get('/api/docs').set('Accept', '*/*').expect(200);
    expect(curl.headers['content-type']).toMatch(/^application\/vnd\.openapi\+json/);
    expect(curl.headers.vary).toMatch(/Accept/);
  });

  test("the page's Swagger UI script is served from node_modules", async () => {
    const res = await request(kernel).get('/api/docs/ui/swagger-ui-bundle.js').expect(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
  });

  test('a browser opening a resource gets the Swagger UI page', async () => {
    const res = await request(kernel).get('/api/planets').set('Accept', BROWSER).expect(200);
    expect(res.text).toContain('data-url="/api/docs.json"');
  });

  test('the documentation lives under the entrypoint', async () => {
    const v1 = kernelOf({ entrypoint: '/v1' });
    try {
      const res = await request(v1).get('/v1/docs.json').expect(200);
      expect(Object.keys((JSON.parse(res.text) as { paths: object }).paths)).toEqual(['/api/planets', '/api/planets/{id}']);
      const page = await request(v1).get('/v1/docs').set('Accept', BROWSER).expect(200);
      expect(page.text).toContain('data-url="/v1/docs.json"');
      await request(v1).get('/api/docs.json').expect(404);
    } finally {
      await v1.close();
    }
  });
});

describe('apiRoutes({ docs: false })', () => {
  let kernel: Kernel;
  beforeAll(() => { kernel = kernelOf({ docs: false }); });
  afterAll(async () => { await kernel.close(); });

  test('serves no OpenAPI document nor page; the Hydra documentation stays', async () => {
    await request(kernel).get('/api/docs.json').expect(404);
    await request(kernel).get('/api/docs').set('Accept', BROWSER).expect(404);
    await request(kernel).get('/api/docs.jsonld').expect(200);
  });

  test('a browser opening a resource gets the small page linking to /api/docs', async () => {
    const res = await request(kernel).get('/api/planets').set('Accept', BROWSER).expect(200);
    expect(res.text).not.toContain('swagger-ui-bundle.js');
    expect(res.text).toContain('/api/docs');
  });
});

test('a docs option that is neither a boolean nor { description, version } is named', () => {
  expect(() => apiRoutes({ resources: [planet], docs: 'yes' } as unknown as ApiOptions))
    .toThrow('Invalid option "api.docs": expected true, false or { description, version } (got "yes").');
});
