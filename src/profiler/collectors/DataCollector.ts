import type { Request, Response } from 'express';

/**
 * Gathers one kind of data about a request for its profile (Symfony `DataCollectorInterface`).
 * Collectors only collect; panels render the data separately.
 */
export interface DataCollector<T = unknown> {
  /** Unique name; the data is stored under it and the panel is `?panel=<name>`. */
  readonly name: string;
  /**
   * Called once, when the response is about to finish.
   * @param error - the error the request ended with, if any
   * @returns JSON-serialisable data; secrets must already be redacted
   */
  collect(req: Request, res: Response, error: unknown): T;
}
