/**
 * VarnishXKeyPurger (API Platform's): the PURGE requests it sends to a real HTTP server on
 * 127.0.0.1, its chunking of long key lists (API Platform's own cases, then a property), and the
 * failures it reports.
 */
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { isPurgeFailedError, VarnishXKeyPurger } from '../../../src/api';
import { KernelConfigError } from '../../../src/config/KernelConfigError';

interface Received { method: string; url: string; xkey: string | undefined }

describe('VarnishXKeyPurger', () => {
  let server: Server;
  let url: string;
  const received: Received[] = [];
  let status = 200;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push({ method: req.method ?? '', url: req.url ?? '', xkey: req.headers.xkey as string | undefined });
      res.statusCode = status;
      res.end('purged');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => { await new Promise((resolve) => server.close(resolve)); });
  beforeEach(() => { received.length = 0; status = 200; });

  it('sends PURGE with the IRIs in one xkey header, to each URL as given', async () => {
    await new VarnishXKeyPurger({ urls: [url, `${url}/varnish-b`] }).purge(['/api/books', '/api/books/1']);
    expect(received).toEqual([
      { method: 'PURGE', url: '/', xkey: '/api/books /api/books/1' },
      { method: 'PURGE', url: '/varnish-b', xkey: '/api/books /api/books/1' },
    ]);
  });

  it('sends nothing for no IRI, and tags responses with xkey', async () => {
    const purger = new VarnishXKeyPurger({ urls: [url] });
    await purger.purge([]);
    expect(received).toEqual([]);
    expect(purger.getResponseHeaders(['/api/books/1', '/api/books'])).toEqual({ xkey: '/api/books/1 /api/books' });
    expect(new VarnishXKeyPurger({ urls: [url], glue: ',' }).getResponseHeaders(['/a', '/b'])).toEqual({ xkey: '/a,/b' });
  });

  // API Platform's VarnishXKeyPurgerTest::provideChunkHeaderCases
  it.each<[number, string[], string[]]>([
    [50, ['/foo', '/bar', '/ab', '/cd'], ['/foo /bar /ab /cd']],
    [27, ['/foofoofoofoo', '/barbarbarbar'], ['/foofoofoofoo /barbarbarbar']],
    [21, ['/foobarfoo', '/barfoobar', '/baz'], ['/foobarfoo /barfoobar', '/baz']],
    [18, ['/foo', '/bar', '/some-longer-tag'], ['/foo /bar', '/some-longer-tag']],
    [13, ['/foo/1', '/foo/2', '/foo/3', '/foo/4', '/foo/5', '/foo/6', '/foo/8910'],
      ['/foo/1 /foo/2', '/foo/3 /foo/4', '/foo/5 /foo/6', '/foo/8910']],
    [8000, Array<string>(3002).fill('/foo'), [Array<string>(1600).fill('/foo').join(' '), Array<string>(1402).fill('/foo').join(' ')]],
  ])('with maxHeaderLength %d, sends the keys in as few headers as fit, in order', async (max, iris, sent) => {
    await new VarnishXKeyPurger({ urls: [url], maxHeaderLength: max }).purge(iris);
    expect(received.map((r) => r.xkey)).toEqual(sent);
  });

  it('chunks any list into headers of at most maxHeaderLength that give the keys back in order', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 60 }),
      fc.array(fc.stringMatching(/^\/[a-z0-9/]{0,40}$/), { maxLength: 40 }),
      (max, raw) => {
        const iris = raw.filter((i) => i.length <= max);
        const chunks = new VarnishXKeyPurger({ urls: [url], maxHeaderLength: max }).chunks(iris);
        expect(chunks.every((c) => c.length <= max)).toBe(true);
        expect(chunks.flatMap((c) => c.split(' '))).toEqual(iris);
        // greedy: the next key would not have fitted in the previous header
        for (let i = 1; i < chunks.length; i++) {
          expect(`${chunks[i - 1]} ${chunks[i].split(' ')[0]}`.length).toBeGreaterThan(max);
        }
      },
    ));
  });

  it('fails with PurgeFailedError, sending nothing, for an IRI longer than maxHeaderLength', async () => {
    const purge = new VarnishXKeyPurger({ urls: [url], maxHeaderLength: 20 }).purge(['/a', '/foobar-long-foobar-toolong']);
    await expect(purge).rejects.toThrow('IRI "/foobar-long-foobar-toolong" is longer than the purge\'s maxHeaderLength (20)');
    expect(received).toEqual([]);
  });

  it('fails with PurgeFailedError when Varnish refuses the purge or cannot be reached', async () => {
    status = 403;
    const refused = await new VarnishXKeyPurger({ urls: [url] }).purge(['/a']).catch((e: unknown) => e);
    expect(isPurgeFailedError(refused)).toBe(true);
    expect((refused as Error).message).toBe(`PURGE ${url} answered 403 Forbidden`);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = await new VarnishXKeyPurger({ urls: [`http://127.0.0.1:${port}`] }).purge(['/a']).catch((e: unknown) => e);
    expect(isPurgeFailedError(unreachable)).toBe(true);
    expect((unreachable as Error).message).toMatch(new RegExp(`^PURGE http://127.0.0.1:${port} failed: `));
  });

  it('refuses bad options at construction, naming them', () => {
    expect(() => new VarnishXKeyPurger({ urls: [] })).toThrow(KernelConfigError);
    expect(() => new VarnishXKeyPurger({ urls: [] })).toThrow(/VarnishXKeyPurger\.urls.*at least one Varnish URL/);
    expect(() => new VarnishXKeyPurger({ urls: ['varnish:80'] })).toThrow(/urls\[0\].*http\(s\) URL/);
    expect(() => new VarnishXKeyPurger({ urls: [url], maxHeaderLenght: 10 } as never)).toThrow(/did you mean "maxHeaderLength"/);
  });
});
