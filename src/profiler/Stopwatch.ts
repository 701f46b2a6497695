import { performance } from 'node:perf_hooks';
import { defineRequestSlot } from '../http/requestSlots';

/** One span of a request's timeline: times in ms since the kernel took the request. */
export interface StopwatchEvent {
  /** e.g. `firewall`, `controller`, `db.query`. */
  name: string;
  /**
   * What kind of work (Symfony's stopwatch categories): the kernel uses `layer`, `controller`,
   * `error`, `template` and `profiler`; applications their own. @default 'default'
   */
  category: string;
  /** ms since the kernel took the request. */
  start: number;
  /** ms since the kernel took the request; undefined while running (the Performance panel ends it at the response). */
  end?: number;
}

/**
 * Times named spans of a request for the profiler's Performance panel (Symfony's Stopwatch
 * component, `Symfony\Component\Stopwatch\Stopwatch::start($name, $category)` / `stop($name)`):
 * `req.stopwatch.start('db.query', 'doctrine')` … `req.stopwatch.stop('db.query')`. The spans
 * appear in the panel's waterfall beside the kernel's layers and phases, and in the profile's
 * `collectors.time.events` (`profileOf(res)`).
 *
 * On a request the profiler does not profile (debug off, the profiler off, its own pages) the
 * kernel gives `req.stopwatch` the {@link NULL_STOPWATCH}, whose methods do nothing.
 */
export class Stopwatch {
  /**
   * @param origin - `performance.now()` (ms) the times are relative to: the kernel's `startedAt`
   * @param events - where spans go: the kernel's timeline, shared with the layers' marks
   */
  constructor(private readonly origin: number, readonly events: StopwatchEvent[] = []) {}

  /** False only for {@link NULL_STOPWATCH}: nothing is recorded. */
  get enabled(): boolean {
    return true;
  }

  /**
   * Starts a span. Starting a name again before stopping it opens a second span of that name.
   * @param name - the span's name
   * @param category - its category @default 'default'
   */
  start(name: string, category = 'default'): void {
    this.events.push({ name, category, start: performance.now() - this.origin, end: undefined });
  }

  /**
   * Stops the latest running span of that name.
   * @returns the span, or undefined when none of that name runs
   */
  stop(name: string): StopwatchEvent | undefined {
    for (let i = this.events.length - 1; i >= 0; i--) {
      const e = this.events[i];
      if (e.name === name && e.end === undefined) {
        e.end = performance.now() - this.origin;
        return e;
      }
    }
    return undefined;
  }

  /** Whether a span of that name runs. */
  isStarted(name: string): boolean {
    return this.events.some((e) => e.name === name && e.end === undefined);
  }
}

/** The stopwatch of a request that is not profiled: it records nothing and costs a call. */
class NullStopwatch extends Stopwatch {
  constructor() {
    super(0, Object.freeze([]) as unknown as StopwatchEvent[]);
  }

  override get enabled(): boolean {
    return false;
  }

  override start(): void { /* not profiled */ }

  override stop(): undefined {
    return undefined;
  }

  override isStarted(): boolean {
    return false;
  }
}

/** The one stopwatch of every request that is not profiled. */
export const NULL_STOPWATCH: Stopwatch = new NullStopwatch();

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * Times spans for the profiler's Performance panel (see {@link Stopwatch}); set by the kernel
     * on every request it handles, a no-op one on requests it does not profile. Undefined outside
     * a kernel.
     */
    stopwatch: Stopwatch;
  }
}

defineRequestSlot('stopwatch');
