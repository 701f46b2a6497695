import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GracefulShutdown, parseShutdownTimeout } from '../../src/http/gracefulShutdown';
import { RawConnection } from '../faults/rawHttp';

describe('GracefulShutdown', () => {
  test('/readyz answers 503 draining on a connection open when the drain began, with Connection: close', async () => {
    const shutdown = new GracefulShutdown({ timeoutMs: 2000, idleCloseDelayMs: 300 });
    const server = shutdown.attach(http.createServer(shutdown.handle((_req, res) => { res.end('app'); })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const conn = await RawConnection.open(port);
    conn.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(JSON.parse((await conn.read()).body)).toEqual({ status: 'ready' });
    const drained = shutdown.shutdown();
    expect(shutdown.draining).toBe(true);
    conn.write('GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n');
    const r = await conn.read();
    expect({ status: r.status, body: JSON.parse(r.body), connection: r.headers.connection })
      .toEqual({ status: 503, body: { status: 'draining' }, connection: 'close' });
    expect(await drained).toMatchObject({ cut: 0 });
    expect(server.listening).toBe(false);
  });

  test('SHUTDOWN_TIMEOUT_MS: default 10000, an integer of milliseconds, else an error naming it', () => {
    expect(parseShutdownTimeout(undefined)).toBe(10_000);
    expect(parseShutdownTimeout('2500')).toBe(2500);
    for (const bad of ['-1', '1.5', 'ten', '600001']) {
      expect(() => parseShutdownTimeout(bad)).toThrow(`Invalid environment variable "SHUTDOWN_TIMEOUT_MS"`);
    }
  });
});
