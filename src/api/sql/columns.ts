import { kindDefinition } from '../property/propertyKinds';
import type { ItemId, PropertyMetadata, ResourceMetadata, StoredItem } from '../state/types';
import type { SqlFlavour } from './LoggedDialect';

/** The name of the column holding an item's stored version (see `StoredItem.version`). */
export const VERSION_COLUMN = 'version';

/**
 * The SQL type of a property's column, as its kind says (`property/kinds/`): text, enums, dates
 * and datetimes are `text` (dates as ISO 8601, which sorts as it compares), on PostgreSQL with
 * the `C` collation, so ordering and ranges compare code points as SQLite's `BINARY` does,
 * whatever the database's locale; booleans are `integer` 0/1 on SQLite (it has no boolean type)
 * and `boolean` on PostgreSQL; relations the target's integer id.
 * @param property - the property
 * @param flavour - the database
 * @returns the type, as SQL text
 */
export function columnType(property: PropertyMetadata, flavour: SqlFlavour): string {
  return kindDefinition(property.kind).sql.columnType(flavour);
}

/**
 * A value as bound to a statement (booleans as 0/1 on SQLite: better-sqlite3 binds no booleans),
 * undefined as null.
 */
export function toColumn(property: PropertyMetadata, value: unknown, flavour: SqlFlavour): unknown {
  if (value === undefined || value === null) return null;
  return kindDefinition(property.kind).sql.toColumn(value, flavour);
}

/** A stored column value in the contract's shape (`PropertyKind`): booleans from 0/1, numbers from text. */
function fromColumn(property: PropertyMetadata, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return kindDefinition(property.kind).sql.fromColumn(value);
}

/** An `id` column's value as the resource's id: a number for `integer`, else the text. */
export function idOfColumn(resource: Pick<ResourceMetadata, 'identifier'>, value: unknown): ItemId {
  return (resource.identifier ?? 'integer') === 'integer' ? Number(value) : String(value);
}

/**
 * The SQL type of an `id` column (and of the columns that refer to it): `integer` (an identity or
 * autoincrement key for the resource itself), PostgreSQL's `uuid` (16 bytes; SQLite: `text`), or
 * `text` for a `string` id.
 */
export function idColumnType(resource: Pick<ResourceMetadata, 'identifier'> | undefined, flavour: SqlFlavour): string {
  switch (resource?.identifier ?? 'integer') {
    case 'integer': return 'integer';
    case 'uuid': return flavour === 'postgres' ? 'uuid' : 'text';
    case 'string': return 'text';
  }
}

/** Whether a property has a column of its own (a to-many relation lives in a join table: `joinTables.ts`). */
export function hasColumn(property: PropertyMetadata): boolean {
  return property.kind !== 'relations';
}

/**
 * The columns of a property, each as the property it stores named as the column: the property
 * itself, or, for a kind stored in several (an embeddable), one per field (`address_city`);
 * none for a to-many relation.
 */
export function columnsOf(property: PropertyMetadata): readonly PropertyMetadata[] {
  if (!hasColumn(property)) return [];
  const split = kindDefinition(property.kind).sql.split;
  return split === undefined ? [property] : split.columns(property);
}

/** Every column of a resource's properties (`id` and `version` left out), as {@link columnsOf} gives them. */
export function resourceColumns(resource: ResourceMetadata): PropertyMetadata[] {
  return resource.properties.flatMap((p) => columnsOf(p));
}

/**
 * The column a filter or an order names: `id`, a property's own, or an embeddable's field by its
 * dotted path (`address.city`: the column `address_city`), as the property it stores; undefined
 * when the resource has none such.
 */
export function columnOfPath(resource: ResourceMetadata, name: string): PropertyMetadata | undefined {
  const dot = name.indexOf('.');
  if (dot < 0) return resource.properties.find((p) => p.name === name);
  const owner = resource.properties.find((p) => p.name === name.slice(0, dot) && p.embeddable !== undefined);
  const field = name.slice(dot + 1);
  return owner === undefined ? undefined : columnsOf(owner).find((c) => c.name === `${owner.name}_${field}`);
}

/** The row values of an item's properties, by column name (to-many relations left out). */
export function rowOf(
  resource: ResourceMetadata, data: Readonly<Record<string, unknown>>, flavour: SqlFlavour,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const p of resource.properties) {
    if (!hasColumn(p)) continue;
    const split = kindDefinition(p.kind).sql.split;
    if (split === undefined) { row[p.name] = toColumn(p, data[p.name], flavour); continue; }
    const values = split.toColumns(data[p.name] ?? null, p);
    for (const c of split.columns(p)) row[c.name] = toColumn(c, values[c.name], flavour);
  }
  return row;
}

/**
 * A stored row (`id`, `version` and a column per property) as the contract's item; a to-many
 * relation's ids are added by `attachLinks`.
 */
export function itemOf(resource: ResourceMetadata, row: Readonly<Record<string, unknown>>): StoredItem {
  const data: Record<string, unknown> = {};
  for (const p of resource.properties) {
    if (!hasColumn(p)) continue;
    const split = kindDefinition(p.kind).sql.split;
    if (split === undefined) { data[p.name] = fromColumn(p, row[p.name]); continue; }
    const values: Record<string, unknown> = {};
    for (const c of split.columns(p)) values[c.name] = fromColumn(c, row[c.name]);
    data[p.name] = split.fromColumns(values, p);
  }
  return { id: idOfColumn(resource, row.id), version: Number(row[VERSION_COLUMN]), data };
}
