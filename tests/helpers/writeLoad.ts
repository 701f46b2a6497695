/**
 * Writes in flight for the fault tests and `bench/faultTimeline.ts`: a few loops POSTing books to
 * a demo server over real HTTP on 127.0.0.1 (keep-alive), each answer recorded with its time, so a
 * test can wait for an answer it expects (an event, not a sleep) and check afterwards that every
 * acknowledged book (a 201) was stored. Not a test file itself.
 */
import http from 'node:http';

/** The demo's ROLE_USER account (writes need it). */
export const USER_BASIC = `Basic ${Buffer.from('user:user').toString('base64')}`;

/** One answered (or failed) POST. */
export interface WriteResult {
  /** The HTTP status, or 0 when the request failed without an answer (the connection reset). */
  readonly status: number;
  /** When the answer came, in ms since the load started. */
  readonly atMs: number;
  /** The title sent (unique per request). */
  readonly title: string;
  /** The stored book's id, on a 201. */
  readonly id?: number;
  /** The body of an answer other than 201, or the client error's message. */
  readonly body?: string;
}

/** A running write load (see {@link startWriteLoad}). */
export interface WriteLoad {
  /** Every result so far, in the order they came. */
  readonly results: readonly WriteResult[];
  /**
   * Resolves with the first result from now on for which `test` is true.
   * @param test - what the awaited answer looks like
   */
  next(test: (r: WriteResult) => boolean): Promise<WriteResult>;
  /** Stops the loops after their request in flight; resolves once they have all ended. */
  stop(): Promise<void>;
}

/** One POST /api/books with `{ title }`, its status and body; rejects when the request fails. */
export function postBook(
  agent: http.Agent, port: number, title: string, auth: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({ title });
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: '/api/books', method: 'POST', agent,
      headers: {
        'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload),
        Accept: 'application/json', ...auth,
      },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Starts `concurrency` loops, each POSTing a book and then the next, until {@link WriteLoad.stop}.
 * Titles are `<prefix>-<n>`, unique for the load.
 * @param port - the demo server's port on 127.0.0.1
 * @param options - `concurrency` (default 8), the titles' `prefix` (default `w`), and how the
 *   requests authenticate: a `cookie` (a session of `user`, no password hash per request), else
 *   {@link USER_BASIC}
 */
export function startWriteLoad(
  port: number, options: { concurrency?: number; prefix?: string; cookie?: string } = {},
): WriteLoad {
  const auth: Record<string, string> = options.cookie !== undefined
    ? { Cookie: options.cookie } : { Authorization: USER_BASIC };
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency ?? 8 });
  const started = performance.now();
  const results: WriteResult[] = [];
  const waiting: Array<{ test: (r: WriteResult) => boolean; resolve: (r: WriteResult) => void }> = [];
  let stopping = false;
  let n = 0;
  const record = (r: WriteResult): void => {
    results.push(r);
    for (const w of waiting.filter((x) => x.test(r))) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(r);
    }
  };
  const loop = async (): Promise<void> => {
    while (!stopping) {
      const title = `${options.prefix ?? 'w'}-${n++}`;
      try {
        const { status, body } = await postBook(agent, port, title, auth);
        const atMs = performance.now() - started;
        if (status === 201) record({ status, atMs, title, id: (JSON.parse(body) as { id: number }).id });
        else record({ status, atMs, title, body });
      } catch (e) {
        record({ status: 0, atMs: performance.now() - started, title, body: (e as Error).message });
      }
    }
  };
  const loops = Array.from({ length: options.concurrency ?? 8 }, loop);
  return {
    results,
    next: (test) => new Promise((resolve) => waiting.push({ test, resolve })),
    async stop() {
      stopping = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}
