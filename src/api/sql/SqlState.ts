import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import { LRUCache } from 'lru-cache';
import { storageUnavailable, withDeadline } from '../../storage/StorageUnavailableError';
import type {
  AtomicStateProcessor, CollectionPage, CollectionQuery, DeleteOutcome, ResourceMetadata, StateContext, StateProvider,
  StoredItem, WriteOutcome, ItemId,
} from '../state/types';
import { compositeIdText, uuidV7 } from '../state/identifier';
import { itemOf, resourceColumns, rowOf, VERSION_COLUMN } from './columns';
import { attachLinks, missingTarget, SOURCE_COLUMN, TARGET_COLUMN, writeLinks } from './joinTables';
import { orderOf, whereOf, type CaseFolding } from './conditions';
import { readForeignKeys, type ForeignKey } from './foreignKeys';
import { statementContext, type SqlFlavour } from './LoggedDialect';
import { isStoreOutage } from './outage';
import { SqliteCountCache } from './countCache';

/**
 * A Kysely database whose tables are known only at run time (from `ResourceMetadata`): table and
 * column names are checked against the metadata, not by the compiler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from metadata at run time
export type SqlDatabase = Kysely<any>;

/** Options of {@link SqlState}. */
export interface SqlStateOptions {
  readonly flavour: SqlFlavour;
  /** How the text strategies fold case on this database. */
  readonly folding: CaseFolding;
  /**
   * The deadline of one call on PostgreSQL, in milliseconds (0: none): a stalled server is a 503
   * after it. SQLite calls are synchronous underneath and wait for a lock up to `busy_timeout`.
   */
  readonly timeoutMs: number;
  /**
   * SQLite: the connection's change stamp now (`sqliteChangeStamp`; undefined inside a
   * transaction). With it, unfiltered counts are kept between requests while the database has
   * not changed (see `SqliteCountCache`); without it, every full page is counted.
   */
  readonly changeStamp?: () => string | undefined;
}

/**
 * Fixed statements kept per resource: find, count, and a page per sort order without filters
 * (the orders a client may ask for are few, but bounded here all the same).
 */
const COMPILED_PER_RESOURCE = 64;

/** The part of a page's SQL text that varies without filters: its sort order. */
function orderKey(order: CollectionQuery['order']): string {
  // a key through relations names each step: `author.name` must not reuse `name`'s statement
  return order.map((o) => `${[...(o.through ?? []).map((t) => `${t.property}>${t.target.table}`), o.property]
    .join('.')} ${o.direction}`).join(',');
}

/** SQLSTATE 23503 / SQLite's extended code: a foreign key constraint refused the statement. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** The column PostgreSQL names in a foreign key violation's detail: `Key (author)=(9) is not present…`. */
/** Whether the error is a primary key's (or another unique key's) violation: an id taken meanwhile. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function violatingColumn(error: unknown): string | undefined {
  const detail = (error as { detail?: unknown } | null)?.detail;
  const match = typeof detail === 'string' ? /^Key \("?((?:[^"]|"")+?)"?\)=/.exec(detail) : null;
  return match?.[1].replace(/""/g, '"');
}

/** The table PostgreSQL names as still referring to a deleted row: `… is still referenced from table "books".` */
function referencingTable(error: unknown): string | undefined {
  const detail = (error as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' ? /referenced from table "((?:[^"]|"")+)"/.exec(detail)?.[1] : undefined;
}

/**
 * The SQL state provider and processor (API Platform's Doctrine ORM provider and persist
 * processor, on Kysely): one table per resource with an integer `id` chosen by the database
 * (SQLite `AUTOINCREMENT`, PostgreSQL identity) and a `version` column; each write is one
 * transaction (`BEGIN IMMEDIATE` on SQLite), relations and references are checked inside it
 * against the database's own foreign keys, which stay the last word (a violation by a concurrent
 * writer is reported as `invalid_relation` or `referenced` too). Optimistic locking is
 * `UPDATE … WHERE id = ? AND version = ?`.
 *
 * Every statement is reported to the call's `StateContext.logQuery`. An outage (SQLite busy past
 * `busy_timeout`, read-only or full; PostgreSQL down, restarting or past the deadline) throws a
 * 503 `StorageUnavailableError` named for the resource (`Book storage is unavailable.`). A write
 * cut by the PostgreSQL deadline is not cancelled: the server may still commit it after the 503
 * (as with any lost response), so a client retrying a POST may create twice; a PUT with
 * `If-Match` is safe to retry. `atomically` runs several calls in one transaction (each call's
 * writes then join it instead of opening their own).
 */
export class SqlState implements StateProvider, AtomicStateProcessor {
  private foreignKeys: Promise<ForeignKey[]> | undefined;
  /** SQL texts of each resource's fixed statements (see `compiled`). */
  private readonly texts = new WeakMap<ResourceMetadata, LRUCache<string, string>>();

  /**
   * @param db - the database, on a `LoggedDialect`
   * @param options - see {@link SqlStateOptions}
   */
  constructor(private readonly db: SqlDatabase, private readonly options: SqlStateOptions) {
    this.counts = options.flavour === 'sqlite' && options.changeStamp !== undefined
      ? new SqliteCountCache(options.changeStamp) : undefined;
  }

  /** SQLite's unfiltered counts, kept under the connection's change stamp (none on PostgreSQL). */
  private readonly counts: SqliteCountCache | undefined;

  /** True on the view `atomically` gives: its `db` is a transaction, which writes join. */
  private readonly inUnit: boolean = false;

  /**
   * Runs `work` in one transaction (`BEGIN IMMEDIATE` on SQLite): the SqlState it is given runs
   * every call on that transaction; the writes commit when `work` resolves and roll back when it
   * throws (the error is rethrown). Inside a unit, it joins the unit.
   * @throws StorageUnavailableError (503, `Database storage is unavailable.`) when the transaction
   *   cannot begin or commit (SQLite busy past `busy_timeout`, read-only; PostgreSQL down)
   */
  async atomically<T>(work: (store: SqlState) => Promise<T>, context?: StateContext): Promise<T> {
    if (this.inUnit) return work(this);
    const run = (): Promise<T> => this.db.transaction().execute((trx) => {
      // the same store (its schema and statement caches) on the transaction
      const unit = Object.create(this) as SqlState;
      Object.defineProperties(unit, { db: { value: trx }, inUnit: { value: true } });
      return work(unit);
    });
    try {
      return await (context?.logQuery === undefined ? run() : statementContext.run(context, run));
    } catch (e) {
      throw isStoreOutage(e) ? storageUnavailable('Database', e) : e;
    }
  }

  /** Forgets what was read of the schema (foreign keys): after migrations. */
  forgetSchema(): void {
    this.foreignKeys = undefined;
  }

  async provideCollection(
    resource: ResourceMetadata, query: CollectionQuery, context?: StateContext,
  ): Promise<CollectionPage> {
    return this.call(resource, context, async () => {
      // no `where` at all without conditions: SQLite counts a bare `select count(*) from t` from the
      // b-tree (6 µs for 10,000 rows here) but scans every row for `where 1 = 1` (118 µs)
      const filtered = query.conditions.length > 0;
      const where = filtered ? sql` where ${whereOf(resource, query.conditions, this.options)}` : sql``;
      const offset = (query.page - 1) * query.itemsPerPage;
      const limit = query.itemsPerPage + (query.partial ? 1 : 0);
      // without conditions on SQLite, the connection's change stamp, read before the page: the
      // table's count may be kept under it (see SqliteCountCache); none in a unit
      const counts = filtered || this.inUnit ? undefined : this.counts;
      const stamp = counts?.stamp();
      const select = (): RawBuilder<Record<string, unknown>> => sql<Record<string, unknown>>`select
        ${this.columns(resource)} from ${sql.table(resource.table)}${where}
        order by ${orderOf(resource, query.order)} limit ${limit} offset ${offset}`;
      // without conditions the text depends only on the order: compiled once, run with [limit, offset]
      const { rows } = filtered
        ? await select().execute(this.db)
        : await this.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(
          this.compiled(resource, `page ${orderKey(query.order)}`, () => select().compile(this.db).sql),
          [limit, offset],
        ));
      const items = rows.slice(0, query.itemsPerPage).map((r) => itemOf(resource, r));
      await attachLinks(this.db, resource, items);
      if (query.partial) return { items, hasNextPage: rows.length > query.itemsPerPage };
      // a short page that is not past the end tells the total without counting
      let totalItems = offset + items.length;
      if (items.length === query.itemsPerPage || (items.length === 0 && offset > 0)) {
        const count = (): RawBuilder<{ n: number | string }> => sql<{ n: number | string }>`select
          count(*) as ${sql.id('n')} from ${sql.table(resource.table)}${where}`;
        if (filtered) {
          totalItems = Number((await count().execute(this.db)).rows[0]?.n ?? 0);
        } else {
          // the count's own text names what it counts: two resources on one table share it
          const text = this.compiled(resource, 'count', () => count().compile(this.db).sql);
          const kept = counts?.lookup(text, stamp);
          if (kept !== undefined) {
            totalItems = kept;
          } else {
            const counted = await this.db.executeQuery<{ n: number | string }>(CompiledQuery.raw(text));
            totalItems = Number(counted.rows[0]?.n ?? 0);
            counts?.remember(text, stamp, totalItems);
          }
        }
      }
      return { items, totalItems, hasNextPage: offset + items.length < totalItems };
    });
  }

  async provideItem(resource: ResourceMetadata, id: ItemId, context?: StateContext): Promise<StoredItem | null> {
    return this.call(resource, context, () => this.find(this.db, resource, id));
  }

  async create(
    resource: ResourceMetadata, data: Readonly<Record<string, unknown>>, context?: StateContext, given?: ItemId,
  ): Promise<WriteOutcome> {
    const type = resource.identifier ?? 'integer';
    // a composite identifier's id is its parts' (the back office creates without one)
    const key = resource.compositeKey;
    if (given === undefined && key !== undefined) given = compositeIdText(key, data);
    if (type === 'string' && given === undefined) {
      throw new TypeError(`${resource.shortName}: a string id is given by the client`);
    }
    // the id the store writes (integer ids: the database's identity)
    const id = type === 'integer' ? given : given ?? uuidV7();
    return this.write(resource, context, 'save', async (trx) => {
      if (given !== undefined && id !== undefined && await this.find(trx, resource, id) !== null) {
        return { status: 'duplicate' };
      }
      const missing = await this.missingRelation(trx, resource, data);
      if (missing !== undefined) return { status: 'invalid_relation', ...missing };
      const row = await trx.insertInto(resource.table)
        .values({
          ...(id !== undefined ? { id } : {}), ...rowOf(resource, data, this.options.flavour), [VERSION_COLUMN]: 1,
        })
        .returning(this.columnNames(resource))
        .executeTakeFirstOrThrow() as Record<string, unknown>;
      if (type === 'integer' && id !== undefined) await this.skipPast(trx, resource);
      return { status: 'ok', item: await this.withLinks(trx, resource, itemOf(resource, row), data) };
    });
  }

  /**
   * After an integer id was written by hand (a Put that creates): PostgreSQL's identity moves past
   * the largest id, so the next POST does not collide with it (SQLite's AUTOINCREMENT does so itself).
   */
  private async skipPast(trx: SqlDatabase, resource: ResourceMetadata): Promise<void> {
    if (this.options.flavour !== 'postgres') return;
    const table = `"${resource.table.replace(/"/g, '""')}"`;
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'),
      GREATEST((SELECT max(id) FROM ${sql.table(resource.table)}), 1))`.execute(trx);
  }

  async replace(
    resource: ResourceMetadata,
    id: ItemId,
    data: Readonly<Record<string, unknown>>,
    expectedVersion?: number,
    context?: StateContext,
  ): Promise<WriteOutcome> {
    return this.write(resource, context, 'save', async (trx) => {
      const current = await this.find(trx, resource, id);
      if (current === null) return { status: 'not_found' };
      if (expectedVersion !== undefined && current.version !== expectedVersion) return { status: 'conflict', current };
      const missing = await this.missingRelation(trx, resource, data);
      if (missing !== undefined) return { status: 'invalid_relation', ...missing };
      let update = trx.updateTable(resource.table)
        .set({ ...rowOf(resource, data, this.options.flavour), [VERSION_COLUMN]: sql`${sql.ref(VERSION_COLUMN)} + 1` })
        .where('id', '=', id);
      if (expectedVersion !== undefined) update = update.where(VERSION_COLUMN, '=', expectedVersion);
      const row = await update.returning(this.columnNames(resource)).executeTakeFirst() as Record<string, unknown>;
      if (row !== undefined) {
        return { status: 'ok', item: await this.withLinks(trx, resource, itemOf(resource, row), data) };
      }
      return this.lostRace(trx, resource, id);
    });
  }

  async remove(
    resource: ResourceMetadata, id: ItemId, expectedVersion?: number, context?: StateContext,
  ): Promise<DeleteOutcome> {
    return this.write(resource, context, 'delete', async (trx) => {
      const current = await this.find(trx, resource, id);
      if (current === null) return { status: 'not_found' };
      if (expectedVersion !== undefined && current.version !== expectedVersion) return { status: 'conflict', current };
      const keys = await this.keys(trx);
      // rows that go with the item (its own to-many links, ON DELETE CASCADE) do not keep it
      for (const key of keys.filter((k) => k.toTable === resource.table && !k.cascade)) {
        let refers = trx.selectFrom(key.fromTable).select(sql.lit(1).as('one')).where(key.fromColumn, '=', id);
        const ownLinks = key.fromColumn === TARGET_COLUMN && keys.some((k) => k.fromTable === key.fromTable
          && k.fromColumn === SOURCE_COLUMN && k.toTable === resource.table && k.cascade);
        if (ownLinks) refers = refers.where(SOURCE_COLUMN, '<>', id); // an item linked to itself
        const found = await refers.limit(1).executeTakeFirst();
        if (found !== undefined) return { status: 'referenced', by: key.fromTable };
      }
      let removal = trx.deleteFrom(resource.table).where('id', '=', id);
      if (expectedVersion !== undefined) removal = removal.where(VERSION_COLUMN, '=', expectedVersion);
      const result = await removal.executeTakeFirst();
      if (Number(result.numDeletedRows) === 1) return { status: 'ok' };
      return this.lostRace(trx, resource, id);
    });
  }

  /** After a versioned write matched no row: the item is gone, or another writer bumped it. */
  private async lostRace(
    trx: SqlDatabase, resource: ResourceMetadata, id: ItemId,
  ): Promise<{ status: 'not_found' } | { status: 'conflict'; current: StoredItem }> {
    const current = await this.find(trx, resource, id);
    return current === null ? { status: 'not_found' } : { status: 'conflict', current };
  }

  /** The item with its to-many links: those just written (`writeLinks`), then read back. */
  private async withLinks(
    trx: SqlDatabase, resource: ResourceMetadata, item: StoredItem, data: Readonly<Record<string, unknown>>,
  ): Promise<StoredItem> {
    await writeLinks(trx, resource, item.id, data);
    await attachLinks(trx, resource, [item]);
    return item;
  }

  /**
   * The first relation property whose id (to-one) or one of whose ids (to-many) names no row of
   * its target table, checked in `trx`.
   */
  private async missingRelation(
    trx: SqlDatabase, resource: ResourceMetadata, data: Readonly<Record<string, unknown>>,
  ): Promise<{ property: string; id?: ItemId } | undefined> {
    const keys = await this.keys(trx);
    const toMany = await missingTarget(trx, resource, data,
      (joinTable) => keys.find((k) => k.fromTable === joinTable && k.fromColumn === TARGET_COLUMN)?.toTable);
    if (toMany !== undefined) return toMany;
    for (const property of resource.properties) {
      const value = data[property.name];
      if (property.kind !== 'relation' || value === null || value === undefined) continue;
      const key = keys.find((k) => k.fromTable === resource.table && k.fromColumn === property.name);
      if (key === undefined) continue;
      const found = await trx.selectFrom(key.toTable).select('id').where('id', '=', value).executeTakeFirst();
      if (found === undefined) return { property: property.name };
    }
    return undefined;
  }

  private keys(db: SqlDatabase): Promise<ForeignKey[]> {
    this.foreignKeys ??= readForeignKeys(db, this.options.flavour).catch((e: unknown) => {
      this.foreignKeys = undefined;
      throw e;
    });
    return this.foreignKeys;
  }

  private async find(db: SqlDatabase, resource: ResourceMetadata, id: ItemId): Promise<StoredItem | null> {
    const text = this.compiled(resource, 'find', () => sql`select ${this.columns(resource)}
      from ${sql.table(resource.table)} where ${sql.ref('id')} = ${id}`.compile(db).sql);
    const { rows } = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, [id]));
    if (rows.length === 0) return null;
    const item = itemOf(resource, rows[0]);
    await attachLinks(db, resource, [item]);
    return item;
  }

  /**
   * The SQL text of one of a resource's fixed statements (those whose text depends only on the
   * resource and `key`), compiled by Kysely on first use and kept: a read then skips building and
   * compiling the query (about 5 µs per read; see docs/benchmarks/api.md).
   */
  private compiled(resource: ResourceMetadata, key: string, compile: () => string): string {
    let texts = this.texts.get(resource);
    if (texts === undefined) {
      texts = new LRUCache<string, string>({ max: COMPILED_PER_RESOURCE });
      this.texts.set(resource, texts);
    }
    let text = texts.get(key);
    if (text === undefined) {
      text = compile();
      texts.set(key, text);
    }
    return text;
  }

  private columnNames(resource: ResourceMetadata): string[] {
    return ['id', VERSION_COLUMN, ...resourceColumns(resource).map((c) => c.name)];
  }

  private columns(resource: ResourceMetadata): ReturnType<typeof sql.join> {
    return sql.join(this.columnNames(resource).map((c) => sql.ref(c)));
  }

  /**
   * Runs one write in one transaction; a foreign key violation (a concurrent writer removed a
   * related item, or referred to this one, after the checks) is reported as the contract says.
   */
  private write<T extends WriteOutcome | DeleteOutcome>(
    resource: ResourceMetadata,
    context: StateContext | undefined,
    kind: 'save' | 'delete',
    work: (trx: SqlDatabase) => Promise<T>,
  ): Promise<T> {
    return this.call(resource, context, async () => {
      try {
        return await (this.inUnit ? work(this.db) : this.db.transaction().execute((trx) => work(trx)));
      } catch (e) {
        // a client's id another request inserted between the check and the insert
        if (kind === 'save' && isUniqueViolation(e)) return { status: 'duplicate' } as T;
        if (!isForeignKeyViolation(e)) throw e;
        if (kind === 'delete') return { status: 'referenced', by: referencingTable(e) ?? 'another resource' } as T;
        const column = violatingColumn(e);
        const relation = resource.properties.find((p) => (p.kind === 'relation' && (column ?? p.name) === p.name)
          || (p.kind === 'relations' && column === TARGET_COLUMN));
        return { status: 'invalid_relation', property: relation?.name ?? column ?? 'unknown' } as T;
      }
    });
  }

  /**
   * Runs one store call: its statements go to `context.logQuery`; an outage becomes a 503 named
   * for the resource; on PostgreSQL, the call has a deadline.
   */
  private async call<T>(
    resource: ResourceMetadata, context: StateContext | undefined, work: () => Promise<T>,
  ): Promise<T> {
    const store = resource.shortName;
    // without a log, no AsyncLocalStorage: once run, it makes every promise of the process pay a hook
    const logged = (): Promise<T> => (context?.logQuery === undefined ? work() : statementContext.run(context, work));
    const deadline = this.options.flavour === 'postgres' ? this.options.timeoutMs : 0;
    if (!(deadline > 0)) {
      try {
        return await logged();
      } catch (e) {
        throw isStoreOutage(e) ? storageUnavailable(store, e) : e;
      }
    }
    const attempt = async (): Promise<{ value: T } | { error: unknown }> => {
      try {
        return { value: await logged() };
      } catch (e) {
        if (isStoreOutage(e)) throw e;
        return { error: e };
      }
    };
    const outcome = await withDeadline(store, deadline, attempt).catch((e: unknown) => {
      throw storageUnavailable(store, e);
    });
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }
}
