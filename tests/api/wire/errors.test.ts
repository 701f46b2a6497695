/**
 * Issue 24, point 1: the API's errors are problem details as API Platform 3.4 sends them by
 * default (its `Error` and `ConstraintViolationList` error resources, `features/main/validation.feature`,
 * `src/State/ApiResource/Error.php`): `application/problem+json` for every format, the Hydra keys
 * beside RFC 9457's for a JSON-LD client, its 400 messages for a body it cannot read, and the
 * 404/405 of a path under `/api` in the same shape.
 */
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';

const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
const LD = 'application/ld+json';
const JSON_TYPE = 'application/json';
const PROBLEM = 'application/problem+json; charset=utf-8';
const HYDRA_ERROR_LINK = '<http://www.w3.org/ns/hydra/error>; rel="http://www.w3.org/ns/json-ld#error"';

let kernel: DemoKernel;
beforeEach(() => { kernel = createDemoKernel({ debug: false }); });
afterEach(async () => { await kernel.close(); });

const post = (body: unknown, type = LD) => request(kernel).post('/api/books').set('Authorization', USER)
  .set('Content-Type', type).set('Accept', type).send(JSON.stringify(body));

describe('an error of an API route', () => {
  test('JSON-LD: problem+json with @context, @id, @type, hydra:title and hydra:description, and Hydra\'s error Link', async () => {
    const res = await request(kernel).get('/api/books/999').set('Accept', LD);
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe(PROBLEM);
    expect(res.headers.link).toContain(HYDRA_ERROR_LINK);
    expect(res.body).toEqual({
      '@context': '/api/contexts/Error',
      '@id': '/api/errors/404',
      '@type': 'hydra:Error',
      title: 'An error occurred',
      detail: 'Not Found: no Book has the id "999".',
      status: 404,
      type: '/errors/404',
      'hydra:title': 'An error occurred',
      'hydra:description': 'Not Found: no Book has the id "999".',
    });
  });

  test('JSON and HAL: plain problem details (type, title, detail, status), no Hydra keys', async () => {
    for (const accept of [JSON_TYPE, 'application/hal+json']) {
      const res = await request(kernel).get('/api/books/999').set('Accept', accept);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe(PROBLEM);
      expect(res.body).toEqual({
        title: 'An error occurred', detail: 'Not Found: no Book has the id "999".', status: 404, type: '/errors/404',
      });
    }
  });

  test('a 422 is a ConstraintViolationList: violations, status, detail, a type per violation code', async () => {
    const one = await post({ title: '' });
    expect(one.status).toBe(422);
    expect(one.headers['content-type']).toBe(PROBLEM);
    const code = one.body.violations[0].code as string;
    expect(one.body).toEqual({
      '@context': '/api/contexts/ConstraintViolationList',
      '@id': `/api/validation_errors/${code}`,
      '@type': 'ConstraintViolationList',
      status: 422,
      violations: [{ propertyPath: 'title', message: expect.any(String), code }],
      detail: `title: ${one.body.violations[0].message as string}`,
      'hydra:title': 'An error occurred',
      'hydra:description': `title: ${one.body.violations[0].message as string}`,
      type: `/validation_errors/${code}`,
      title: 'An error occurred',
    });
    const two = await post({ title: '', price: -1 }, JSON_TYPE);
    expect(two.status).toBe(422);
    const codes = (two.body.violations as Array<{ code: string }>).map((v, i) => `${i}=${v.code}`).join(';');
    expect(Object.keys(two.body).sort()).toEqual(['detail', 'status', 'title', 'type', 'violations']);
    expect(two.body.type).toBe(`/validation_errors/${codes}`);
  });

  test.each([
    [{ title: 1 }, 'The type of the "title" attribute must be "string", "integer" given.'],
    [{ title: 'T', featured: 'yes' }, 'The type of the "featured" attribute must be "bool", "string" given.'],
    [{ title: 'T', price: '12' }, 'The type of the "price" attribute must be "float", "string" given.'],
    [{ title: null }, 'The type of the "title" attribute must be "string", "NULL" given.'],
    [{ title: 'T', author: 1 }, 'Expected IRI or nested document for attribute "author", "integer" given.'],
    [{ title: 'T', author: '/api/books/1' }, 'Invalid IRI "/api/books/1".'],
    [{ title: 'T', author: '/api/authors/999' }, 'Item not found for "/api/authors/999".'],
    [{ '@id': '/api/books/1', title: 'T' }, 'Update is not allowed for this operation.'],
  ])('a body the resource cannot read (%j) is API Platform\'s 400', async (body, detail) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe(PROBLEM);
    expect(res.body).toMatchObject({ '@type': 'hydra:Error', status: 400, type: '/errors/400', detail });
  });

  test('a PATCH of the wrong type is a 400 too, and changes nothing', async () => {
    const res = await request(kernel).patch('/api/books/1').set('Authorization', USER)
      .set('Content-Type', 'application/merge-patch+json').send(JSON.stringify({ price: 'free' }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('The type of the "price" attribute must be "float", "string" given.');
    expect((await request(kernel).get('/api/books/1').set('Accept', JSON_TYPE)).body.price).not.toBe('free');
  });
});

describe('a path under /api that no route matches', () => {
  test('404 and 405 are problem details, not the kernel\'s page', async () => {
    const missing = await request(kernel).get('/api/nothing-here').set('Accept', LD);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe(PROBLEM);
    expect(missing.body).toMatchObject({ '@type': 'hydra:Error', status: 404, type: '/errors/404' });
    const method = await request(kernel).patch('/api/books').set('Accept', JSON_TYPE);
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('GET, POST');
    expect(method.headers['content-type']).toBe(PROBLEM);
    expect(method.body).toMatchObject({ status: 405, type: '/errors/405', title: 'An error occurred' });
  });

  test('a browser still gets the HTML page, and paths outside /api keep the kernel\'s errors', async () => {
    const page = await request(kernel).get('/api/nothing-here').set('Accept', 'text/html');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const outside = await request(kernel).get('/apix').set('Accept', JSON_TYPE);
    expect(outside.status).toBe(404);
    expect(outside.body.type).toBe('about:blank');
  });
});

describe('in debug mode', () => {
  test('the error has a trace', async () => {
    const debug = createDemoKernel({ debug: true });
    try {
      const res = await request(debug).get('/api/books/999').set('Accept', LD);
      expect(res.status).toBe(404);
      expect(Array.isArray(res.body.trace)).toBe(true);
      expect(res.body.trace.length).toBeGreaterThan(0);
      expect(res.body.trace[0]).toEqual(expect.objectContaining({ file: expect.any(String) }));
    } finally {
      await debug.close();
    }
  });
});
