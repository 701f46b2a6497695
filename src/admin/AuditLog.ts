import type { Migration } from 'kysely';
import { isKernelError } from '../errors/KernelError';
import { storageUnavailable, StorageUnavailableError } from '../storage/StorageUnavailableError';
import { createResourceTable } from '../api/sql/migrations';
import type { SqlDatabase } from '../api/sql/SqlState';
import type {
  PropertyMetadata, ResourceMetadata, StateContext, StateProcessor, StateProvider,
} from '../api/state/types';

/**
 * The back office's audit log (EasyAdmin leaves it to an event subscriber; AdminJS has its
 * logger feature): one entry per create, update and delete made through the screens. Entries are
 * kept by the same state provider and processor contract as the resources (`src/api/state`), as
 * items of {@link AUDIT_LOG_METADATA}: a `MemoryState` keeps them in memory, the SQL store in
 * the `audit_log` table that {@link auditLogMigration} creates.
 * @module
 */

/** What was done to an item. */
export type AuditAction = 'create' | 'update' | 'delete';

/** One change made through the back office. */
export interface AuditEntry {
  /** ISO 8601 in UTC with milliseconds. */
  readonly occurredAt: string;
  /** The user's identifier, or null when anonymous (a back office without a firewall). */
  readonly username: string | null;
  readonly action: AuditAction;
  /** The resource's short name, e.g. `Book`. */
  readonly resource: string;
  readonly itemId: number;
  /** The properties the change set (create), changed (update) or held (delete), by name. */
  readonly changes: readonly string[];
}

const prop = (name: string, kind: PropertyMetadata['kind'], extra: Partial<PropertyMetadata> = {}): PropertyMetadata =>
  Object.freeze({ name, kind, nullable: false, readOnly: false, writeOnly: false, ...extra });

/** The audit log as a store sees it: the table `audit_log` (`changes` holds a JSON array of names). */
export const AUDIT_LOG_METADATA: ResourceMetadata = Object.freeze({
  shortName: 'AdminAuditEntry',
  table: 'audit_log',
  properties: Object.freeze([
    prop('occurredAt', 'datetime'),
    prop('username', 'string', { nullable: true }),
    prop('action', 'enum', { enumValues: Object.freeze(['create', 'update', 'delete']) }),
    prop('resource', 'string'),
    prop('itemId', 'integer'),
    prop('changes', 'text'),
  ]),
});

/**
 * The Kysely migration creating `audit_log` (id, version, the columns of
 * {@link AUDIT_LOG_METADATA}); add it to the migrations the SQL store runs at start.
 * @example await store.migrate({ ...myMigrations, '0003-audit-log': auditLogMigration() })
 */
export function auditLogMigration(): Migration {
  return {
    async up(db: SqlDatabase): Promise<void> {
      await createResourceTable(db, AUDIT_LOG_METADATA, () => undefined);
    },
    async down(db: SqlDatabase): Promise<void> {
      await db.schema.dropTable(AUDIT_LOG_METADATA.table).execute();
    },
  };
}

/** The store's name in the 503 of a failed entry: `Audit log storage is unavailable.` */
export const AUDIT_STORE = 'Audit log';

/** Whether `error` is {@link AuditLog.record}'s failure (the change it was for was not kept, in a unit). */
export function isAuditFailure(error: unknown): error is StorageUnavailableError {
  return isKernelError(error, 'ERR_HTTP_STORAGE_UNAVAILABLE') && error.store === AUDIT_STORE;
}

/** Where the audit log is kept: a state provider and processor (the resources' own, by default). */
export interface AuditStore {
  readonly provider: StateProvider;
  readonly processor: StateProcessor;
}

/** Records and lists {@link AuditEntry} items in an {@link AuditStore}. */
export class AuditLog {
  constructor(private readonly store: AuditStore) {}

  /**
   * Keeps one entry.
   * @throws StorageUnavailableError (503) `Audit log storage is unavailable.` for every failure:
   *   the store is down, `audit_log` is missing, a trigger or constraint refused the row (the
   *   reason and `cause` say which, for the log)
   */
  async record(entry: AuditEntry, context?: StateContext): Promise<void> {
    let outcome;
    try {
      outcome = await this.store.processor.create(
        AUDIT_LOG_METADATA, { ...entry, changes: JSON.stringify(entry.changes) }, context,
      );
    } catch (e) {
      // a 503 of the SQL store names the table's resource (`AdminAuditEntry`): renamed, reason kept
      throw isKernelError(e, 'ERR_HTTP_STORAGE_UNAVAILABLE')
        ? new StorageUnavailableError(AUDIT_STORE, e.reason, { cause: e })
        : storageUnavailable(AUDIT_STORE, e);
    }
    if (outcome.status !== 'ok') throw new StorageUnavailableError(AUDIT_STORE, `the store answered ${outcome.status}`);
  }

  /**
   * The latest entries, newest first.
   * @param limit - how many, from 1
   */
  async latest(limit: number, context?: StateContext): Promise<AuditEntry[]> {
    const page = await this.store.provider.provideCollection(AUDIT_LOG_METADATA, {
      conditions: [], order: [{ property: 'id', direction: 'desc' }], page: 1, itemsPerPage: limit, partial: true,
    }, context);
    return page.items.map(({ data }) => ({
      occurredAt: String(data.occurredAt),
      username: typeof data.username === 'string' ? data.username : null,
      action: data.action as AuditAction,
      resource: String(data.resource),
      itemId: Number(data.itemId),
      changes: parseNames(data.changes),
    }));
  }
}

function parseNames(value: unknown): string[] {
  try {
    const names: unknown = JSON.parse(String(value));
    return Array.isArray(names) ? names.map(String) : [];
  } catch {
    return [];
  }
}
