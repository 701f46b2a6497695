import type { Request } from 'express';
import { isSecretName, redact, REDACTED } from '../redaction';
import { CollectorSummary, DataCollector, NOT_ENABLED } from './DataCollector';
import { fromLayer, NotEnabled } from './layerData';

/** One statement as `req.databaseQueries` holds it (the API layer's `QueryLogEntry`). */
interface LoggedQuery {
  sql: string;
  parameters: readonly unknown[];
  durationMs: number;
  rows: number;
  error?: string;
}

/** One statement of the Database panel. */
export interface DatabaseQuery {
  sql: string;
  /** The bound parameters, secrets redacted (by the column they are compared with or stored in, and by shape). */
  parameters: unknown[];
  /** Wall time in milliseconds. */
  durationMs: number;
  /** Rows returned or affected. */
  rows: number;
  /** The driver's error message, when the statement failed. */
  error?: string;
}

/** Data of the Database panel. */
export type DatabaseData = NotEnabled | {
  enabled: true;
  queries: DatabaseQuery[];
  /** Total wall time of the statements, in milliseconds. */
  totalMs: number;
  /** Statements that failed. */
  errors: number;
};

/** `"col" = ?`, `lower("col" collate "x") like $3`…: the column a placeholder is compared with. */
const COMPARED = new RegExp('"((?:[^"]|"")+)"(?:\\s+collate\\s+"(?:[^"]|"")+")?\\s*\\)?\\s*'
  + '(?:=|<>|!=|<=|>=|<|>|\\blike\\b|\\bin\\s*\\()\\s*(?:\\w+\\s*\\()?$', 'i');
/** `insert into "t" ("a", "b") values (`: the columns of a one-row insert. */
const INSERT = /^\s*insert\s+into\s+"(?:[^"]|"")+"\s*\(([^)]*)\)\s*values\s*\(/i;

/**
 * The column each parameter of a statement goes to or is compared with, when the SQL says
 * (Kysely's quoted identifiers): the insert's column list, else `"col" <op> ?` before the placeholder.
 */
export function parameterNames(text: string, count: number): (string | undefined)[] {
  const names: (string | undefined)[] = new Array<string | undefined>(count).fill(undefined);
  const insert = INSERT.exec(text);
  const columns = insert?.[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '').replace(/""/g, '"')) ?? [];
  const placeholder = /\?|\$(\d+)/g;
  let index = 0;
  for (let m = placeholder.exec(text); m !== null && index < count; m = placeholder.exec(text), index++) {
    const position = m[1] === undefined ? index : Number(m[1]) - 1;
    if (position < 0 || position >= count) continue;
    names[position] = insert !== null && position < columns.length
      ? columns[position]
      : COMPARED.exec(text.slice(0, m.index))?.[1].replace(/""/g, '"');
  }
  return names;
}

/**
 * The SQL statements the request's stores ran, with their duration, row counts and parameters
 * (Symfony's `DoctrineDataCollector`). Reads `req.databaseQueries`, which the API layer fills
 * through `queryLogFor(req)`; "not enabled" when the request ran no store. Parameters are
 * redacted with the profiler's rules: by the name of their column (`password`, `token`, …) and by
 * shape (JWTs, card numbers, URLs with a password).
 */
export class DatabaseCollector implements DataCollector<DatabaseData> {
  readonly name = 'database';
  readonly label = 'Database';

  collect(req: Request): DatabaseData {
    return fromLayer<LoggedQuery[], Extract<DatabaseData, { enabled: true }>>(req, 'databaseQueries', (log) => {
      const queries = log.map((q): DatabaseQuery => {
        const names = parameterNames(q.sql, q.parameters.length);
        const parameters = q.parameters.map((p, i) => {
          const name = names[i];
          return name !== undefined && isSecretName(name) && typeof p !== 'boolean' ? REDACTED : redact(p);
        });
        const error = q.error === undefined ? {} : { error: q.error };
        return { sql: q.sql, parameters, durationMs: q.durationMs, rows: q.rows, ...error };
      });
      const totalMs = queries.reduce((sum, q) => sum + q.durationMs, 0);
      return { enabled: true, queries, totalMs, errors: queries.filter((q) => q.error !== undefined).length };
    });
  }

  /** `3 in 1.2 ms`; red with a failed statement. */
  summary(data: DatabaseData): CollectorSummary {
    if (!data.enabled) return NOT_ENABLED;
    const text = `${data.queries.length} in ${data.totalMs.toFixed(1)} ms`;
    if (data.errors > 0) return { text, status: 'error', count: data.errors };
    return { text, status: 'none' };
  }
}
