import * as http from 'node:http';
import * as net from 'node:net';
import type { Base } from './http';

/** One request as the fuzz test builds it: every part a plain string, sent as UTF-8 bytes. */
export interface WireRequest {
  method: string;
  /** The request-target exactly as it goes on the wire. */
  target: string;
  /** Header lines in order (a name may repeat). A `Host` entry replaces the default one. */
  headers: Array<[string, string]>;
  body?: string;
}

/** What came back: `status` 0 when the server closed the connection without an answer. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How the request went: through node's client (keep-alive) or as raw bytes on a socket. */
  via: 'client' | 'socket';
}

/** A request that got no complete answer within the deadline. */
export class WireTimeout extends Error {
  constructor(readonly request: WireRequest, ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'WireTimeout';
  }
}

const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

function withHost(base: Base, req: WireRequest): Array<[string, string]> {
  const hasHost = req.headers.some(([n]) => n.toLowerCase() === 'host');
  return hasHost ? req.headers : [['Host', `${base.host}:${base.port}`], ...req.headers];
}

/** Decodes a chunked body; what cannot be parsed is kept as it came. */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < raw.length) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return Buffer.concat([...parts, raw.subarray(at)]);
    const size = Number.parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return Buffer.concat([...parts, raw.subarray(at)]);
    if (size === 0) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseRaw(raw: Buffer, method: string): Omit<WireResponse, 'via'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: raw.toString('utf8') };
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
    }
  }
  let body = raw.subarray(end + 4);
  if (method.toUpperCase() === 'HEAD') body = Buffer.alloc(0);
  else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status, headers, body: body.toString('utf8') };
}

/**
 * Sends the request as raw bytes on a new socket (`Connection: close`), so that methods, targets
 * and header values node's client refuses reach the server as they are.
 */
export function socketRequest(base: Base, req: WireRequest, timeoutMs: number): Promise<WireResponse> {
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  const lines = [`${req.method} ${req.target} HTTP/1.1`, ...withHost(base, req).map(([n, v]) => `${n}: ${v}`)];
  if (body !== undefined) lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close', '', '');
  const head = Buffer.from(lines.join('\r\n'), 'utf8');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(base.port, base.host);
    const timer = setTimeout(() => { socket.destroy(); reject(new WireTimeout(req, timeoutMs)); }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // the server may answer (400, 413) and close before it has read everything: that is an answer
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ ...parseRaw(Buffer.concat(chunks), req.method), via: 'socket' });
    });
    socket.write(body === undefined ? head : Buffer.concat([head, body]));
  });
}

/**
 * Sends the request through node's client on `agent` (keep-alive). Throws synchronously (node's
 * `ERR_INVALID_*`) when the client refuses the method, target or a header; use
 * {@link socketRequest} for those.
 */
export function clientRequest(
  base: Base, agent: http.Agent, req: WireRequest, timeoutMs: number,
): Promise<WireResponse> {
  const headers: Array<[string, string]> = withHost(base, req).map(([n, v]) => [n, latin1(v)]);
  const body = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  // without it node sends a GET's body unframed, and the server reads it as the next request
  if (body !== undefined) headers.push(['Content-Length', String(body.length)]);
  const request = http.request({
    host: base.host, port: base.port, method: req.method, path: latin1(req.target), setHost: false, agent,
    headers: headers.flat(),
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { request.destroy(); reject(new WireTimeout(req, timeoutMs)); }, timeoutMs);
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (e) => { clearTimeout(timer); reject(e); });
      res.on('end', () => {
        clearTimeout(timer);
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          flat[name] = Array.isArray(value) ? value.join(', ') : String(value);
        }
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: flat, body: text, via: 'client' });
      });
    });
    request.on('error', (e) => { clearTimeout(timer); reject(e); });
    request.end(body);
  });
}
