import * as path from 'node:path';
import type { Request, Response } from 'express';
import type { CollectorSummary, DataCollector } from '../../profiler/collectors/DataCollector';
import { TEMPLATES_DIR } from '../../http/templates';
import { isValidationError, type Violation } from '../http/ApiErrors';
import '../http/ApiRequestState';
import type { ApiRequestState } from '../http/ApiRequestState';
import { HTML_TYPE } from '../http/negotiation';
import { stateName } from '../state/storeProvider';
import type { ItemId } from '../state/identifier';

/** What the API panel shows of one request. */
export interface ApiData {
  /** False when no API route served the request. */
  readonly enabled: boolean;
  readonly resource?: string;
  readonly operation?: { readonly name: string; readonly kind: string; readonly method: string; readonly path: string };
  /** The negotiated media type, e.g. `application/ld+json`. */
  readonly format?: string;
  /**
   * The operation's state provider and processor (API Platform's panel shows them): a store's
   * class (`MemoryState`, `SqlState`), a function's name, or the class of a provider of your own.
   */
  readonly provider?: string;
  readonly processor?: string;
  /** The item's id and version, for item operations. */
  readonly item?: { readonly id: ItemId; readonly version: number };
  readonly violations: readonly Violation[];
  /** Statements the stores reported (the Database panel shows them in full). */
  readonly queryCount: number;
}

/** The media type of a negotiated format: its first, or `text/html` for the documentation page. */
function mediaTypeOf(format: ApiRequestState['format']): string | undefined {
  if (format === undefined) return undefined;
  return typeof format === 'string' ? HTML_TYPE : format.mimeTypes[0];
}

/**
 * The profiler's API panel (API Platform's `RequestDataCollector`): the resource and operation
 * a request reached, the negotiated format, the provider and processor classes, and the
 * violations of a 422. Reads `req.api`; add it with `profiler: { collectors: [new ApiCollector()] }`.
 */
export class ApiCollector implements DataCollector<ApiData> {
  readonly name = 'api';
  readonly label = 'API';
  readonly template = path.join(TEMPLATES_DIR, 'profiler', 'panels', 'api.html.njk');

  collect(req: Request, _res: Response, error: unknown): ApiData {
    const state = req.api;
    if (state?.resource === undefined) {
      const format = mediaTypeOf(state?.format);
      return { enabled: state !== undefined, format, violations: [], queryCount: 0 };
    }
    const op = state.operation;
    const violations = state.violations ?? (isValidationError(error) ? error.violations : []);
    return {
      enabled: true,
      resource: state.resource.shortName,
      ...(op !== undefined ? { operation: { name: op.name, kind: op.kind, method: op.method, path: op.path } } : {}),
      ...(state.format !== undefined ? { format: mediaTypeOf(state.format) } : {}),
      ...(op?.provider !== undefined ? { provider: stateName(op.provider) } : {}),
      ...(op?.processor !== undefined ? { processor: stateName(op.processor) } : {}),
      ...(state.item !== undefined ? { item: { id: state.item.id, version: state.item.version } } : {}),
      violations: violations.map((v) => ({ propertyPath: v.propertyPath, message: v.message, code: v.code })),
      queryCount: state.queries?.length ?? 0,
    };
  }

  summary(data: ApiData): CollectorSummary | undefined {
    if (!data.enabled || data.resource === undefined) return undefined;
    const text = `${data.resource}${data.operation !== undefined ? ` ${data.operation.kind}` : ''}`;
    return data.violations.length > 0 ? { text, status: 'warning', count: data.violations.length } : { text };
  }
}
