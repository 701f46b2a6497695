import { sql } from 'kysely';
import { compareIds } from '../state/identifier';
import type { ItemId, PropertyMetadata, ResourceMetadata, StoredItem } from '../state/types';
import { idColumnType, idOfColumn } from './columns';
import type { SqlFlavour } from './LoggedDialect';
import type { SqlDatabase } from './SqlState';

/** A column value naming an item as an id: a driver's bigint as a number, the rest as read. */
export function idValue(value: unknown): ItemId {
  return typeof value === 'bigint' ? Number(value) : value as ItemId;
}

/**
 * The join tables of to-many relations (`toMany('Tag')`, kind `relations`): one table per
 * to-many property, `<table>_<property in snake case>` (`books_tags`), with two columns,
 * `source_id` (the item holding the property) and `target_id` (a related item), primary key
 * both. Their foreign keys say what a delete does (the `ON DELETE` rules):
 * - `source_id` references the item's table `ON DELETE CASCADE`: deleting an item removes its
 *   own links (Doctrine's owning side of a `ManyToMany` does the same);
 * - `target_id` references the target's table `ON DELETE NO ACTION`: deleting an item that
 *   others still link to is refused (`referenced`, a 409), as a to-one relation's `RESTRICT`
 *   (checked at the statement's end, so an item linked to itself can go).
 * @module
 */

/** The join table's column holding the item that has the property. */
export const SOURCE_COLUMN = 'source_id';
/** The join table's column holding a related item. */
export const TARGET_COLUMN = 'target_id';

/** `relatedBooks` → `related_books`. */
function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** The join table of a to-many property: `books_tags` for `Book.tags` in `books`. */
export function joinTableOf(resource: ResourceMetadata, property: PropertyMetadata): string {
  return `${resource.table}_${snake(property.name)}`;
}

/** The to-many properties of a resource. */
export function toManyProperties(resource: ResourceMetadata): PropertyMetadata[] {
  return resource.properties.filter((p) => p.kind === 'relations');
}

/**
 * Creates the join table of a to-many property (inside the running migration), with an index on
 * `target_id` (the primary key serves `source_id`).
 * @param targetTable - the target resource's table, which must exist (or be `resource.table`)
 */
export async function createJoinTable(
  db: SqlDatabase, resource: ResourceMetadata, property: PropertyMetadata,
  target: Pick<ResourceMetadata, 'table' | 'identifier'>, flavour: SqlFlavour,
): Promise<void> {
  const table = joinTableOf(resource, property);
  await db.schema.createTable(table)
    .addColumn(SOURCE_COLUMN, sql.raw(idColumnType(resource, flavour)),
      (c) => c.notNull().references(`${resource.table}.id`).onDelete('cascade'))
    .addColumn(TARGET_COLUMN, sql.raw(idColumnType(target, flavour)),
      (c) => c.notNull().references(`${target.table}.id`).onDelete('no action'))
    .addPrimaryKeyConstraint(`${table}_pkey`, [SOURCE_COLUMN, TARGET_COLUMN])
    .execute();
  await db.schema.createIndex(`${table}_${TARGET_COLUMN}_idx`).on(table).column(TARGET_COLUMN).execute();
}

/**
 * Adds each to-many property's ids (ascending) to the items' data, in one statement per property.
 * @param items - items read from the resource's table (their data is completed in place)
 */
export async function attachLinks(
  db: SqlDatabase, resource: ResourceMetadata, items: readonly StoredItem[],
): Promise<void> {
  const many = toManyProperties(resource);
  if (many.length === 0 || items.length === 0) return;
  const byId = new Map<ItemId, Record<string, unknown>>();
  // the items were just read (`itemOf`): their data is not frozen yet
  for (const item of items) byId.set(item.id, item.data);
  const ids = [...byId.keys()];
  for (const p of many) {
    for (const data of byId.values()) data[p.name] = [];
    const { rows } = await sql<{ s: number | string; t: number | string }>`select ${sql.ref(SOURCE_COLUMN)} as s,
      ${sql.ref(TARGET_COLUMN)} as t from ${sql.table(joinTableOf(resource, p))}
      where ${sql.ref(SOURCE_COLUMN)} in (${sql.join(ids)})`.execute(db);
    for (const row of rows) (byId.get(idOfColumn(resource, row.s))![p.name] as ItemId[]).push(idValue(row.t));
    // sorted here, not by the database: PostgreSQL orders text by the collation, the contract by code unit
    for (const data of byId.values()) (data[p.name] as ItemId[]).sort(compareIds);
  }
}

/**
 * Writes an item's links: for each to-many property present in `data`, its ids replace the
 * stored ones (a property left out keeps them).
 */
export async function writeLinks(
  db: SqlDatabase, resource: ResourceMetadata, id: ItemId, data: Readonly<Record<string, unknown>>,
): Promise<void> {
  for (const p of toManyProperties(resource)) {
    const value = data[p.name];
    if (!Array.isArray(value)) continue;
    const table = joinTableOf(resource, p);
    await db.deleteFrom(table).where(SOURCE_COLUMN, '=', id).execute();
    const targets = [...new Set(value as ItemId[])];
    if (targets.length === 0) continue;
    await db.insertInto(table).values(targets.map((t) => ({ [SOURCE_COLUMN]: id, [TARGET_COLUMN]: t }))).execute();
  }
}

/**
 * The first to-many property of `data` naming an id that its target table does not have, with
 * the first such id (ascending).
 * @param tableOf - the target table of a join table (from its foreign key)
 */
export async function missingTarget(
  db: SqlDatabase, resource: ResourceMetadata, data: Readonly<Record<string, unknown>>,
  tableOf: (joinTable: string) => string | undefined,
): Promise<{ property: string; id?: ItemId } | undefined> {
  for (const p of toManyProperties(resource)) {
    const value = data[p.name];
    if (!Array.isArray(value) || value.length === 0) continue;
    const ids = [...new Set(value as unknown[])];
    const valid = (v: unknown): boolean => (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'string';
    if (!ids.every(valid)) return { property: p.name };
    const target = tableOf(joinTableOf(resource, p));
    if (target === undefined) continue; // no foreign key: the database has the last word
    const { rows } = await sql<{ id: number | string }>`select ${sql.ref('id')} from ${sql.table(target)}
      where ${sql.ref('id')} in (${sql.join(ids)})`.execute(db);
    const found = new Set(rows.map((r) => idValue(r.id)));
    const missing = (ids as ItemId[]).sort(compareIds).find((id) => !found.has(id));
    if (missing !== undefined) return { property: p.name, id: missing };
  }
  return undefined;
}
