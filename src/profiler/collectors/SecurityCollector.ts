import type { Request } from 'express';
import { CollectorSummary, DataCollector, NOT_ENABLED } from './DataCollector';
import { fromLayer, NotEnabled } from './layerData';

/** One access decision of the request (from the firewall layer's `req.security.decisions`). */
export interface SecurityDecision {
  source: string;
  rule: string;
  attributes: string[];
  result: string;
}

/** The firewall layer's `req.security`, as far as the profiler reads it. */
interface SecurityState {
  firewall: string | null;
  user: { identifier: string } | null;
  roles: readonly string[];
  authenticator: string | null;
  decisions: ReadonlyArray<{ source: string; rule: string; attributes: readonly string[]; result: string }>;
}

/** Data of the security panel. */
export type SecurityData = NotEnabled | {
  enabled: true;
  /** The firewall that matched, or null. */
  firewall: string | null;
  /** The user identifier, or null when anonymous. */
  user: string | null;
  /** Roles with the hierarchy applied. */
  roles: string[];
  /** How the user was authenticated (`http_basic`, `session`…), or null. */
  authenticator: string | null;
  decisions: SecurityDecision[];
};

/**
 * The firewall's view of the request (Symfony `SecurityDataCollector`): firewall, user, roles,
 * authenticator and every access decision. Reads `req.security`; "not enabled" without the
 * firewall layer.
 */
export class SecurityCollector implements DataCollector<SecurityData> {
  readonly name = 'security';
  readonly label = 'Security';

  collect(req: Request): SecurityData {
    return fromLayer<SecurityState, Extract<SecurityData, { enabled: true }>>(req, 'security', (s) => ({
      enabled: true,
      firewall: s.firewall,
      user: s.user?.identifier ?? null,
      roles: [...s.roles],
      authenticator: s.authenticator,
      decisions: s.decisions.map((d) => ({
        source: d.source, rule: d.rule, attributes: [...d.attributes], result: d.result,
      })),
    }));
  }

  /** The user, `anonymous`, or `n/a` without a firewall; red when a decision denied access. */
  summary(data: SecurityData): CollectorSummary {
    if (!data.enabled) return NOT_ENABLED;
    const denied = data.decisions.some((d) => d.result === 'denied');
    return { text: data.user ?? 'anonymous', status: denied ? 'error' : data.user === null ? 'none' : 'success' };
  }
}
