/**
 * A NUL character (U+0000) in a query or a body (issue 27, point 6): PostgreSQL answered 500
 * (`invalid byte sequence for encoding "UTF8": 0x00`) and SQLite's `title=%00` matched every
 * row. Now a 400 for a query and a 422 for a body, the same on MemoryState, SQLite and
 * PostgreSQL, for the API and the back office.
 */
import request from 'supertest';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { loggedIn, tokenOf } from '../admin/backOffice';
import { describeOnEveryStore, type OpenedDemoStore } from './http/demoOnEveryStore';

const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
const NUL_QUERY = 'Malformed query string: a NUL character (%00) is not allowed.';
const NUL_VIOLATION = {
  propertyPath: 'title', code: 'nul_character', message: 'This value must not contain a NUL character (U+0000).',
};

// up to a dozen requests through every layer, on a loaded 2-core machine
jest.setTimeout(30_000);

describeOnEveryStore('a NUL character', (open) => {
  let opened: OpenedDemoStore;
  let kernel: DemoKernel;
  beforeAll(async () => {
    opened = await open();
    kernel = createDemoKernel({ debug: false, store: opened.store });
  });
  afterAll(async () => {
    await kernel.close();
    await opened.close();
  });

  const titles = async (): Promise<string[]> => {
    const res = await request(kernel).get('/api/books').set('Accept', 'application/json').expect(200);
    return (res.body as Array<{ title: string }>).map((b) => b.title);
  };

  test.each([
    '/api/books?title=%00', '/api/books?title=a%00b', '/api/books?isbn=%00', '/api/authors?name=%00',
    '/api/books?order[title%00]=asc', '/api/books?title[]=Dune&title[]=%00',
  ])('in the query of GET %s is a 400 naming it', async (target) => {
    const res = await request(kernel).get(target).set('Accept', 'application/json');
    expect([res.status, res.body.detail]).toEqual([400, NUL_QUERY]);
  });

  test('in the back office\'s search (?query=%00) is a 400', async () => {
    const admin = await loggedIn(kernel);
    const res = await admin.get('/admin/books?query=%00');
    expect(res.status).toBe(400);
    expect(res.text).toContain('a NUL character (%00) is not allowed.');
    expect((await admin.get('/admin/books?query=dune')).status).toBe(200);
  });

  test.each([
    ['POST', '/api/books', 'application/json'],
    ['PUT', '/api/books/1', 'application/json'],
    ['PATCH', '/api/books/1', 'application/merge-patch+json'],
  ])('in a %s body string is a 422 on the property, and nothing is stored', async (method, target, type) => {
    const res = await request(kernel)[method.toLowerCase() as 'post'](target).set('Authorization', USER)
      .set('Content-Type', type).set('Accept', 'application/json')
      .send('{"title":"a\\u0000b","isbn":"9780441172719"}');
    expect(res.status).toBe(422);
    expect(res.body.violations).toEqual([NUL_VIOLATION]);
    expect(await titles()).toEqual(['Dune', 'Hyperion', 'Solaris']);
  });

  test('in an author\'s name is a 422 too', async () => {
    const res = await request(kernel).patch('/api/authors/1').set('Authorization', USER)
      .set('Content-Type', 'application/merge-patch+json').set('Accept', 'application/json')
      .send('{"name":"Frank\\u0000Herbert"}');
    expect([res.status, res.body.violations?.[0]?.propertyPath]).toEqual([422, 'name']);
  });

  test('in a back office form is a 422 with the message next to the field', async () => {
    const admin = await loggedIn(kernel);
    const form = await admin.get('/admin/books/new').expect(200);
    const res = await admin.post('/admin/books/new').type('form')
      .send({ _token: tokenOf(form.text), title: 'a\u0000b' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('<div class="error" id="error-title"><p>This value must not contain a NUL character');
    expect(await titles()).toEqual(['Dune', 'Hyperion', 'Solaris']);
  });
});
