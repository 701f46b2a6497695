import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { refuseConnect } from '../../src/http/connect';
import { createKernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';

/** Sends raw bytes and resolves with everything the server wrote before closing (or after 3 s). */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let data = '';
    socket.on('data', (d) => { data += d.toString('latin1'); });
    socket.on('close', () => resolve(data));
    socket.on('error', () => resolve(data));
    setTimeout(() => { socket.destroy(); }, 3000).unref();
  });
}

describe('refuseConnect(server)', () => {
  test('a CONNECT request gets a 405 with Allow and Connection: close, not a closed socket', async () => {
    const routes = new RouteCollection();
    routes.add('home', new Route('/', { controller: (_req, res) => { res.send('home'); } }));
    const server = refuseConnect(http.createServer(createKernel({ routes })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await exchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      expect(answer).toMatch(/\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n/);
      expect(answer).toMatch(/\r\nConnection: close\r\n/);
      // the server still serves other requests
      expect(await exchange(port, 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
