import type http from 'node:http';
import net, { type Socket } from 'node:net';

/** The default grace period of {@link GracefulShutdown.shutdown}, in milliseconds. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

/** Something to log to (a pino logger fits). */
interface ShutdownLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Options of {@link GracefulShutdown}. */
export interface GracefulShutdownOptions {
  /**
   * How long {@link GracefulShutdown.shutdown} waits for requests already received to be answered,
   * in milliseconds; past it, the connections still busy are cut. @default 10000
   */
  timeoutMs?: number;
  /**
   * How long after the drain begins idle keep-alive connections are closed, in milliseconds: a
   * request already on the wire in that time is still read and answered (with `Connection: close`).
   * 20 ms let one request in two CI runs under keep-alive load reach a socket as it closed
   * (ECONNRESET, tests/faults/shutdown.test.ts); 250 ms leaves a loaded machine time to read it.
   * @default 250
   */
  idleCloseDelayMs?: number;
  /** Where to log the drain and what it cut. */
  logger?: ShutdownLogger;
}

/** What {@link GracefulShutdown.shutdown} did. */
export interface ShutdownResult {
  /** Requests that were still unanswered at the deadline, whose connection was cut. */
  readonly cut: number;
  /** How long the drain took, in milliseconds. */
  readonly ms: number;
}

/**
 * Parses `SHUTDOWN_TIMEOUT_MS` (or another variable holding a grace period).
 * @param value - the variable's value, or undefined when unset
 * @param name - the variable, named in the error @default 'SHUTDOWN_TIMEOUT_MS'
 * @returns milliseconds: the value, or {@link DEFAULT_SHUTDOWN_TIMEOUT_MS} when unset or empty
 * @throws Error `Invalid environment variable "<name>": expected an integer number of milliseconds
 *   from 0 to 600000, got "<value>".`
 */
export function parseShutdownTimeout(value: string | undefined, name = 'SHUTDOWN_TIMEOUT_MS'): number {
  if (value === undefined || value.trim() === '') return DEFAULT_SHUTDOWN_TIMEOUT_MS;
  const ms = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(ms) || ms > 600_000) {
    throw new Error(`Invalid environment variable "${name}": expected an integer number of milliseconds `
      + `from 0 to 600000, got "${value}".`);
  }
  return ms;
}

const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/**
 * Graceful shutdown of a Node HTTP server, with liveness and readiness endpoints (the Kubernetes
 * probes' `/healthz` and `/readyz`) answered in front of the application: outside every kernel
 * layer (no firewall, no session, no profile).
 *
 * {@link GracefulShutdown.shutdown} stops accepting connections, answers every request already
 * received (each response then carries `Connection: close`), closes idle keep-alive connections,
 * and waits up to the grace period for the busy ones; past it, it cuts them and reports how many
 * requests it cut. While draining, `/readyz` answers 503 so a load balancer stops sending.
 *
 * @example
 * const shutdown = new GracefulShutdown({ timeoutMs: 10_000, logger });
 * const server = shutdown.attach(http.createServer(shutdown.handle(kernel)));
 * process.once('SIGTERM', async () => process.exit((await shutdown.shutdown()).cut > 0 ? 1 : 0));
 */
export class GracefulShutdown {
  private readonly timeoutMs: number;
  private readonly idleCloseDelayMs: number;
  private readonly logger: ShutdownLogger | undefined;
  /** Every open connection, with how many of its requests are unanswered. */
  private readonly sockets = new Map<Socket, number>();
  private readonly responses = new Set<http.ServerResponse>();
  private servers: http.Server[] = [];
  private drainingSince: number | undefined;
  private onIdle: (() => void) | undefined;

  /** @throws RangeError when `timeoutMs` is not an integer ≥ 0 */
  constructor(options: GracefulShutdownOptions = {}) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 0) {
      throw new RangeError(`Invalid option "timeoutMs": expected an integer ≥ 0, got ${String(timeoutMs)}.`);
    }
    this.timeoutMs = timeoutMs;
    this.idleCloseDelayMs = Math.max(0, options.idleCloseDelayMs ?? 250);
    this.logger = options.logger;
  }

  /** Whether {@link shutdown} has started. */
  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /**
   * Wraps the application: `GET`/`HEAD /healthz` (liveness: 200 `{"status":"ok"}`, or
   * `"draining"`) and `/readyz` (readiness: 200 `{"status":"ready"}`, 503 `{"status":"draining"}`)
   * are answered here; every other request goes to `app`, counted until its response ends.
   * @param app - the request listener (an Express application or kernel)
   * @returns the request listener to give `http.createServer`
   */
  handle(app: http.RequestListener): http.RequestListener {
    return (req, res) => {
      const socket = req.socket;
      this.sockets.set(socket, (this.sockets.get(socket) ?? 0) + 1);
      this.responses.add(res);
      res.once('close', () => this.done(socket, res));
      if (this.draining) res.setHeader('Connection', 'close');
      const path = (req.url ?? '').split('?')[0];
      if (HEALTH_PATHS.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
        this.probe(path, req, res);
        return;
      }
      app(req, res);
    };
  }

  /**
   * Tracks the server's connections (call once per server, before it listens).
   * @param server - the server whose request listener is {@link handle}'s
   * @returns the server
   */
  attach<S extends http.Server>(server: S): S {
    this.servers.push(server);
    server.on('connection', (socket: Socket) => {
      this.sockets.set(socket, this.sockets.get(socket) ?? 0);
      socket.once('close', () => { this.sockets.delete(socket); this.check(); });
    });
    return server;
  }

  /**
   * Drains: stops accepting, answers what was received with `Connection: close`, closes idle
   * connections, waits up to the grace period, then cuts what is left. Calling it again returns
   * the same drain.
   * @returns how many requests were cut, and how long it took
   */
  shutdown(): Promise<ShutdownResult> {
    this.drain ??= this.run();
    return this.drain;
  }

  private drain: Promise<ShutdownResult> | undefined;

  private async run(): Promise<ShutdownResult> {
    const started = Date.now();
    this.drainingSince = started;
    for (const res of this.responses) if (!res.headersSent) res.setHeader('Connection', 'close');
    // net.Server#close only: http.Server#close would also destroy idle connections at once,
    // before their last request (already on the wire) could be read
    for (const server of this.servers) net.Server.prototype.close.call(server);
    this.logger?.info({ busy: this.busyRequests(), timeoutMs: this.timeoutMs }, 'draining');
    // let bytes already received be read and parsed, then close the connections with nothing to answer
    await new Promise((resolve) => setTimeout(resolve, this.idleCloseDelayMs));
    for (const server of this.servers) server.close();
    this.closeIdle();
    const idle = new Promise<void>((resolve) => { this.onIdle = resolve; this.check(); });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    const outcome = await Promise.race([idle, deadline]);
    clearTimeout(timer);
    let cut = 0;
    if (outcome === 'timeout') {
      cut = this.busyRequests();
      for (const socket of this.sockets.keys()) socket.destroy();
      this.logger?.warn({ cut, timeoutMs: this.timeoutMs }, 'shutdown grace period over: cut unanswered requests');
    }
    return { cut, ms: Date.now() - started };
  }

  private probe(path: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    const ready = path === '/healthz' || !this.draining;
    const status = path === '/healthz' ? (this.draining ? 'draining' : 'ok') : (ready ? 'ready' : 'draining');
    const body = JSON.stringify({ status });
    res.writeHead(ready ? 200 : 503, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private busyRequests(): number {
    let n = 0;
    for (const count of this.sockets.values()) n += count;
    return n;
  }

  private done(socket: Socket, res: http.ServerResponse): void {
    this.responses.delete(res);
    const left = (this.sockets.get(socket) ?? 1) - 1;
    if (this.sockets.has(socket)) this.sockets.set(socket, Math.max(0, left));
    // a response sent keep-alive before the drain began leaves its connection open: close it
    if (this.draining && left <= 0) socket.end();
    this.check();
  }

  private closeIdle(): void {
    for (const [socket, busy] of this.sockets) if (busy === 0) socket.destroy();
  }

  private check(): void {
    if (this.onIdle !== undefined && this.sockets.size === 0) this.onIdle();
  }
}
