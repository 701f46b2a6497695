/**
 * What a forked benchmark server builds: the configuration `bench/servers/server.ts` receives as
 * JSON in its first argument, and the IPC messages it exchanges with the load generator.
 */

/** The cumulative kernel layers of the `http` section's ladder, in the order they are switched on. */
export const LADDER = ['securityHeaders', 'cors', 'session', 'security', 'locale', 'timeZone'] as const;
export type LadderStep = (typeof LADDER)[number];

/** Retention caps of the profiler's SQLite store. */
export interface BenchCaps {
  maxProfiles: number;
  maxBytes: number;
}

export type ServerConfig =
  /** Express 5, `res.json({ ok: true })`, nothing else. */
  | { kind: 'express-bare' }
  /** Fastify 5, `GET /` → `{ ok: true }` (its own JSON serializer, no schema), logger off. */
  | { kind: 'fastify-bare' }
  /**
   * Express 5 with one route, `GET /plain` → `res.type('text/plain').send('plain')`; any other
   * path gets Express's own 404 (its final handler).
   */
  | { kind: 'express-plain' }
  /** Express 5 + helmet() + cors() + express-session on SqliteSessionStore, same JSON. */
  | { kind: 'express-stack'; sqlitePath: string }
  /** `createDemoKernel(...)` from src/demo/app.ts. With `profilerSqlite`, profiles go to that SQLite file. */
  | { kind: 'demo'; debug: boolean; environment?: string; sqlitePath: string; profilerSqlite?: string; caps?: BenchCaps }
  /** The demo kernel, rebuilt with `createKernel` as `createDemoKernel` does, but `profiler: { enabled: false }`. */
  | { kind: 'demo-profiler-off'; sqlitePath: string }
  /**
   * `createKernel` with the demo routes and the first `layers` steps of {@link LADDER} (0 = none,
   * securityHeaders: false); `without` takes one speed trick out of the built kernel (the `tricks`
   * section's A/B, see {@link TrickVariant}).
   */
  | { kind: 'ladder'; layers: number; sqlitePath: string; without?: TrickVariant }
  /**
   * The `api` section's peer: Express 5 + better-sqlite3 on the same SQLite file, hand-written
   * routes `GET /books?page=N` (30 rows of `table` by id) and `GET /books/:id`, as plain JSON, and
   * `GET /books_with_authors?page=N` (the same page with a LEFT JOIN on `authorsTable`, each
   * book's `author` an object).
   */
  | { kind: 'api-peer'; sqlitePath: string; table: string; authorsTable: string }
  /**
   * The demo kernel (debug off) with its resources on `openDemoDatabase` (SQLite `sqlitePath`);
   * sessions and throttling in `kernelSqlitePath`; plus, under `/bench`, the same tables as a Book
   * that embeds its Author (`bench/servers/embeddedResources.ts`).
   */
  | { kind: 'api-demo'; sqlitePath: string; kernelSqlitePath: string };

/**
 * A speed trick the `tricks` section takes out of a built kernel, to measure it:
 * - `request-slots`: the kernel's `app.request` is rebuilt without the slot accessors, so the
 *   layers write plain properties on each request (`secure` and `log` stay);
 * - `helmet-recorder`: the security headers layer is replaced by `helmet()` itself.
 * Ignored by a build whose kernel no longer has the trick.
 */
export type TrickVariant = 'request-slots' | 'helmet-recorder';

/** Parent → server. */
export type ToServer = { type: 'rss'; id: number; gc?: boolean } | { type: 'stop' };

/** Server → parent. */
export type FromServer =
  | { type: 'ready'; port: number }
  /**
   * Memory (bytes), the process's CPU time so far (µs, user + system), and the monotonic clock
   * (µs, `process.hrtime`: the clock of `--cpu-prof` sample times).
   */
  | { type: 'rss'; id: number; rss: number; heapTotal: number; heapUsed: number; external: number; cpuMicros: number; hrMicros: number }
  | { type: 'error'; message: string };

/** The application secret used by every session in the benchmarks (≥ 32 characters). */
export const BENCH_SECRET = 'express-kernel-bench-secret-0123456789abcdef';
