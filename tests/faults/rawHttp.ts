/**
 * A raw HTTP/1.1 client over one TCP socket, for fault tests that need to control exactly when
 * each byte is sent (slow uploads, requests on an open keep-alive connection). Not a test file.
 */
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One keep-alive connection; `read()` resolves with the next complete response on it. */
export class RawConnection {
  private buffer = '';
  private waiting: Array<(r: RawResponse | Error) => void> = [];
  /** Whether the server closed the connection (FIN or reset). */
  closed = false;
  /** The socket error, when the connection was reset. */
  error: Error | undefined;

  private constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { this.buffer += chunk; this.flush(); });
    socket.on('error', (e) => { this.error = e; });
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.waiting.splice(0)) w(this.error ?? new Error('connection closed before a response'));
    });
  }

  /** Connects to 127.0.0.1:`port`. */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(s)));
      s.once('error', reject);
    });
  }

  /** Writes bytes as they are. */
  write(text: string): void {
    this.socket.write(text);
  }

  /** The next response (Content-Length bodies only, which is what the server sends here). */
  read(): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      this.waiting.push((r) => (r instanceof Error ? reject(r) : resolve(r)));
      this.flush();
      if (this.closed) for (const w of this.waiting.splice(0)) w(this.error ?? new Error('connection closed'));
    });
  }

  /** Ends the socket. */
  end(): void {
    this.socket.destroy();
  }

  private flush(): void {
    while (this.waiting.length > 0) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      const length = Number(headers['content-length'] ?? 0);
      if (Buffer.byteLength(this.buffer.slice(end + 4)) < length) return;
      const body = Buffer.from(this.buffer.slice(end + 4)).subarray(0, length).toString();
      this.buffer = Buffer.from(this.buffer.slice(end + 4)).subarray(length).toString();
      this.waiting.shift()!({ status: Number(statusLine.split(' ')[1]), headers, body });
    }
  }
}

/**
 * Starts `POST path` as the demo's `user` (writes need ROLE_USER) with a JSON body of `size`
 * bytes (a valid book, padded with a member the API ignores), sending only its first half now.
 * The request says `Expect: 100-continue`, so `received` resolves when the server has read its
 * head (Node answers `100 Continue` as it hands the request to the application): an event to
 * wait on instead of a pause. The final response is the connection's next `read()`.
 */
export function startSlowUpload(
  conn: RawConnection, path: string, size: number,
): { rest: string; received: Promise<void> } {
  const json = JSON.stringify({ title: 'Slow', padding: 'x'.repeat(size - 31) });
  const received = conn.read().then((r) => {
    if (r.status !== 100) throw new Error(`expected 100 Continue, got ${r.status}: ${r.body}`);
  });
  conn.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`
    + `Authorization: Basic ${Buffer.from('user:user').toString('base64')}\r\nExpect: 100-continue\r\n`
    + `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: keep-alive\r\n\r\n${json.slice(0, size / 2)}`);
  return { rest: json.slice(size / 2), received };
}

/** Sends `text` in `chunks` pieces, one every `everyMs` milliseconds. */
export async function trickle(conn: RawConnection, text: string, chunks: number, everyMs: number): Promise<void> {
  const size = Math.ceil(text.length / chunks);
  for (let i = 0; i < text.length; i += size) {
    await new Promise((r) => setTimeout(r, everyMs));
    if (conn.closed) return;
    conn.write(text.slice(i, i + size));
  }
}
