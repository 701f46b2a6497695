/** The session layer: express-session on SQLite or Redis, non-fatal store failures, `requireSession`. */
export { sessionLayer } from './sessionLayer';
export type { SessionLayer } from './sessionLayer';
export { resolveSessionOptions, sessionOptionsSchema } from './options';
export type { SessionOptions, ResolvedSessionOptions } from './options';
export { existingSession } from './previousSession';
export { requireSession, SESSION_UNAVAILABLE_MESSAGE } from './requireSession';
export { SqliteSessionStore } from './SqliteSessionStore';
export type { SqliteSessionStoreOptions } from './SqliteSessionStore';
export { describeSession, redactSessionId, redactValue, looksSecret, REDACTED } from './sessionInfo';
export type { SessionInfo, SessionStoreName } from './sessionInfo';
