/**
 * Response headers stay bounded whatever the request (issue 27 point 7): Node's own client refuses
 * a header block over 16 KB (`HPE_HEADER_OVERFLOW`) and common proxies one over 8 KB.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKernel } from '../../src';
import { Route, RouteCollection } from '../../src/routing';

/** A GET through Node's own client, which refuses a header block over 16 KB. */
function get(server: http.Server, target: string): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: target, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    }).on('error', reject);
  });
}

/** Bytes of the header block as sent (name: value CRLF). */
function headerBytes(headers: http.IncomingHttpHeaders): number {
  return Object.entries(headers).reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${String(v)}\r\n`), 0);
}

describe('response headers are bounded', () => {
  let server: http.Server;
  const long = '€'.repeat(3000);
  beforeAll(async () => {
    const routes = new RouteCollection();
    routes.add('boom', new Route('/boom', { controller: () => { throw new Error(long); } }));
    routes.add('folder', new Route('/folder/', { controller: (_req, res) => { res.send('folder'); } }));
    server = http.createServer(createKernel({ routes, debug: true, profiler: { enabled: false } }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => { await new Promise((r) => server.close(r)); });

  test('X-Debug-Exception carries the message\'s first 2000 UTF-8 bytes, whole characters (Symfony\'s substr)', async () => {
    const res = await get(server, '/boom');
    expect(res.status).toBe(500);
    const header = String(res.headers['x-debug-exception']);
    expect(header.length).toBeLessThanOrEqual(6000);
    expect(decodeURIComponent(header)).toBe('€'.repeat(666)); // 666 × 3 bytes ≤ 2000 < 667 × 3
    expect(headerBytes(res.headers)).toBeLessThan(8192);
  });

  test('a trailing-slash redirect whose Location would pass 8000 characters is the 404 of an unmatched path', async () => {
    const short = await get(server, '/folder?q=1');
    expect([short.status, short.headers.location]).toEqual([301, expect.stringMatching(/\/folder\/\?q=1$/)]);
    const res = await get(server, `/folder?q=${'a'.repeat(9000)}`);
    expect(res.status).toBe(404);
    expect(res.headers.location).toBeUndefined();
    expect(headerBytes(res.headers)).toBeLessThan(8192);
  });
});
