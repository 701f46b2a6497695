/**
 * Small timing harness shared by the benchmark sections.
 *
 * A {@link Runner} performs `ops` operations and returns a checksum (so the work cannot be
 * optimised away); it may return a promise when the operations complete asynchronously (the
 * promise resolves when all `ops` have completed). Time is measured with
 * `process.hrtime.bigint()` around whole chunks of operations, so the clock's own cost is not
 * charged to each operation.
 */

/** Runs `ops` operations; returns a checksum, or a promise of one. */
export type Runner = (ops: number) => number | Promise<number>;

/** How long one measurement lasts. */
export interface MeasureOptions {
  /** Keep going until at least this long has elapsed (ns)… */
  minTimeNs: number;
  /** …and at least this many operations ran… */
  minOps: number;
  /** …unless this much time has elapsed (ns): slow cells stop here. */
  maxTimeNs: number;
}

/** One measurement. */
export interface Sample {
  nsPerOp: number;
  ops: number;
  elapsedNs: number;
}

let sink = 0;

/** The accumulated checksums (print it, or it may be optimised away in theory). */
export function checksum(): number {
  return sink;
}

/**
 * Measures a runner: runs chunks of operations (growing until a chunk lasts about 5 ms) until
 * the options are satisfied, and returns ns per operation over everything that ran.
 */
export async function measure(run: Runner, options: MeasureOptions): Promise<Sample> {
  let chunk = 64;
  let ops = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  for (;;) {
    const t0 = process.hrtime.bigint();
    const r = run(chunk);
    sink = (sink + (typeof r === 'number' ? r : await r)) | 0;
    const t1 = process.hrtime.bigint();
    ops += chunk;
    elapsed = Number(t1 - start);
    if (elapsed >= options.maxTimeNs) break;
    if (elapsed >= options.minTimeNs && ops >= options.minOps) break;
    if (Number(t1 - t0) < 5e6 && chunk < 1 << 16) chunk *= 2;
  }
  return { nsPerOp: elapsed / ops, ops, elapsedNs: elapsed };
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** A deterministic PRNG (mulberry32) so every run benchmarks the same requests. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Formats ns/op for a table cell. */
export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return '-';
  if (ns < 100) return ns.toFixed(1);
  return Math.round(ns).toLocaleString('en-US');
}

/** Formats a ratio for a table cell. */
export function formatRatio(r: number): string {
  if (!Number.isFinite(r)) return '-';
  return r < 10 ? r.toFixed(2) + '×' : r.toFixed(1) + '×';
}

/** Left/right padding helpers for plain-text tables. */
export function padLeft(s: string, width: number): string {
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}
export function padRight(s: string, width: number): string {
  return s.length >= width ? s : s + ' '.repeat(width - s.length);
}

/** Reads `--name=value` from a section's arguments. */
export function option(args: readonly string[], name: string): string | undefined {
  const prefix = `--${name}=`;
  const hit = args.find((a) => a.startsWith(prefix));
  return hit === undefined ? undefined : hit.slice(prefix.length);
}
