import { sqliteCall, type SqliteDatabase } from '../storage/sqlite';

/** A book of the demo API. */
export interface Book {
  id: string;
  title: string;
  featured: boolean;
}

type Row = { id: string; title: string; featured: number };

const toBookRow = (r: Row): Book => ({ id: r.id, title: r.title, featured: r.featured === 1 });

/**
 * The demo's books, kept in the embedded SQLite database (table `books`). Ids are strings because
 * the demo's `book_update` and `book_delete` routes, like the reference's, accept any id.
 *
 * Safe with several processes on one file: {@link BookRepository.create} picks the next numeric
 * id and inserts in one `BEGIN IMMEDIATE` transaction (no other writer between the two), and never
 * overwrites; every connection waits for the write lock (`busy_timeout`, see `openSqlite`).
 * A read-only, full or locked database throws a 503 `StorageUnavailableError` (`Book storage is
 * unavailable.`) with SQLite's reason.
 */
export class BookRepository {
  private readonly insertNext;

  constructor(private readonly db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS books (id TEXT PRIMARY KEY, title TEXT NOT NULL, featured INTEGER NOT NULL DEFAULT 0)`);
    const next = db.prepare<[{ title: string; featured: number }], Row>(`INSERT INTO books (id, title, featured)
      SELECT COALESCE(MAX(CAST(id AS INTEGER)), 0) + 1, @title, @featured FROM books WHERE id GLOB '[0-9]*'
      RETURNING id, title, featured`);
    this.insertNext = db.transaction(
      (title: string, featured: boolean) => next.get({ title, featured: featured ? 1 : 0 }),
    );
  }

  /** Adds the given books when the table is empty (first start); another process seeding at once adds nothing. */
  seed(books: Array<Omit<Book, 'featured'> & { featured?: boolean }>): void {
    sqliteCall('Book', () => this.db.transaction(() => {
      const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM books').get() as { n: number };
      if (n === 0) for (const b of books) this.save({ featured: false, ...b });
    }).immediate());
  }

  /** Deletes every book, then adds the given ones. */
  reset(books: Array<Omit<Book, 'featured'> & { featured?: boolean }>): void {
    sqliteCall('Book', () => this.db.transaction(() => {
      this.db.exec('DELETE FROM books');
      for (const b of books) this.save({ featured: false, ...b });
    }).immediate());
  }

  /** All books, by numeric id then id. */
  all(): Book[] {
    const sql = 'SELECT id, title, featured FROM books ORDER BY CAST(id AS INTEGER), id';
    return sqliteCall('Book', () => this.db.prepare(sql).all() as Row[]).map(toBookRow);
  }

  /** The book, or null. */
  find(id: string): Book | null {
    const sql = 'SELECT id, title, featured FROM books WHERE id = ?';
    const r = sqliteCall('Book', () => this.db.prepare(sql).get(id) as Row | undefined);
    return r === undefined ? null : toBookRow(r);
  }

  /**
   * Adds a book under the next numeric id (the largest numeric id + 1), chosen by the database in
   * the insert's own `BEGIN IMMEDIATE` transaction: two processes never get the same id.
   * @param book - title and featured flag
   * @returns the stored book, with its id
   * @throws StorageUnavailableError (503) when the database is read-only, full or locked
   */
  create(book: Omit<Book, 'id'>): Book {
    const row = sqliteCall('Book', () => this.insertNext.immediate(book.title, book.featured));
    if (row === undefined) throw new Error('SQLite insert returned no row');
    return toBookRow(row);
  }

  /** Inserts or replaces the book with this id (PUT). */
  save(book: Book): Book {
    const sql = `INSERT INTO books (id, title, featured) VALUES (@id, @title, @featured)
      ON CONFLICT(id) DO UPDATE SET title = excluded.title, featured = excluded.featured`;
    const row = { id: book.id, title: book.title, featured: book.featured ? 1 : 0 };
    sqliteCall('Book', () => this.db.prepare(sql).run(row));
    return book;
  }

  /** Deletes a book; deleting a missing book is not an error. */
  delete(id: string): void {
    sqliteCall('Book', () => this.db.prepare('DELETE FROM books WHERE id = ?').run(id));
  }
}

/** Turns a denormalized request object into a book: title defaults to "Untitled", featured to false. */
export function toBook(id: string, value: object): Book {
  const v = value as { title?: unknown; featured?: unknown };
  return { id, title: typeof v.title === 'string' && v.title !== '' ? v.title : 'Untitled', featured: v.featured === true };
}
