/**
 * `express-kernel/admin`: the back office (EasyAdmin's role), screens generated from the API
 * layer's resources. `adminRoutes({ resources })` returns the routes; a SQL store needs the
 * `audit_log` table (`auditLogMigration()`).
 * @module
 */
export { adminRoutes } from './adminRoutes';
export { AdminError } from './AdminError';
export { adminOptionsSchema, RELATION_SELECT_LIMIT } from './AdminOptions';
export type { AdminOptions } from './AdminOptions';
export { AUDIT_LOG_METADATA, AuditLog, auditLogMigration } from './AuditLog';
export type {
  AuditAction, AuditCriteria, AuditEntry, AuditFieldChange, AuditPage, AuditStore, StoredAuditEntry,
} from './AuditLog';
export { CATALOGS, EN, FR, translatorFor } from './translations';
export type { Catalog, MessageKey, Translator } from './translations';
