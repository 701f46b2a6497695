import { getHeapStatistics } from 'node:v8';
import type { CollectorSummary, DataCollector } from './DataCollector';
import { due } from '../../support/due';

/** The process's memory when the request finished, in bytes. */
export interface MemoryData {
  /** V8 heap in use (`v8.getHeapStatistics().used_heap_size`). */
  heapUsed: number;
  /** V8 heap reserved (`total_heap_size`). */
  heapTotal: number;
  /**
   * The peak resident set size so far (`process.resourceUsage().maxRSS`, KiB × 1024), as Symfony
   * shows peak usage; read at most every 100 ms (a system call), so it may lag by that much.
   */
  peakRss: number;
  /** Memory of C++ objects bound to JavaScript ones (`external_memory`). */
  external: number;
}

const MIB = 1024 * 1024;
const RSS_INTERVAL_MS = 100;

/**
 * Memory use (Symfony `MemoryDataCollector`, which shows `memory_get_peak_usage()`): V8 heap used
 * and total, peak resident set size, external memory. Read without `process.memoryUsage()`, whose
 * current RSS costs a read of `/proc` on every request.
 */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';
  readonly label = 'Memory';
  private peakRss = 0;
  private rssReadAt = Number.NEGATIVE_INFINITY;

  collect(): MemoryData {
    const h = getHeapStatistics();
    const now = Date.now();
    if (due(this.rssReadAt, now, RSS_INTERVAL_MS)) {
      this.peakRss = process.resourceUsage().maxRSS * 1024;
      this.rssReadAt = now;
    }
    return {
      heapUsed: h.used_heap_size, heapTotal: h.total_heap_size, peakRss: this.peakRss, external: h.external_memory,
    };
  }

  /** Heap used in MiB, e.g. `12.3 MiB`. */
  summary(data: MemoryData): CollectorSummary {
    return { text: `${(data.heapUsed / MIB).toFixed(1)} MiB` };
  }
}
