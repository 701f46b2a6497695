/**
 * The documentation routes over HTTP: the OpenAPI document at `/api/docs.json`, the page or the
 * document at `/api/docs` by content negotiation, and the page's files from node_modules.
 */
import request from 'supertest';
import { createKernel, type Kernel } from '../../../src/kernel/createKernel';
import { docsTestRoutes, SMALL_DOCUMENT } from './docsFixture';

describe('createDocsRoutes(options)', () => {
  let kernel: Kernel;
  beforeAll(() => { kernel = createKernel({ routes: docsTestRoutes(), debug: false }); });
  afterAll(async () => { await kernel.close(); });

  test('GET /api/docs.json answers the document as application/vnd.openapi+json', async () => {
    const res = await request(kernel).get('/api/docs.json').expect(200);
    expect(res.headers['content-type']).toBe('application/vnd.openapi+json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual(SMALL_DOCUMENT);
  });

  test('GET /api/docs answers the HTML page to a browser, with no inline script', async () => {
    const res = await request(kernel).get('/api/docs')
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.text).toContain('<title>Things API</title>');
    expect(res.text).toContain('data-url="/api/docs.json"');
    const scripts = [...res.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((m) => m[1].trim()))
      .toEqual(['src="/api/docs/ui/swagger-ui-bundle.js"', 'src="/api/docs/ui/docs.js"']);
    expect(scripts.every((m) => m[2].trim() === '')).toBe(true);
  });

  test.each([
    ['no Accept header', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['a type it cannot serve', 'image/png'],
  ])('GET /api/docs with %s answers the OpenAPI document', async (_name, accept) => {
    const req = request(kernel).get('/api/docs');
    if (accept !== undefined) req.set('Accept', accept);
    const res = await req.expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.openapi\+json/);
    expect(res.headers.vary).toMatch(/Accept/);
    expect(JSON.parse(res.text).openapi).toBe('3.1.0');
  });

  test.each([
    ['swagger-ui-bundle.js', /javascript/, 'SwaggerUIBundle'],
    ['swagger-ui.css', /^text\/css/, '.swagger-ui'],
    ['docs.js', /javascript/, 'data-url'],
  ])('GET /api/docs/ui/%s serves the file from the package', async (file, type, marker) => {
    const res = await request(kernel).get(`/api/docs/ui/${file}`).buffer(true).parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => { text += c; });
      r.on('end', () => done(null, text));
    }).expect(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(String(res.body)).toContain(marker);
  });

  test('any other file under /api/docs/ui is a 404, including a path out of the folder', async () => {
    await request(kernel).get('/api/docs/ui/package.json').expect(404);
    await request(kernel).get('/api/docs/ui/..%2Fpackage.json').expect(404);
    await request(kernel).get('/api/docs/ui/swagger-ui-bundle.js.map').expect(404);
  });
});
