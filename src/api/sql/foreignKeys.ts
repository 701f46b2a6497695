import { sql, type Kysely } from 'kysely';
import type { SqlFlavour } from './LoggedDialect';

/** One foreign key column: `fromTable.fromColumn` refers to `toTable.id`. */
export interface ForeignKey {
  readonly fromTable: string;
  readonly fromColumn: string;
  readonly toTable: string;
  /** `ON DELETE CASCADE`: the referring rows go with the row (a join table's `source_id`). */
  readonly cascade: boolean;
}

/**
 * Every single-column foreign key of the database, read from its catalogue (SQLite
 * `pragma_foreign_key_list`, PostgreSQL `pg_constraint` of the current schema): the store checks
 * relations and references with the constraints the database enforces, whoever created them.
 * @param db - the database (or a transaction)
 * @param flavour - which database
 */
export async function readForeignKeys(db: Kysely<unknown>, flavour: SqlFlavour): Promise<ForeignKey[]> {
  if (flavour === 'sqlite') {
    const { rows } = await sql<Omit<ForeignKey, 'cascade'> & { cascade: number }>`select m.name as "fromTable",
      f."from" as "fromColumn", f."table" as "toTable", f.on_delete = 'CASCADE' as "cascade"
      from sqlite_master m, pragma_foreign_key_list(m.name) f
      where m.type = 'table'`.execute(db);
    return rows.map((r) => ({ ...r, cascade: Boolean(r.cascade) }));
  }
  const { rows } = await sql<ForeignKey>`select cf.relname as "fromTable", a.attname as "fromColumn",
      ct.relname as "toTable", c.confdeltype = 'c' as "cascade"
    from pg_constraint c
    join pg_class cf on cf.oid = c.conrelid
    join pg_class ct on ct.oid = c.confrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where c.contype = 'f' and array_length(c.conkey, 1) = 1
      and cf.relnamespace = to_regnamespace(current_schema())`.execute(db);
  return rows;
}
