import type { Request, Response } from 'express';

/** How a toolbar block or a menu entry is coloured (Symfony's `sf-toolbar-status-*` / `label-status-*`). */
export type CollectorStatus = 'success' | 'warning' | 'error' | 'none' | 'disabled';

/** What the toolbar and the panel menu show of one collector's data. */
export interface CollectorSummary {
  /** Short text, e.g. `200 @ book_list`, `27 ms`, `admin`. */
  readonly text: string;
  /** @default 'none' */
  readonly status?: CollectorStatus;
  /** A count shown as a badge in the menu (exceptions, log errors). */
  readonly count?: number;
}

/**
 * Gathers one kind of data about a request for its profile (Symfony `DataCollectorInterface`).
 * Collectors only collect; panels render the stored data separately, from a nunjucks template.
 *
 * @example
 * ```ts
 * class CacheCollector implements DataCollector<{ hits: number }> {
 *   readonly name = 'cache';
 *   readonly label = 'Cache';
 *   readonly template = path.join(__dirname, 'cache.html.njk'); // gets `data`, `p`, `query`, `base`
 *   collect(req: Request) { return { hits: req.cacheHits ?? 0 }; }
 *   summary(data: { hits: number }) { return { text: `${data.hits} hits` }; }
 * }
 * createKernel({ routes, debug: true, profiler: { collectors: [new CacheCollector()] } });
 * ```
 */
export interface DataCollector<T = unknown> {
  /**
   * Unique name, letters, digits, `_` and `-`: the data is stored under it and the panel is
   * `/_profiler/<token>?panel=<name>`.
   */
  readonly name: string;
  /** The menu and toolbar label. @default the name */
  readonly label?: string;
  /**
   * The panel template: an absolute path to a nunjucks file (auto-escaping on). It can import
   * the built-in macros (`{% import "profiler/macros.html.njk" as m %}`).
   * @default `templates/profiler/panels/<name>.html.njk` for the built-in collectors, else a
   *   panel that shows the data as JSON
   */
  readonly template?: string;
  /**
   * Called once, when the response is about to finish (before its last byte leaves).
   * @param error - the error the request ended with, if any
   * @returns JSON-serialisable data; secrets must already be redacted (see `redact`)
   * @throws nothing the request sees: the profiler logs a collector's error and stores no data for it
   */
  collect(req: Request, res: Response, error: unknown): T;
  /**
   * The toolbar block and menu badge for stored data; leave it out for no toolbar block.
   * @param data - what `collect` returned, after a round trip through the store (JSON)
   */
  summary?(data: T): CollectorSummary | undefined;
}

/** The label of a collector. */
export function labelOf(collector: DataCollector): string {
  return collector.label ?? collector.name;
}

/** A "not enabled" summary for collectors that read a layer the kernel was not given. */
export const NOT_ENABLED: CollectorSummary = Object.freeze({ text: 'n/a', status: 'disabled' as const });

/** The status class of an HTTP status: 2xx success, 3xx warning, 4xx/5xx error (Symfony's toolbar). */
export function statusOfCode(code: number): CollectorStatus {
  return code >= 400 ? 'error' : code >= 300 ? 'warning' : 'success';
}
