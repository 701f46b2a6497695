/** A free TCP port on 127.0.0.1, for a server a test starts. Not a test file itself. */
import net from 'node:net';

/** Asks the system for a free port on 127.0.0.1 (listens on port 0, reads it, closes). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}
