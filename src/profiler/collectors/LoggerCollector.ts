import type { Request } from 'express';
import type { LogBuffer, LogRecord } from '../requestLogger';
import type { CollectorSummary, DataCollector } from './DataCollector';

/** Data of the Logs panel. */
export interface LoggerData {
  /** The records `req.log` emitted during the request, oldest first. */
  records: LogRecord[];
  /** How many records were dropped past the buffer's size. */
  dropped: number;
  /** Records per level name, e.g. `{ info: 2, error: 1 }`. */
  counts: Record<string, number>;
}

/** The levels the panel's filter offers, lowest first (pino's numbers). */
export const LOG_LEVELS: ReadonlyArray<readonly [string, number]> = [
  ['trace', 10], ['debug', 20], ['info', 30], ['warn', 40], ['error', 50], ['fatal', 60],
];

/**
 * The pino records emitted through `req.log` during the request (Symfony `LoggerDataCollector`).
 * The profiler gives each profiled request a logger that copies its records into a buffer this
 * collector reads; see `createRequestLogger`.
 */
export class LoggerCollector implements DataCollector<LoggerData> {
  readonly name = 'logger';
  readonly label = 'Logs';

  /** @param bufferOf - the request's log buffer, if it has one */
  constructor(private readonly bufferOf: (req: Request) => LogBuffer | undefined) {}

  collect(req: Request): LoggerData {
    const buffer = this.bufferOf(req);
    const records = buffer === undefined ? [] : [...buffer.records];
    const counts: Record<string, number> = {};
    for (const r of records) counts[r.label] = (counts[r.label] ?? 0) + 1;
    return { records, dropped: buffer?.dropped ?? 0, counts };
  }

  /** Errors (red) or warnings (yellow) counted, else the number of records. */
  summary(data: LoggerData): CollectorSummary {
    const errors = data.records.filter((r) => r.level >= 50).length;
    const warnings = data.records.filter((r) => r.level >= 40 && r.level < 50).length;
    if (errors > 0) return { text: `${errors} error${errors === 1 ? '' : 's'}`, status: 'error', count: errors };
    if (warnings > 0) {
      return { text: `${warnings} warning${warnings === 1 ? '' : 's'}`, status: 'warning', count: warnings };
    }
    return { text: String(data.records.length), status: data.records.length === 0 ? 'disabled' : 'none' };
  }
}

/** The records at `minLevel` or above (`minLevel` a level name; unknown names keep every record). */
export function recordsFrom(records: LogRecord[], minLevel: string | undefined): LogRecord[] {
  const min = LOG_LEVELS.find(([name]) => name === minLevel)?.[1] ?? 0;
  return records.filter((r) => r.level >= min);
}
