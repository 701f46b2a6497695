/**
 * The API behind a real Varnish (issue 25, point 5): docs/varnish/xkey.vcl caches by the API's
 * `Cache-Control` and indexes responses by their `xkey` header; a write through the API purges
 * the IRIs it changed (`VarnishXKeyPurger`: `PURGE` with `xkey`), so the next read misses and
 * shows the new value, while a cached response that does not contain the item stays cached.
 * Needs varnishd and vmod xkey (apt-get install -y varnish varnish-modules).
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes, VarnishXKeyPurger } from '../../../src/api';
import { MemoryState } from '../../../src/api/state/MemoryState';
import { createKernel } from '../../../src/kernel/createKernel';
import { describeWith } from '../../helpers/requirements';
import { startVarnish, type TestVarnish } from '../../helpers/varnish';
import { scaled } from '../../helpers/timeScale';
import { libraryResources } from './library';

jest.setTimeout(scaled(120_000));

const JSON_TYPE = 'application/json';

describeWith('varnishd')('the API behind Varnish with VarnishXKeyPurger', () => {
  const state = new MemoryState();
  const { author, book } = libraryResources(state);
  let server: Server;
  let varnish: TestVarnish;
  /** Requests that reached the API (a hit never does). */
  const reached: string[] = [];

  beforeAll(async () => {
    await state.create(author.metadata, { name: 'Ursula' });
    await state.create(author.metadata, { name: 'Italo' });
    await state.create(book.metadata, { title: 'The Dispossessed', author: 1 });
    await state.create(book.metadata, { title: 'Invisible Cities', author: 2 });
    server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    varnish = await startVarnish((server.address() as AddressInfo).port);
    const kernel = createKernel({
      routes: apiRoutes({
        resources: [book, author],
        cacheHeaders: { max_age: 0, shared_max_age: 3600, public: true },
        purger: new VarnishXKeyPurger({ urls: [varnish.url] }),
      }),
      debug: false,
    });
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      reached.push(`${req.method} ${req.url}`);
      kernel(req, res);
    });
  });
  afterAll(async () => {
    await varnish?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const get = async (path: string) => {
    const res = await fetch(`${varnish.url}${path}`, { headers: { Accept: JSON_TYPE } });
    return { cache: res.headers.get('x-cache'), xVarnish: res.headers.get('x-varnish'), body: await res.json() };
  };
  const titles = (body: unknown) => (body as Array<{ title: string }>).map((b) => b.title);

  it('serves the second GET of a collection from the cache, and a PATCH of one of its books purges it', async () => {
    const first = await get('/api/books');
    expect([first.cache, titles(first.body)]).toEqual(['MISS', ['The Dispossessed', 'Invisible Cities']]);
    expect(await get('/api/authors/2')).toMatchObject({ cache: 'MISS' });
    const before = reached.length;
    const second = await get('/api/books');
    expect(second.cache).toBe('HIT');
    expect(second.xVarnish).toMatch(/^\d+ \d+$/); // a hit names the request and the one that filled it
    expect(titles(second.body)).toEqual(titles(first.body));
    expect((await get('/api/authors/2')).cache).toBe('HIT');
    expect(reached.length).toBe(before); // neither reached the API

    const patch = await fetch(`${varnish.url}/api/books/1`, {
      method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json', Accept: JSON_TYPE },
      body: JSON.stringify({ title: 'The Left Hand of Darkness' }),
    });
    expect(patch.status).toBe(200);

    const third = await get('/api/books');
    expect([third.cache, titles(third.body)]).toEqual(['MISS', ['The Left Hand of Darkness', 'Invisible Cities']]);
    expect((await get('/api/books')).cache).toBe('HIT');
    // the purge named /api/books, /api/books/1 and /api/authors/1: Italo's page does not contain them
    expect((await get('/api/authors/2')).cache).toBe('HIT');
  });

  it('purges a collection when a book is created in it, and an item when it is deleted', async () => {
    expect((await get('/api/books/2')).cache).toBe('MISS');
    expect((await get('/api/books/2')).cache).toBe('HIT');
    expect((await get('/api/books')).cache).toBe('HIT');
    const post = await fetch(`${varnish.url}/api/books`, {
      method: 'POST', headers: { 'Content-Type': JSON_TYPE, Accept: JSON_TYPE },
      body: JSON.stringify({ title: 'The Word for World Is Forest', author: '/api/authors/1' }),
    });
    expect(post.status).toBe(201);
    const after = await get('/api/books');
    expect([after.cache, titles(after.body)]).toEqual(['MISS', ['The Left Hand of Darkness', 'Invisible Cities', 'The Word for World Is Forest']]);
    // the purge named /api/books and /api/authors/1: book 2's page (by author 2) contains neither
    expect((await get('/api/books/2')).cache).toBe('HIT');

    const del = await fetch(`${varnish.url}/api/books/2`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    const gone = await fetch(`${varnish.url}/api/books/2`, { headers: { Accept: JSON_TYPE } });
    expect([gone.status, gone.headers.get('x-cache')]).toEqual([404, 'MISS']);
  });
});
