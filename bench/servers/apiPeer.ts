/**
 * The `api` section's peer (issue 9): what a developer writes by hand instead of the API layer,
 * Express 5 and better-sqlite3 with two prepared statements, answering the same rows as plain
 * JSON. No security, no negotiation, no hypermedia, no validation beyond the page number.
 */
import express, { type Express } from 'express';
import Database from 'better-sqlite3';

/** Items per page, the API layer's default. */
export const PEER_ITEMS_PER_PAGE = 30;

const SAFE_NAME = /^[a-z_][a-z0-9_]*$/;

interface JoinedRow extends Record<string, unknown> {
  a_id: number | null;
  a_name: string | null;
  a_birthDate: string | null;
}

/**
 * The peer application on `sqlitePath` (opened read-only, the file the API serves).
 * @param table - the books table (a safe identifier, from the resource's metadata)
 * @param authorsTable - the table books' `author` column points to
 */
export function apiPeer(sqlitePath: string, table: string, authorsTable: string): { app: Express; close: () => void } {
  for (const name of [table, authorsTable]) {
    if (!SAFE_NAME.test(name)) throw new Error(`api-peer: bad table name ${JSON.stringify(name)}`);
  }
  const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const page = db.prepare(`SELECT * FROM "${table}" ORDER BY id LIMIT ? OFFSET ?`);
  const one = db.prepare(`SELECT * FROM "${table}" WHERE id = ?`);
  const joined = db.prepare(`SELECT b.*, a.id AS a_id, a.name AS a_name, a."birthDate" AS "a_birthDate"
    FROM "${table}" b LEFT JOIN "${authorsTable}" a ON a.id = b.author ORDER BY b.id LIMIT ? OFFSET ?`);
  const app = express();
  app.get('/books_with_authors', (req, res) => {
    const n = Number(req.query.page ?? 1);
    if (!Number.isInteger(n) || n < 1) { res.status(400).json({ error: 'page' }); return; }
    const rows = joined.all(PEER_ITEMS_PER_PAGE, (n - 1) * PEER_ITEMS_PER_PAGE) as JoinedRow[];
    res.json(rows.map(({ a_id, a_name, a_birthDate, ...book }) => ({
      ...book,
      author: a_id === null ? null : { id: a_id, name: a_name, birthDate: a_birthDate },
    })));
  });
  app.get('/books', (req, res) => {
    const n = Number(req.query.page ?? 1);
    if (!Number.isInteger(n) || n < 1) { res.status(400).json({ error: 'page' }); return; }
    res.json(page.all(PEER_ITEMS_PER_PAGE, (n - 1) * PEER_ITEMS_PER_PAGE));
  });
  app.get('/books/:id', (req, res) => {
    const row = one.get(Number(req.params.id));
    if (row === undefined) { res.status(404).json({ error: 'not found' }); return; }
    res.json(row);
  });
  return { app, close: () => { db.close(); } };
}
