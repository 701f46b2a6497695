import type { PropertyMetadata, ResourceMetadata, StoredItem } from '../state/types';
import type { SqlFlavour } from './LoggedDialect';

/** The name of the column holding an item's stored version (see `StoredItem.version`). */
export const VERSION_COLUMN = 'version';

/**
 * The SQL type of a property's column. Text, enums, dates and datetimes are `text` (dates as ISO
 * 8601, which sorts as it compares); on PostgreSQL with the `C` collation, so ordering and ranges
 * compare code points as SQLite's `BINARY` does, whatever the database's locale. Booleans are
 * `integer` 0/1 on SQLite (it has no boolean type) and `boolean` on PostgreSQL; relations the
 * target's integer id.
 * @param property - the property
 * @param flavour - the database
 * @returns the type, as SQL text
 */
export function columnType(property: PropertyMetadata, flavour: SqlFlavour): string {
  switch (property.kind) {
    case 'integer':
    case 'relation':
      return 'integer';
    case 'number':
      return flavour === 'postgres' ? 'double precision' : 'real';
    case 'boolean':
      return flavour === 'postgres' ? 'boolean' : 'integer';
    default:
      return flavour === 'postgres' ? 'text collate "C"' : 'text';
  }
}

/**
 * A value as bound to a statement: booleans as 0/1 on SQLite (better-sqlite3 binds no booleans),
 * undefined as null.
 */
export function toColumn(property: PropertyMetadata, value: unknown, flavour: SqlFlavour): unknown {
  if (value === undefined || value === null) return null;
  if (property.kind === 'boolean' && flavour === 'sqlite') return value === true ? 1 : 0;
  return value;
}

/** A stored column value in the contract's shape (`PropertyKind`): booleans from 0/1, numbers from text. */
function fromColumn(property: PropertyMetadata, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (property.kind) {
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't';
    case 'integer':
    case 'relation':
    case 'number':
      return typeof value === 'number' ? value : Number(value);
    default:
      if (value instanceof Date) return value.toISOString();
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** The row values of an item's properties, by column name. */
export function rowOf(
  resource: ResourceMetadata, data: Readonly<Record<string, unknown>>, flavour: SqlFlavour,
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const p of resource.properties) row[p.name] = toColumn(p, data[p.name], flavour);
  return row;
}

/** A stored row (`id`, `version` and a column per property) as the contract's item. */
export function itemOf(resource: ResourceMetadata, row: Readonly<Record<string, unknown>>): StoredItem {
  const data: Record<string, unknown> = {};
  for (const p of resource.properties) data[p.name] = fromColumn(p, row[p.name]);
  return { id: Number(row.id), version: Number(row[VERSION_COLUMN]), data };
}
