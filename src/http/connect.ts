import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** The methods an express-kernel application answers; a `CONNECT` refusal lists them in `Allow`. */
const ALLOWED = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';

const BODY = 'Method CONNECT is not allowed.\n';
const RESPONSE = [
  'HTTP/1.1 405 Method Not Allowed',
  `Allow: ${ALLOWED}`,
  'Content-Type: text/plain; charset=UTF-8',
  `Content-Length: ${Buffer.byteLength(BODY)}`,
  'Cache-Control: no-cache, private',
  'Connection: close',
  '',
  BODY,
].join('\r\n');

/**
 * Answers `CONNECT` requests with `405 Method Not Allowed` (`Allow: GET, HEAD, POST, PUT, PATCH,
 * DELETE, OPTIONS`, `Connection: close`) instead of the closed socket Node gives them: Node's
 * HTTP server hands `CONNECT` (a tunnel request, RFC 9110 §9.3.6) to its `'connect'` event, never
 * to the application, and destroys the socket when nobody listens. An application server is not
 * a proxy, so it refuses the method as any other it does not route.
 * @param server - the `http.Server` (or `https.Server`) serving the kernel
 * @returns the same server
 */
export function refuseConnect<S extends Server>(server: S): S {
  server.on('connect', (_req: unknown, socket: Duplex) => {
    socket.on('error', () => { /* the client went away: nothing to answer */ });
    socket.end(RESPONSE);
  });
  return server;
}
