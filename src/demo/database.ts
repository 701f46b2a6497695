import { sql } from 'kysely';
import { createSqlState, type SqlStore } from '../api/sql/createSqlState';
import { createResourceTable, flavourOf, type Migrations } from '../api/sql/migrations';
import type { SqlDatabase } from '../api/sql/SqlState';
import type { PropertyMetadata, ResourceMetadata } from '../api/state/types';
import { withoutPassword } from '../storage/redis';
import { auditLogMigration } from '../admin/AuditLog';
import { EnvError } from './env';
import { DEMO_AUTHORS, DEMO_BOOKS } from './seed';

const prop = (name: string, kind: PropertyMetadata['kind'], extra: Partial<PropertyMetadata> = {}): PropertyMetadata =>
  Object.freeze({ name, kind, nullable: true, readOnly: false, writeOnly: false, ...extra });

/**
 * The `authors` table as the first migration made it. A migration keeps its own copy of the
 * schema it creates (not the resource's current metadata): a later change to the resource gets
 * its own migration, and a database migrated long ago ends up with the same tables as a new one.
 */
export const AUTHORS_V1: ResourceMetadata = Object.freeze({
  shortName: 'Author',
  table: 'authors',
  properties: Object.freeze([prop('name', 'string', { nullable: false }), prop('birthDate', 'date')]),
});

/** The `books` table as the first migration made it (see {@link AUTHORS_V1}). */
export const BOOKS_V1: ResourceMetadata = Object.freeze({
  shortName: 'Book',
  table: 'books',
  properties: Object.freeze([
    prop('title', 'string', { nullable: false }),
    prop('isbn', 'string'),
    prop('publishedAt', 'date'),
    prop('price', 'number'),
    prop('featured', 'boolean', { nullable: false }),
    prop('author', 'relation', { relation: 'Author' }),
  ]),
});

/** The table a legacy `books` table is renamed to (kept, read by nothing: drop it when done). */
export const LEGACY_BOOKS_TABLE = 'books_legacy';

/**
 * Whether `books` is the table of the demo before the API layer (SQLite only: `id TEXT`, `title`,
 * `featured`, no `version` column).
 */
async function hasLegacyBooks(db: SqlDatabase): Promise<boolean> {
  if (flavourOf(db) !== 'sqlite') return false;
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info('books')`.execute(db);
  return rows.length > 0 && !rows.some((r) => r.name === 'version');
}

/**
 * The demo's migrations, run at start by {@link openDemoDatabase}:
 *
 * - `0001-authors-and-books` creates `authors` and `books` (see {@link BOOKS_V1}). A `books` table
 *   left by older demo versions (TEXT ids, title, featured) is renamed `books_legacy` and its rows
 *   are copied into the new table: a numeric id (`'7'`) is kept, so old links still work; any
 *   other id (`'abc'`, from the old `PUT /api/books/abc`) gets a new id from the database, after
 *   the kept ones. The copied books have no author, ISBN, date or price.
 * - `0002-seed` adds the demo's authors and books (`DEMO_AUTHORS`, `DEMO_BOOKS` of `./seed`:
 *   ids 1, 2, 3 are Dune, Hyperion, Solaris) when `books` is empty, so a database with books of
 *   its own is left as it is.
 * - `0003-audit-log` creates the back office's `audit_log` table (`auditLogMigration` of `src/admin`).
 */
export const DEMO_MIGRATIONS: Migrations = Object.freeze({
  '0001-authors-and-books': {
    async up(db: SqlDatabase): Promise<void> {
      const legacy = await hasLegacyBooks(db);
      if (legacy) await sql`alter table books rename to ${sql.table(LEGACY_BOOKS_TABLE)}`.execute(db);
      const tableOf = (shortName: string): string | undefined => (shortName === 'Author' ? 'authors' : undefined);
      await createResourceTable(db, AUTHORS_V1, tableOf);
      await createResourceTable(db, BOOKS_V1, tableOf);
      if (!legacy) return;
      const numeric = sql`id glob '[0-9]*' and id not glob '*[^0-9]*' and cast(id as integer) > 0`;
      await sql`insert into books (id, title, featured, version)
        select cast(id as integer), title, featured, 1 from ${sql.table(LEGACY_BOOKS_TABLE)} where ${numeric}
        order by cast(id as integer)`.execute(db);
      await sql`insert into books (title, featured, version)
        select title, featured, 1 from ${sql.table(LEGACY_BOOKS_TABLE)} where not (${numeric}) order by id`.execute(db);
    },
  },
  '0002-seed': {
    async up(db: SqlDatabase): Promise<void> {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from books`.execute(db);
      if (Number(rows[0]?.n ?? 0) > 0) return;
      const sqlite = flavourOf(db) === 'sqlite';
      const ids: number[] = [];
      for (const author of DEMO_AUTHORS) {
        const inserted: { id: number } = await db.insertInto('authors').values({ ...author, version: 1 })
          .returning('id').executeTakeFirstOrThrow();
        ids.push(inserted.id);
      }
      for (const book of DEMO_BOOKS) {
        // `author` is the position of the book's author in DEMO_AUTHORS, from 1
        const featured = sqlite ? Number(book.featured) : book.featured;
        await db.insertInto('books').values({ ...book, featured, author: ids[book.author - 1], version: 1 }).execute();
      }
    },
  },
  '0003-audit-log': auditLogMigration(),
});

/**
 * Opens the demo's database and runs {@link DEMO_MIGRATIONS}: PostgreSQL when `DATABASE_URL` is
 * set (a `postgres://` URL), else the SQLite file `SQLITE_PATH` (`:memory:` when unset).
 * @param env - usually `process.env`
 * @returns the migrated store (its `provider` and `processor` serve the Book and Author resources)
 * @throws EnvError `Invalid environment variable "DATABASE_URL": …` for a URL that is not postgres://
 * @throws KernelConfigError naming DATABASE_URL or SQLITE_PATH when the database cannot be opened
 */
export async function openDemoDatabase(env: NodeJS.ProcessEnv): Promise<SqlStore> {
  const url = env.DATABASE_URL === '' ? undefined : env.DATABASE_URL;
  if (url !== undefined && !/^postgres(ql)?:\/\//i.test(url)) {
    const example = 'expected a postgres:// URL, e.g. postgres://app:secret@127.0.0.1:5432/app';
    throw new EnvError('DATABASE_URL', `${example}, got "${withoutPassword(url)}".`);
  }
  const store = url !== undefined
    ? createSqlState({ url, optionNames: { url: 'DATABASE_URL' } })
    : createSqlState({ sqlitePath: env.SQLITE_PATH ?? ':memory:', optionNames: { sqlitePath: 'SQLITE_PATH' } });
  try {
    await store.migrate(DEMO_MIGRATIONS);
  } catch (e) {
    await store.close().catch(() => undefined);
    throw e;
  }
  return store;
}
