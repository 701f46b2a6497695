import { createHash } from 'node:crypto';

/** Which store keeps the sessions. */
export type SessionStoreName = 'sqlite' | 'redis' | 'memory';

/** What the session layer shows the profiler, on `req.sessionInfo`. Secrets already redacted. */
export interface SessionInfo {
  /** `sha256:` and the first 12 hex digits of the session ID's hash, never the ID; null without a session. */
  readonly id: string | null;
  readonly store: SessionStoreName;
  /** The session's attributes (all but `cookie`), secret-looking values replaced by `******`. */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Whether a session exists: loaded from the store, or given attributes by this request. */
  readonly started: boolean;
  /** Whether the store failed or was down, so the request went on without a session. */
  readonly unavailable: boolean;
}

/** Text shown instead of a secret (as the profiler's request panel masks secret headers). */
export const REDACTED = '******';

const SECRET_NAME =
  /pass(word|wd|phrase)?|secret|token|api[-_]?key|private[-_]?key|auth|credential|csrf|otp|signature|salt/i;
const SECRET_VALUE = [
  /^eyJ[\w-]+\.[\w-]+\.[\w-]*$/, // JWT
  /^(?:bearer|basic)\s+\S+/i, // Authorization header value
  /^\$2[aby]\$\d\d\$/, // bcrypt hash
  /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9+/_=-]{32,}$/, // long opaque token or key (letters and digits)
];
const MAX_DEPTH = 4;
const MAX_TEXT = 200;

/** Whether an attribute's name or value looks like a secret. */
export function looksSecret(name: string, value: unknown): boolean {
  return SECRET_NAME.test(name) || (typeof value === 'string' && SECRET_VALUE.some((re) => re.test(value)));
}

/**
 * A JSON-safe copy of a session value for the profiler: secret-looking entries redacted at every
 * depth, long strings cut to 200 characters, nesting cut at 4 levels. Never throws.
 */
export function redactValue(name: string, value: unknown, depth = 0): unknown {
  if (looksSecret(name, value)) return REDACTED;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value !== 'object') return `[${typeof value}]`;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? '[array]' : '[object]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactValue(name, v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, 50)) out[k] = redactValue(k, v, depth + 1);
  return out;
}

/** `sha256:` and the first 12 hex digits of the ID's SHA-256: enough to tell sessions apart, useless to hijack one. */
export function redactSessionId(id: string): string {
  return `sha256:${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}

/**
 * Describes a request's session for the profiler.
 * @param session - `req.session`, or undefined
 * @param sessionId - `req.sessionID`
 * @param store - the store's name
 * @param loaded - whether the session was read from the store
 * @param unavailable - whether the store failed
 */
export function describeSession(
  session: Record<string, unknown> | undefined,
  sessionId: string | undefined,
  store: SessionStoreName,
  loaded: boolean,
  unavailable: boolean,
): SessionInfo {
  const attributes: Record<string, unknown> = {};
  if (session !== undefined) {
    for (const [k, v] of Object.entries(session)) if (k !== 'cookie') attributes[k] = redactValue(k, v);
  }
  const started = session !== undefined && (loaded || Object.keys(attributes).length > 0);
  return Object.freeze({
    id: started && typeof sessionId === 'string' ? redactSessionId(sessionId) : null,
    store,
    attributes: Object.freeze(attributes),
    started,
    unavailable,
  });
}
