import { exceptionChain, framesOf } from '../../http/ErrorRenderer';
import { redactText } from '../redaction';
import { StackFrame, withExcerpts } from '../stackFrames';
import type { CollectorSummary, DataCollector } from './DataCollector';

/** One error of the cause chain, with its parsed stack. */
export interface ExceptionEntry {
  class: string;
  message: string;
  /** The HTTP status it maps to. */
  status: number;
  frames: readonly StackFrame[];
}

/** Data of the exception panel: the chain, outermost first; empty when nothing was thrown. */
export interface ExceptionCollectorData {
  exceptions: ExceptionEntry[];
}

/**
 * The error the request ended with, its `cause` chain, and each parsed stack (Symfony
 * `ExceptionDataCollector` + `FlattenException`). Frames are stored with file and line only; the
 * panel reads source excerpts when it is rendered ({@link withExcerptsData}), as Symfony's does.
 * The profiler has no route that opens files. Secret-looking `name=value` pairs in messages (a
 * Referer's `?token=…`) are redacted.
 */
export class ExceptionCollector implements DataCollector<ExceptionCollectorData> {
  readonly name = 'exception';
  readonly label = 'Exception';

  collect(_req: unknown, _res: unknown, error: unknown): ExceptionCollectorData {
    if (error === undefined || error === null) return { exceptions: [] };
    return {
      exceptions: exceptionChain(error).map((e) => ({
        class: e.class,
        message: redactText(e.message),
        status: e.status,
        frames: framesOf(e),
      })),
    };
  }

  /** The outermost error's class, count 1 as Symfony's menu shows; disabled when none. */
  summary(data: ExceptionCollectorData): CollectorSummary {
    const top = data.exceptions[0];
    if (top === undefined) return { text: 'none', status: 'disabled' };
    return { text: top.class, status: 'error', count: 1 };
  }
}

/**
 * The panel's view of stored exception data: every chain entry's frames with source excerpts
 * ({@link withExcerpts}). Data that is not an exception collector's (a foreign store, an older
 * profile) comes back as it is.
 * @param data - `profile.collectors.exception`
 * @param root - the application's root: only its files and `node_modules` are read
 */
export function withExcerptsData(data: unknown, root = process.cwd()): unknown {
  const exceptions = (data as Partial<ExceptionCollectorData> | null | undefined)?.exceptions;
  if (!Array.isArray(exceptions)) return data;
  return {
    ...(data as object),
    exceptions: exceptions.map((e: ExceptionEntry) =>
      (Array.isArray(e?.frames) ? { ...e, frames: withExcerpts(e.frames, { root }) } : e)),
  };
}
