/**
 * Helpers of the back office suites: a demo kernel on a MemoryState or a real SQLite file, a
 * logged-in client (cookies kept) and the readers of what the pages hold. Not a test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { SqlStore } from '../../src/api/sql';
import { createDemoKernel, type DemoKernel } from '../../src/demo/app';
import { openDemoDatabase } from '../../src/demo/database';

/** A demo kernel and how to close it. */
export interface Demo {
  readonly kernel: DemoKernel;
  /** The SQL store, for the SQLite variant. */
  readonly sql?: SqlStore;
  close(): Promise<void>;
}

/** The stores the suites run against. */
export const STORES: ReadonlyArray<[string, () => Promise<Demo>]> = [
  ['MemoryState', async () => {
    const kernel = createDemoKernel({ debug: true });
    return { kernel, close: () => kernel.close() };
  }],
  ['SQLite', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-admin-'));
    const sql = await openDemoDatabase({ SQLITE_PATH: path.join(dir, 'demo.sqlite') });
    const kernel = createDemoKernel({ debug: true, store: sql, sqlitePath: path.join(dir, 'sessions.sqlite') });
    return {
      kernel, sql,
      close: async () => {
        await kernel.close();
        await sql.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }],
];

/** The `_csrf_token` of the login page. */
export function loginTokenOf(html: string): string {
  const token = cheerio.load(html)('input[name="_csrf_token"]').val();
  if (typeof token !== 'string' || token === '') throw new Error('no _csrf_token field on the page');
  return token;
}

/**
 * A client logged in through the back office's login form as `user` (cookies kept between
 * requests); throws when the login does not redirect to the back office.
 */
export async function loggedIn(kernel: DemoKernel, user = 'admin', password = user): Promise<TestAgent> {
  const agent = request.agent(kernel);
  const page = await agent.get('/admin/login').expect(200);
  const res = await agent.post('/admin/login').type('form')
    .send({ _username: user, _password: password, _csrf_token: loginTokenOf(page.text) });
  if (![302, 303].includes(res.status) || res.headers.location !== '/admin') {
    throw new Error(`login as ${user} answered ${res.status} ${String(res.headers.location)}`);
  }
  return agent;
}

/** The value of the first hidden `_token` field of a page. */
export function tokenOf(html: string): string {
  const token = cheerio.load(html)('input[name="_token"]').first().val();
  if (typeof token !== 'string' || token === '') throw new Error('no _token field on the page');
  return token;
}

/** The page's CSRF token, read from the given page. */
export async function tokenFrom(agent: TestAgent, url = '/admin'): Promise<string> {
  return tokenOf((await agent.get(url).expect(200)).text);
}

/** The text of each `<td>` of the first table's body rows (whitespace collapsed, entities decoded). */
export function rowsOf(html: string): string[][] {
  const $ = cheerio.load(html);
  return $('tbody').first().children('tr').toArray()
    .map((tr) => $(tr).children('td').toArray().map((td) => $(td).text().replace(/\s+/g, ' ').trim()));
}

/** The titles of the index page's rows (the second column after the checkbox and the id). */
export function titlesOf(html: string): string[] {
  return rowsOf(html).map((cells) => cells[2]);
}

/** The `role="status"` flash messages of a page (their text, entities decoded). */
export function flashesOf(html: string): string[] {
  const $ = cheerio.load(html);
  return $('.flashes[role="status"] p.flash').toArray().map((p) => $(p).text());
}

/** Decodes the few entities nunjucks writes. */
export function unescape(text: string): string {
  return text.replace(/&#39;/g, '\'').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
