import type { IncomingMessage } from 'node:http';
import pino, { type Logger } from 'pino';
import { redact, redactText } from './redaction';

/** A request that may carry a pino logger as `log`. */
type WithLog = IncomingMessage & { log?: Logger };

/**
 * The request's pino logger, `req.log`, or undefined when nothing set one.
 *
 * The kernel does not declare `req.log` on Express's `Request`: pino-http declares it (present
 * on every request), and two declarations would clash. With pino-http, write `req.log.info(…)`;
 * without it, `requestLog(req)?.info(…)`. Either way, on a profiled request it is the profiler's
 * per-request logger (a pino child of the kernel's `logger`, bound to `reqId`, the profiler token),
 * made on first use, whose records from `debug` up also go to the profile's Logs panel; a logger a
 * parent app set before the kernel (pino-http's) is replaced by it there.
 * @param req - any Node or Express request
 * @returns the logger, or undefined (outside a kernel without pino-http, or an unprofiled request
 *   without one)
 */
export function requestLog(req: IncomingMessage): Logger | undefined {
  return (req as WithLog).log;
}

/**
 * Sets the request's `req.log` (inside a kernel it is kept in `req.kernel`).
 * @param req - any Node or Express request
 * @param log - the logger
 */
export function setRequestLog(req: IncomingMessage, log: Logger | undefined): void {
  (req as WithLog).log = log;
}

/** One log record as the Logs panel shows it. */
export interface LogRecord {
  /** ms since the epoch. */
  time: number;
  /** pino's numeric level: 10 trace, 20 debug, 30 info, 40 warn, 50 error, 60 fatal. */
  level: number;
  /** The level's name, e.g. `warn`. */
  label: string;
  msg: string;
  /** The record's other fields (bindings and merged object), secret-looking fields redacted. */
  context: Record<string, unknown>;
}

/** The records a request's logger emitted, oldest first, at most `max`. */
export class LogBuffer {
  readonly records: LogRecord[] = [];
  /** How many records were dropped past `max`. */
  dropped = 0;
  /** @param max - how many records to keep @default 1000 */
  constructor(readonly max = 1000) {}

  add(record: LogRecord): void {
    if (this.records.length < this.max) this.records.push(record);
    else this.dropped++;
  }
}

const { streamSym, needsMetadataGsym, messageKeySym } = pino.symbols;
const NOT_CONTEXT = new Set(['level', 'time', 'pid', 'hostname', 'reqId']);

/** Where a logger writes, with pino's per-write metadata (set because `needsMetadataGsym` is true). */
interface MetadataStream {
  write(s: string): unknown;
  flush?(cb: (err?: Error) => void): void;
  lastLevel?: number;
  lastObj?: unknown;
  lastMsg?: string;
  lastTime?: string;
  lastLogger?: unknown;
  [needsMetadataGsym]?: boolean;
}

/** A logger that writes nowhere: the base when the kernel was given none. */
export const NULL_LOGGER: Logger = pino({ level: 'silent' }, { write() { /* nowhere */ } });

function recordOf(line: string, stream: MetadataStream, messageKey: string, labels: Record<number, string>): LogRecord {
  const level = stream.lastLevel ?? 30;
  let parsed: Record<string, unknown> | undefined;
  try { parsed = JSON.parse(line) as Record<string, unknown>; } catch { /* a custom serializer */ }
  const source = parsed
    ?? (typeof stream.lastObj === 'object' && stream.lastObj !== null ? stream.lastObj as Record<string, unknown> : {});
  const context: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) if (!NOT_CONTEXT.has(k) && k !== messageKey) context[k] = v;
  const msg = parsed?.[messageKey] ?? stream.lastMsg ?? '';
  return {
    time: typeof parsed?.time === 'number' ? parsed.time : Date.now(),
    level,
    label: labels[level] ?? String(level),
    msg: redactText(typeof msg === 'string' ? msg : JSON.stringify(msg)),
    context: redact(context) as Record<string, unknown>,
  };
}

/**
 * A request's logger: a pino child of `base` whose records go to `base`'s destination when
 * `base`'s level lets them through, and to `buffer` from `captureLevel` up. Children of the
 * returned logger (`req.log.child(…)`) write to both as well.
 * @param base - the kernel's logger
 * @param reqId - bound to every record (the profiler token)
 * @param captureLevel - the lowest level the buffer keeps, when `base` knows it @default 'debug'
 */
export function createRequestLogger(base: Logger, reqId: string, buffer: LogBuffer, captureLevel = 'debug'): Logger {
  const baseLevel = base.levelVal;
  const captureVal = base.levels.values[captureLevel];
  const level = captureVal !== undefined && captureVal < baseLevel ? captureLevel : base.level;
  const child = base.child({ reqId }, level === base.level ? undefined : { level });
  const inner = (base as unknown as Record<symbol, MetadataStream>)[streamSym];
  const configuredKey = (base as unknown as Record<symbol, unknown>)[messageKeySym];
  const messageKey = typeof configuredKey === 'string' ? configuredKey : 'msg';
  const labels = base.levels.labels;
  const tee: MetadataStream = {
    [needsMetadataGsym]: true,
    write(line: string) {
      buffer.add(recordOf(line, tee, messageKey, labels));
      if ((tee.lastLevel ?? 0) < baseLevel) return;
      if (inner[needsMetadataGsym] === true) {
        inner.lastLevel = tee.lastLevel; inner.lastObj = tee.lastObj; inner.lastMsg = tee.lastMsg;
        inner.lastTime = tee.lastTime; inner.lastLogger = tee.lastLogger;
      }
      inner.write(line);
    },
    flush(cb) {
      if (typeof inner.flush === 'function') inner.flush(cb);
      else cb();
    },
  };
  (child as unknown as Record<symbol, unknown>)[streamSym] = tee;
  return child;
}
