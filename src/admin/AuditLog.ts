import type { Migration } from 'kysely';
import { isKernelError } from '../errors/KernelError';
import { storageUnavailable, StorageUnavailableError } from '../storage/StorageUnavailableError';
import type { SqlDatabase } from '../api/sql';
import type {
  FilterCondition, ItemId, PropertyMetadata, ResourceMetadata, StateContext, StateProcessor, StateProvider, StoredItem,
} from '../api';

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

/**
 * One property a change touched: its value before (`from`) and after (`to`), as stored (a
 * relation's id, a date's ISO text). Values are absent for a write-only property (a password is
 * never copied into the log) and in entries written before values were kept (names only).
 */
export interface AuditFieldChange {
  /** The property's name (pages show its label). */
  readonly field: string;
  /** The value before: absent on create (and when not kept), null for none. */
  readonly from?: unknown;
  /** The value after: absent on delete (and when not kept), null for none. */
  readonly to?: unknown;
}

/** One change made through the back office. */
export interface AuditEntry {
  /** ISO 8601 in UTC with milliseconds. */
  readonly occurredAt: string;
  /** The user's identifier, or null when anonymous (a back office without a firewall). */
  readonly username: string | null;
  readonly action: AuditAction;
  /** The resource's short name, e.g. `Book`. */
  readonly resource: string;
  readonly itemId: ItemId;
  /**
   * How the item was named when the change was made (`Dune (#1)`): what the log shows once the
   * item is deleted. Entries written before labels were kept have `Book #1`.
   */
  readonly label: string;
  /** The properties the change set (create), changed (update) or held (delete), with their values. */
  readonly changes: readonly AuditFieldChange[];
}

/** A kept {@link AuditEntry} with its id in the log (ids grow: a later entry has a larger one). */
export interface StoredAuditEntry extends AuditEntry {
  readonly id: number;
}

/** What {@link AuditLog.list} selects; every given criterion holds (AND). */
export interface AuditCriteria {
  /** The user's identifier, exactly. */
  readonly username?: string;
  /** The resource's short name. */
  readonly resource?: string;
  readonly action?: AuditAction;
  /** One item's entries (with `resource`). */
  readonly itemId?: ItemId;
  /** Entries made on or after this day (`YYYY-MM-DD`, UTC). */
  readonly from?: string;
  /** Entries made on or before this day (`YYYY-MM-DD`, UTC, the whole day). */
  readonly to?: string;
}

/** One page of the log, newest first. */
export interface AuditPage {
  readonly entries: readonly StoredAuditEntry[];
  /** Every entry matching the criteria, all pages. */
  readonly total: number;
}

const prop = (name: string, kind: PropertyMetadata['kind'], extra: Partial<PropertyMetadata> = {}): PropertyMetadata =>
  Object.freeze({ name, kind, nullable: false, readOnly: false, writeOnly: false, ...extra });

/**
 * The audit log as a store sees it: the table `audit_log`. `changes` holds JSON:
 * `{"label": "Dune (#1)", "fields": [{"field": "title", "from": "Dune", "to": "Dune II"}]}`
 * (entries of earlier versions: a JSON array of property names), so the table keeps the columns
 * it was created with.
 */
export const AUDIT_LOG_METADATA: ResourceMetadata = Object.freeze({
  shortName: 'AdminAuditEntry',
  table: 'audit_log',
  properties: Object.freeze([
    prop('occurredAt', 'datetime'),
    prop('username', 'string', { nullable: true }),
    prop('action', 'enum', { enumValues: Object.freeze(['create', 'update', 'delete']) }),
    prop('resource', 'string'),
    // text: an item's id of any identifier type (an integer one as its digits)
    prop('itemId', 'string'),
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
      // loaded here: a back office on MemoryState never loads the SQL store (nor Kysely)
      const { createResourceTable } = await import('../api/sql');
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
    const { label, changes, ...columns } = entry;
    try {
      outcome = await this.store.processor.create(
        AUDIT_LOG_METADATA,
        { ...columns, itemId: String(columns.itemId), changes: JSON.stringify({ label, fields: changes }) },
        context,
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
   * @param limit - how many, from 1 to 100
   */
  async latest(limit: number, context?: StateContext): Promise<StoredAuditEntry[]> {
    return [...(await this.list({}, 1, limit, context)).entries];
  }

  /**
   * One page of the entries matching `criteria`, newest first.
   * @param page - from 1
   * @param perPage - entries per page, from 1 to 100
   * @returns the page's entries and how many match in all
   * @throws StorageUnavailableError (503) when the store is down
   */
  async list(criteria: AuditCriteria, page: number, perPage: number, context?: StateContext): Promise<AuditPage> {
    const conditions: FilterCondition[] = [];
    const exact = (property: string, value: string | number | undefined): void => {
      if (value !== undefined) conditions.push({ type: 'search', property, strategy: 'exact', values: [value] });
    };
    exact('username', criteria.username);
    exact('resource', criteria.resource);
    exact('action', criteria.action);
    exact('itemId', criteria.itemId === undefined ? undefined : String(criteria.itemId));
    if (criteria.from !== undefined) {
      const value = `${criteria.from}T00:00:00.000Z`;
      conditions.push({ type: 'date', property: 'occurredAt', operator: 'after', value });
    }
    if (criteria.to !== undefined) {
      const value = `${criteria.to}T23:59:59.999Z`;
      conditions.push({ type: 'date', property: 'occurredAt', operator: 'before', value });
    }
    const found = await this.store.provider.provideCollection(AUDIT_LOG_METADATA, {
      conditions, order: [{ property: 'id', direction: 'desc' }], page, itemsPerPage: perPage, partial: false,
    }, context);
    return { entries: found.items.map(entryOf), total: found.totalItems ?? found.items.length };
  }
}

/** A stored row as an entry (either `changes` format). */
function entryOf({ id, data }: StoredItem): StoredAuditEntry {
  const resource = String(data.resource);
  // as written: digits are an integer id's (the back office reads it as its resource's type)
  const itemId = typeof data.itemId === 'number' || /^[1-9]\d{0,14}$/.test(String(data.itemId))
    ? Number(data.itemId) : String(data.itemId);
  const { label, fields } = parseChanges(data.changes);
  return {
    id: id as number, // the log's own ids are integers
    occurredAt: String(data.occurredAt),
    username: typeof data.username === 'string' ? data.username : null,
    action: data.action as AuditAction,
    resource,
    itemId,
    label: label ?? `${resource} #${itemId}`,
    changes: fields,
  };
}

/** The `changes` column: `{ label, fields }`, or the names of earlier versions. */
function parseChanges(value: unknown): { label?: string; fields: AuditFieldChange[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(value));
  } catch {
    return { fields: [] };
  }
  if (Array.isArray(parsed)) return { fields: parsed.map((name) => ({ field: String(name) })) };
  if (typeof parsed !== 'object' || parsed === null) return { fields: [] };
  const { label, fields } = parsed as { label?: unknown; fields?: unknown };
  const changes = Array.isArray(fields)
    ? fields.filter((f): f is AuditFieldChange => typeof f === 'object' && f !== null
      && typeof (f as { field?: unknown }).field === 'string')
    : [];
  return { ...(typeof label === 'string' ? { label } : {}), fields: changes };
}
