/**
 * The `api` section's peer (issue 9): what a developer writes by hand instead of the API layer,
 * Express 5 and better-sqlite3 with two prepared statements, answering the same rows as plain
 * JSON. No security, no negotiation, no hypermedia, no validation beyond the page number.
 */
import express, { type Express } from 'express';
import Database from 'better-sqlite3';

/** Items per page, the API layer's default. */
export const PEER_ITEMS_PER_PAGE = 30;

/**
 * The peer application on `sqlitePath` (opened read-only, the file the API serves).
 * @param table - the books table (a safe identifier, from the resource's metadata)
 */
export function apiPeer(sqlitePath: string, table: string): { app: Express; close: () => void } {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`api-peer: bad table name ${JSON.stringify(table)}`);
  const db = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const page = db.prepare(`SELECT * FROM "${table}" ORDER BY id LIMIT ? OFFSET ?`);
  const one = db.prepare(`SELECT * FROM "${table}" WHERE id = ?`);
  const app = express();
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
