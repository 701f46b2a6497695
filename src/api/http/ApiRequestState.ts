import { defineRequestSlot } from '../../http/requestSlots';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import type { QueryLogEntry, StoredItem } from '../state/types';
import type { Violation } from './ApiErrors';
import type { Format } from '../format/Format';
import type { HTML } from '../format/FormatRegistry';

/** What the API layer knows of the request it serves (API Platform's request attributes). */
export interface ApiRequestState {
  readonly resource?: Resource;
  /** The operation the method selected on the matched route. */
  readonly operation?: ResolvedOperation;
  /**
   * The negotiated format, or `'html'` (the documentation page); undefined until negotiated (or
   * when the client accepts none: 406).
   */
  format?: Format | typeof HTML;
  /** The stored item (item operations), as the provider read it. */
  item?: StoredItem;
  /** The page's items (GetCollection), as the provider read them: the response's `Cache-Tags`. */
  items?: readonly StoredItem[];
  /**
   * The statements the stores ran for this request (`StateContext.logQuery`), for the profiler's
   * API panel; undefined when the kernel does not profile the request (nothing is logged then).
   */
  readonly queries?: QueryLogEntry[];
  /** The violations of a 422. */
  violations?: readonly Violation[];
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the API layer's routes: resource, operation, format (read by the profiler's API panel). */
    api?: ApiRequestState;
  }
}
defineRequestSlot('api');
