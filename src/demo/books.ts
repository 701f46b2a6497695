import type { SqliteDatabase } from '../storage/sqlite';

/** A book of the demo API. */
export interface Book {
  id: string;
  title: string;
  featured: boolean;
}

/**
 * The demo's books, kept in the embedded SQLite database (table `books`). Ids are strings because
 * the demo's `book_update` and `book_delete` routes, like the reference's, accept any id.
 */
export class BookRepository {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS books (id TEXT PRIMARY KEY, title TEXT NOT NULL, featured INTEGER NOT NULL DEFAULT 0)`);
  }

  /** Adds the given books when the table is empty (first start). */
  seed(books: Array<Omit<Book, 'featured'> & { featured?: boolean }>): void {
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM books').get() as { n: number };
    if (n > 0) return;
    for (const b of books) this.save({ featured: false, ...b });
  }

  /** Deletes every book, then adds the given ones. */
  reset(books: Array<Omit<Book, 'featured'> & { featured?: boolean }>): void {
    this.db.transaction(() => {
      this.db.exec('DELETE FROM books');
      for (const b of books) this.save({ featured: false, ...b });
    })();
  }

  /** All books, by numeric id then id. */
  all(): Book[] {
    return (this.db.prepare('SELECT id, title, featured FROM books ORDER BY CAST(id AS INTEGER), id').all() as Array<{ id: string; title: string; featured: number }>)
      .map((r) => ({ id: r.id, title: r.title, featured: r.featured === 1 }));
  }

  /** The book, or null. */
  find(id: string): Book | null {
    const r = this.db.prepare('SELECT id, title, featured FROM books WHERE id = ?').get(id) as { id: string; title: string; featured: number } | undefined;
    return r === undefined ? null : { id: r.id, title: r.title, featured: r.featured === 1 };
  }

  /** The next numeric id (max + 1). */
  nextId(): string {
    const { m } = this.db.prepare("SELECT COALESCE(MAX(CAST(id AS INTEGER)), 0) AS m FROM books WHERE id GLOB '[0-9]*'").get() as { m: number };
    return String(m + 1);
  }

  /** Inserts or replaces a book. */
  save(book: Book): Book {
    this.db.prepare('INSERT INTO books (id, title, featured) VALUES (@id, @title, @featured) ON CONFLICT(id) DO UPDATE SET title = excluded.title, featured = excluded.featured')
      .run({ id: book.id, title: book.title, featured: book.featured ? 1 : 0 });
    return book;
  }

  /** Deletes a book; deleting a missing book is not an error. */
  delete(id: string): void {
    this.db.prepare('DELETE FROM books WHERE id = ?').run(id);
  }
}

/** Turns a denormalized request object into a book: title defaults to "Untitled", featured to false. */
export function toBook(id: string, value: object): Book {
  const v = value as { title?: unknown; featured?: unknown };
  return { id, title: typeof v.title === 'string' && v.title !== '' ? v.title : 'Untitled', featured: v.featured === true };
}
