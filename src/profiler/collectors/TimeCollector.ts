import type { Request } from 'express';
import { performance } from 'node:perf_hooks';
import type { CollectorSummary, DataCollector } from './DataCollector';

/** One bar of the waterfall: a layer's start and end, in ms since the kernel took the request. */
export interface TimelineEvent {
  name: string;
  /** `layer`, `controller`, `error`, `template`, `profiler`, or an application's (`req.stopwatch`). */
  category?: string;
  start: number;
  end: number;
}

/** Data of the performance panel. All times in ms. */
export interface TimeData {
  /** Total duration until the response finished, in ms. */
  duration: number;
  /** Each timed layer's start and end, in ms since the kernel took the request, in start order. */
  events: TimelineEvent[];
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** Timeline of the layers and total duration (Symfony `TimeDataCollector`). */
export class TimeCollector implements DataCollector<TimeData> {
  readonly name = 'time';
  readonly label = 'Performance';

  collect(req: Request): TimeData {
    const now = performance.now() - req.kernel!.startedAt;
    return {
      duration: round(now),
      events: req.kernel!.timeline.map((e) => ({
        name: e.name, category: e.category, start: round(e.start), end: round(e.end ?? now),
      })),
    };
  }

  /** `27 ms`; yellow from 1 s, red from 5 s. */
  summary(data: TimeData): CollectorSummary {
    return {
      text: `${Math.round(data.duration)} ms`,
      status: data.duration >= 5000 ? 'error' : data.duration >= 1000 ? 'warning' : 'none',
    };
  }
}

/** A waterfall bar's offset and width, as percentages of the request's duration. */
export interface WaterfallBar extends TimelineEvent {
  /** The event's own duration in ms. */
  duration: number;
  /** Left edge, 0–100. */
  left: number;
  /** Width, 0–100, at least 0.5 so short events stay visible. */
  width: number;
}

/**
 * Lays the timeline out as a waterfall: each event as percentages of the total duration.
 * @param scale - the duration that spans the full width, in ms @default the request's duration
 */
export function waterfall(data: TimeData | undefined, scale?: number): WaterfallBar[] {
  if (data === undefined) return [];
  const total = Math.max(scale ?? 0, data.duration, ...data.events.map((e) => e.end), 0.001);
  const pct = (ms: number): number => Math.round((ms / total) * 10000) / 100;
  return data.events.map((e) => {
    const left = Math.min(pct(e.start), 99.5);
    const width = Math.min(Math.max(pct(e.end - e.start), 0.5), 100 - left);
    return { ...e, duration: round(e.end - e.start), left, width };
  });
}
