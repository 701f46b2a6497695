import type { CollectorSummary, DataCollector } from './DataCollector';

/** The process's memory when the request finished, in bytes (`process.memoryUsage()`). */
export interface MemoryData {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
}

const MIB = 1024 * 1024;

/** Memory use (Symfony `MemoryDataCollector`): V8 heap used and total, resident set size, external memory. */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';
  readonly label = 'Memory';

  collect(): MemoryData {
    const m = process.memoryUsage();
    return { heapUsed: m.heapUsed, heapTotal: m.heapTotal, rss: m.rss, external: m.external };
  }

  /** Heap used in MiB, e.g. `12.3 MiB`. */
  summary(data: MemoryData): CollectorSummary {
    return { text: `${(data.heapUsed / MIB).toFixed(1)} MiB` };
  }
}
