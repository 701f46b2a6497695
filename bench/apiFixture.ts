/**
 * The `api` section's fixture: a SQLite file holding the demo's tables (made by the demo's own
 * start-up: migrations and seed) topped up to {@link FIXTURE_ROWS} books, inserted in one
 * transaction with values of each property's kind (every 7th book without an author, every
 * 5th without a price, so nullable columns hold nulls as real data does).
 */
import Database from 'better-sqlite3';
import type { PropertyMetadata, ResourceMetadata } from '../src/api/state/types';

/** Books in the fixture. */
export const FIXTURE_ROWS = 10_000;

function valueOf(p: PropertyMetadata, i: number, authorIds: readonly number[]): unknown {
  if (p.nullable && p.kind !== 'boolean' && i % (p.kind === 'relation' ? 7 : 5) === 0) return null;
  switch (p.kind) {
    case 'string': return p.name === 'isbn' ? `978${String(1_000_000_000 + i).slice(-10)}` : `${p.name} ${i}`;
    case 'text': return `The ${p.name} of book ${i}, long enough to look like a summary of what it says.`;
    case 'integer': return i % 1000;
    case 'number': return Math.round((5 + (i % 400) / 7) * 100) / 100;
    case 'boolean': return 0;
    case 'date': return new Date(Date.UTC(1950, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    case 'datetime': return new Date(Date.UTC(2000, 0, 1) + i * 60_000).toISOString();
    case 'enum': return p.enumValues?.[i % p.enumValues.length] ?? null;
    case 'relation': return authorIds.length === 0 ? null : authorIds[i % authorIds.length];
  }
}

/**
 * Tops the book table up to {@link FIXTURE_ROWS} rows.
 * @param sqlitePath - a file the demo already created (its migrations ran)
 * @param books - the Book resource's metadata (table and columns)
 * @param authors - the table relations point to
 * @returns how many books the table holds now
 */
export function topUpBooks(sqlitePath: string, books: ResourceMetadata, authors: string): number {
  const db = new Database(sqlitePath);
  try {
    const count = (): number => (db.prepare(`SELECT COUNT(*) AS n FROM "${books.table}"`).get() as { n: number }).n;
    const authorRows = db.prepare(`SELECT id FROM "${authors}" ORDER BY id`).all() as Array<{ id: number }>;
    const authorIds = authorRows.map((r) => r.id);
    const columns = books.properties.map((p) => `"${p.name}"`);
    const insert = db.prepare(`INSERT INTO "${books.table}" (${columns.join(', ')}, version) `
      + `VALUES (${columns.map(() => '?').join(', ')}, 1)`);
    const missing = FIXTURE_ROWS - count();
    db.transaction(() => {
      for (let i = 1; i <= missing; i++) insert.run(...books.properties.map((p) => valueOf(p, i, authorIds)));
    })();
    return count();
  } finally {
    db.close();
  }
}
