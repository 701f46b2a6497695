/**
 * The built-in SQL store of the API layer: Kysely on SQLite (better-sqlite3) or PostgreSQL (`pg`),
 * behind the state provider and processor contract of `src/api/state/types.ts`.
 */
export { createSqlState } from './createSqlState';
export type { CreateSqlStateOptions, SqlStore } from './createSqlState';
export { SqlState } from './SqlState';
export type { SqlDatabase, SqlStateOptions } from './SqlState';
export {
  createResourceTable, flavourOf, InCodeMigrationProvider, resourceTablesMigration,
} from './migrations';
export type { Migration, Migrations, RelationTable } from './migrations';
export type { SqlFlavour } from './LoggedDialect';
export { isStoreOutage } from './outage';
export { MAX_LOGGED_QUERIES, queryLogFor } from './queryLog';
