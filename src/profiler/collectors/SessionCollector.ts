import type { Request } from 'express';
import { redact } from '../redaction';
import { CollectorSummary, DataCollector, NOT_ENABLED } from './DataCollector';
import { fromLayer, NotEnabled } from './layerData';

/** The session layer's `req.sessionInfo`, as far as the profiler reads it (already redacted there). */
interface SessionInfo {
  id: string | null;
  store: string;
  attributes: Record<string, unknown>;
  started: boolean;
  unavailable: boolean;
}

/** Data of the session panel. */
export type SessionData = NotEnabled | {
  enabled: true;
  /** A hash of the session ID (`sha256:…`), never the ID; null without a session. */
  id: string | null;
  store: string;
  /** The session's attributes, secret-looking values redacted. */
  attributes: Record<string, unknown>;
  started: boolean;
  /** Whether the store failed, so the request went on without a session. */
  unavailable: boolean;
};

/**
 * The request's session: hashed ID, store, attributes, whether it started or the store was down.
 * Reads `req.sessionInfo`; "not enabled" without the session layer.
 */
export class SessionCollector implements DataCollector<SessionData> {
  readonly name = 'session';
  readonly label = 'Session';

  collect(req: Request): SessionData {
    return fromLayer<SessionInfo, Extract<SessionData, { enabled: true }>>(req, 'sessionInfo', (s) => ({
      enabled: true,
      id: s.id,
      store: s.store,
      attributes: redact(s.attributes ?? {}) as Record<string, unknown>,
      started: s.started,
      unavailable: s.unavailable,
    }));
  }

  /** `started`, `none`, or `store down` in red. */
  summary(data: SessionData): CollectorSummary {
    if (!data.enabled) return NOT_ENABLED;
    if (data.unavailable) return { text: 'store down', status: 'error' };
    return { text: data.started ? 'started' : 'none', status: 'none' };
  }
}
