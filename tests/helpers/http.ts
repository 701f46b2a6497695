import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface Base {
  host: string;
  port: number;
}

export interface RawRequest {
  method: string;
  /** The request-target exactly as it goes on the wire: no URL parsing, no normalisation. */
  target: string;
  /**
   * Header values are ordinary (Unicode) strings and are sent as UTF-8 bytes. A `Host` header, in any
   * case, replaces the default one.
   */
  headers?: Record<string, string>;
  /** Send the default `Host: <host>:<port>` when `headers` has none. @default true */
  setHost?: boolean;
  body?: string;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Listening extends Base {
  close(): Promise<void>;
}

/** node:http sends header strings as Latin-1; this makes the bytes on the wire UTF-8. */
function toWire(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

export function rawRequest(base: Base, req: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers ?? {})) headers[name] = toWire(value);
  const hasHost = Object.keys(headers).some((name) => name.toLowerCase() === 'host');
  if (!hasHost && req.setHost !== false) headers.Host = `${base.host}:${base.port}`;

  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: base.host, port: base.port, method: req.method, path: req.target, headers, setHost: false, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end(req.body);
  });
}

/**
 * Serves `app` on 127.0.0.1 with an ephemeral port. `requireHostHeader` is off so that a request
 * without Host reaches the application (node would answer 400 itself).
 */
export function listen(app: Express | http.RequestListener): Promise<Listening> {
  const server = http.createServer({ requireHostHeader: false }, app as http.RequestListener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { address, port } = server.address() as AddressInfo;
      resolve({
        host: address,
        port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((err) => (err ? fail(err) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** Decodes a PHP rawurlencode()d value; a UTF-8 sequence cut by truncation decodes to U+FFFD. */
export function rawUrlDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < value.length; i++) {
      const hex = /^%([0-9A-Fa-f]{2})/.exec(value.slice(i, i + 3));
      if (hex) {
        bytes.push(parseInt(hex[1], 16));
        i += 2;
      } else {
        bytes.push(...Buffer.from(value[i], 'utf8'));
      }
    }
    return Buffer.from(bytes).toString('utf8');
  }
}

/** The decoded `X-Debug-Exception` header, or undefined when there is none. */
export function debugMessage(headers: http.IncomingHttpHeaders): string | undefined {
  const raw = headers['x-debug-exception'];
  if (raw === undefined) return undefined;
  return rawUrlDecode(Array.isArray(raw) ? raw.join(', ') : raw);
}
