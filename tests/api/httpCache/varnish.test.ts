/**
 * The demo behind a real Varnish (issue 25, point 5), as the README runs it: `VARNISH_URLS`
 * (here `varnishUrls`) makes the API's GETs cacheable by Varnish and each write purge what it
 * changed (`VarnishXKeyPurger`: `PURGE` with `xkey`); docs/varnish/xkey.vcl caches by
 * `Cache-Control` and indexes responses by their `xkey` header. A cached collection is purged
 * when one of its books changes, and the next GET misses and shows the new value, while a cached
 * page that does not contain the book stays cached.
 * Needs varnishd and vmod xkey (apt-get install -y varnish varnish-modules).
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { describeWith } from '../../helpers/requirements';
import { startVarnish, type TestVarnish } from '../../helpers/varnish';
import { scaled } from '../../helpers/timeScale';

jest.setTimeout(scaled(120_000));

const JSON_TYPE = 'application/json';
const USER = `Basic ${Buffer.from('user:user').toString('base64')}`;
const ADMIN = `Basic ${Buffer.from('admin:admin').toString('base64')}`;

describeWith('varnishd')('the demo behind Varnish (VARNISH_URLS)', () => {
  let server: Server;
  let varnish: TestVarnish;
  let kernel: DemoKernel;
  /** Requests that reached the demo (a hit never does). */
  const reached: string[] = [];

  beforeAll(async () => {
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    varnish = await startVarnish((server.address() as AddressInfo).port);
    kernel = createDemoKernel({ debug: false, varnishUrls: [varnish.url] });
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      reached.push(`${req.method} ${req.url}`);
      kernel(req, res);
    });
  });
  afterAll(async () => {
    await varnish?.stop();
    await new Promise((resolve) => server?.close(resolve));
    await kernel?.close();
  });

  const get = async (path: string) => {
    const res = await fetch(`${varnish.url}${path}`, { headers: { Accept: JSON_TYPE } });
    return {
      status: res.status, cache: res.headers.get('x-cache'), xVarnish: res.headers.get('x-varnish'),
      age: res.headers.get('age'), body: await res.json() as Array<{ title: string }> | { title: string },
    };
  };
  const titles = (body: unknown) => (body as Array<{ title: string }>).map((b) => b.title);
  const write = (method: string, path: string, body?: object) => fetch(`${varnish.url}${path}`, {
    method,
    headers: { Authorization: method === 'DELETE' ? ADMIN : USER, Accept: JSON_TYPE,
      'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : JSON_TYPE },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

  it('serves the second GET of the books from the cache, and a PATCH of one of them purges it', async () => {
    const first = await get('/api/books');
    expect([first.status, first.cache, titles(first.body)]).toEqual([200, 'MISS', ['Dune', 'Hyperion', 'Solaris']]);
    expect((await get('/api/authors/2')).cache).toBe('MISS');
    const before = reached.length;
    const second = await get('/api/books');
    expect(second.cache).toBe('HIT');
    expect(second.xVarnish).toMatch(/^\d+ \d+$/); // a hit names the request and the one that filled the cache
    expect(Number(second.age)).toBeGreaterThanOrEqual(0);
    expect(titles(second.body)).toEqual(titles(first.body));
    expect((await get('/api/authors/2')).cache).toBe('HIT');
    expect(reached.length).toBe(before); // neither reached the demo

    const patch = await write('PATCH', '/api/books/1', { title: 'Dune Messiah' });
    expect(patch.status).toBe(200);

    const third = await get('/api/books');
    expect([third.cache, titles(third.body)]).toEqual(['MISS', ['Dune Messiah', 'Hyperion', 'Solaris']]);
    expect((await get('/api/books')).cache).toBe('HIT');
    // the purge named /api/books, /api/books/1 and /api/authors/1: Dan Simmons' page contains none of them
    expect((await get('/api/authors/2')).cache).toBe('HIT');
  });

  it('purges the collection when a book is created in it, and a book when it is deleted', async () => {
    expect((await get('/api/books/2')).cache).toBe('MISS');
    expect((await get('/api/books/2')).cache).toBe('HIT');
    expect((await get('/api/books')).cache).toBe('HIT');
    const post = await write('POST', '/api/books', { title: 'Children of Dune', author: '/api/authors/1' });
    expect(post.status).toBe(201);
    const after = await get('/api/books');
    expect([after.cache, titles(after.body)]).toEqual(['MISS', ['Dune Messiah', 'Hyperion', 'Solaris', 'Children of Dune']]);
    // the purge named /api/books and /api/authors/1: Hyperion's page (by author 2) contains neither
    expect((await get('/api/books/2')).cache).toBe('HIT');

    const del = await write('DELETE', '/api/books/2');
    expect(del.status).toBe(204);
    const gone = await get('/api/books/2');
    expect([gone.status, gone.cache]).toEqual([404, 'MISS']);
  });
});
