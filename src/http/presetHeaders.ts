import { OutgoingMessage } from 'node:http';
import type { ServerResponse } from 'node:http';

/** One header operation on a response: set a value, or remove the header (`undefined`). */
export type HeaderOperation = readonly [name: string, value: string | number | readonly string[] | undefined];

type HeaderStore = Record<string, [string, unknown]>;

/**
 * Node's own store of a response's headers (`OutgoingMessage[kOutHeaders]`: lower-cased name →
 * `[name, value]`, `null` until the first header), found once on a probe message; undefined on a
 * Node where it is not there or does not behave so (then the writer calls `setHeader`).
 */
const OUT_HEADERS: symbol | undefined = (() => {
  const probe = new OutgoingMessage();
  const key = Object.getOwnPropertySymbols(probe).find((s) => s.description === 'kOutHeaders');
  if (key === undefined || (probe as unknown as Record<symbol, unknown>)[key] !== null) return undefined;
  (probe as unknown as Record<symbol, HeaderStore>)[key] = Object.assign(Object.create(null) as HeaderStore, {
    'x-probe': ['X-Probe', 'a'],
  });
  const seen = probe.getHeader('x-probe') === 'a' && probe.getHeaderNames().join() === 'x-probe'
    && probe.hasHeader('X-PROBE');
  return seen ? key : undefined;
})();

/**
 * A function that applies a fixed list of header operations to a response, as the same
 * `setHeader` / `removeHeader` calls in the same order would, without checking each name and
 * value again on every response: they are checked here, once (`validateHeaderName`,
 * `validateHeaderValue`, RFC 9110 §5.1 and §5.5), and the values are written into Node's header
 * store directly. A response whose headers were sent gets the calls themselves (and their
 * `ERR_HTTP_HEADERS_SENT`).
 * @param operations - `[name, value]` to set, `[name, undefined]` to remove, in order
 * @returns the writer
 * @throws TypeError (Node's `ERR_INVALID_HTTP_TOKEN`, `ERR_INVALID_CHAR`) for an invalid name or value
 */
export function presetHeaders(operations: readonly HeaderOperation[]): (res: ServerResponse) => void {
  const ops = operations.map(([name, value]) => ({ name, key: name.toLowerCase(), value }));
  const calls = (res: OutgoingMessage): void => {
    for (const { name, value } of ops) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
  };
  calls(new OutgoingMessage()); // Node checks every name and value: once, here
  const key = OUT_HEADERS;
  if (key === undefined) return calls;
  return (res: ServerResponse): void => {
    if (res.headersSent) {
      calls(res);
      return;
    }
    const target = res as unknown as Record<symbol, HeaderStore | null>;
    let store = target[key];
    for (let i = 0; i < ops.length; i++) {
      const { name, key: lower, value } = ops[i];
      if (value === undefined) {
        res.removeHeader(name); // keeps Node's flags for Connection, Content-Length, Date...
        store = target[key];
      } else {
        if (store === null) target[key] = store = Object.create(null) as HeaderStore;
        // a new pair (and list) each time: `appendHeader` changes a stored pair in place
        store[lower] = [name, Array.isArray(value) ? [...value as string[]] : value];
      }
    }
  };
}
