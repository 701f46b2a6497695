import type { DataCollector } from './DataCollector';

/** Heap used and resident set size, in bytes, when the request finished. */
export interface MemoryData { heapUsed: number; rss: number }

/** Memory use (Symfony `MemoryDataCollector`). */
export class MemoryCollector implements DataCollector<MemoryData> {
  readonly name = 'memory';
  collect(): MemoryData {
    const m = process.memoryUsage();
    return { heapUsed: m.heapUsed, rss: m.rss };
  }
}
