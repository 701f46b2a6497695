import type { Request } from 'express';
import { performance } from 'node:perf_hooks';
import type { DataCollector } from './DataCollector';

/** Data of the performance panel. All times in ms. */
export interface TimeData {
  /** Total duration until the response finished, in ms. */
  duration: number;
  /** Each layer's start and end in ms since the kernel took the request. */
  events: Array<{ name: string; start: number; end: number }>;
}

/** Timeline of the layers and total duration (Symfony `TimeDataCollector`). */
export class TimeCollector implements DataCollector<TimeData> {
  readonly name = 'time';
  collect(req: Request): TimeData {
    const now = performance.now() - req.kernel.startedAt;
    return {
      duration: Math.round(now * 1000) / 1000,
      events: req.kernel.timeline.map((e) => ({ name: e.name, start: round(e.start), end: round(e.end ?? now) })),
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
