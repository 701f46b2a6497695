/**
 * A back office of the tests' own (not the demo's): `Writer` and `Novel` (a novel's writer is a
 * relation), with a write-only `passphrase`, in a kernel of its own with a form login for two
 * administrators (`alice`, `bob`), on a MemoryState, a SQLite file or a PostgreSQL database; and
 * the readers of its pages with a real HTML parser (cheerio, parse5 underneath). Not a test file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as cheerio from 'cheerio';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { z } from 'zod';
import { adminRoutes, auditLogMigration, type AdminOptions } from '../../src/admin';
import {
  defineResource, MemoryState, RangeFilter, readOnly, relation, SearchFilter, text, writeOnly, type FilterDeclaration,
  type Resource,
  type StateProcessor, type StateProvider,
} from '../../src/api';
import { createSqlState, resourceTablesMigration, type SqlStore } from '../../src/api/sql';
import { createKernel, type Kernel } from '../../src/kernel/createKernel';
import type { RouteCollection } from '../../src/routing/RouteCollection';
import { FormLoginAuthenticator } from '../../src/security/FormLoginAuthenticator';
import { InMemoryUserProvider } from '../../src/security/InMemoryUserProvider';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { has } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';

/** The store of one back office, and how to close it. */
export interface OwnStore {
  readonly provider: StateProvider;
  readonly processor: StateProcessor;
  /** The SQL store, when it is one. */
  readonly sql?: SqlStore;
  close(): Promise<void>;
}

/** A MemoryState. */
export async function memoryStore(): Promise<OwnStore> {
  const state = new MemoryState();
  return { provider: state, processor: state, close: async () => undefined };
}

/** A SQL store (an SQLite file in a temporary folder, or the given PostgreSQL URL), migrated. */
export async function sqlStore(postgresUrl?: string): Promise<OwnStore> {
  const dir = postgresUrl === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'ek-own-admin-')) : undefined;
  const store = createSqlState(postgresUrl !== undefined ? { url: postgresUrl } : {
    sqlitePath: path.join(dir!, 'own.sqlite'),
  });
  const { writer, novel } = resources(store.provider, store.processor);
  await store.migrate({
    '0001-tables': resourceTablesMigration([writer.metadata, novel.metadata]),
    '0002-audit-log': auditLogMigration(),
  });
  return {
    provider: store.provider, processor: store.processor, sql: store,
    close: async () => {
      await store.close();
      if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The stores a suite runs on: MemoryState, SQLite and, when installed, PostgreSQL (a server
 * started for the file by hooks this registers; a new database per store). Call at the top of a
 * test file.
 * @param prefix - the databases' names, e.g. `own_admin`
 */
export function ownStores(prefix: string): ReadonlyArray<[string, () => Promise<OwnStore>]> {
  let postgres: TestPostgres | undefined;
  beforeAll(async () => {
    if (has('postgresql')) postgres = await startPostgres();
  }, scaled(60_000));
  afterAll(() => postgres?.stop());
  let databases = 0;
  return [
    ['MemoryState', memoryStore],
    ['SQLite', () => sqlStore()],
    ...(has('postgresql') ? [['PostgreSQL', async () => {
      const url = await postgres!.createDatabase(`${prefix}_${++databases}`);
      return sqlStore(url);
    }] as [string, () => Promise<OwnStore>]] : []),
  ];
}

/**
 * The tests' resources on a store.
 * @param novelFilters - the Novel's filters @default a writer (exact) and a page count range
 */
export function resources(
  provider: StateProvider, processor: StateProcessor, novelFilters?: readonly FilterDeclaration[],
): { writer: Resource; novel: Resource } {
  const writer = defineResource({
    shortName: 'Writer',
    schema: z.object({
      id: readOnly(z.int()),
      fullName: z.string().min(1),
      bornOn: z.iso.date().nullable().optional(),
      passphrase: writeOnly(z.string()).nullable().optional(),
    }),
    provider, processor,
  });
  const novel = defineResource({
    shortName: 'Novel',
    schema: z.object({
      id: readOnly(z.int()),
      title: z.string().min(1),
      pageCount: z.int().min(1).nullable().optional(),
      blurb: text(z.string()).nullable().optional(),
      writer: relation('Writer').nullable().optional(),
    }),
    filters: novelFilters ?? [SearchFilter({ writer: 'exact' }), RangeFilter(['pageCount'])],
    provider, processor,
  });
  return { writer, novel };
}

/** A kernel with the back office of {@link resources} on `store`, `alice` and `bob` its administrators. */
export function ownKernel(store: OwnStore, options: {
  itemsPerPage?: number; crud?: AdminOptions['crud']; relationSelectLimit?: number;
  novelFilters?: readonly FilterDeclaration[];
} = {}): {
  kernel: Kernel; writer: Resource; novel: Resource;
} {
  const { writer, novel } = resources(store.provider, store.processor, options.novelFilters);
  const kernel = adminKernel(adminRoutes({
    resources: [writer, novel], itemsPerPage: options.itemsPerPage ?? 20,
    ...(options.crud !== undefined ? { crud: options.crud } : {}),
    ...(options.relationSelectLimit !== undefined ? { relationSelectLimit: options.relationSelectLimit } : {}),
  }));
  return { kernel, writer, novel };
}

/**
 * A kernel serving `routes` (an `adminRoutes` collection on `/admin`) behind a form login, in
 * English or French after `Accept-Language`. Its users (password: their name): `alice` and `bob`
 * (`ROLE_ADMIN`), `carol` (`ROLE_ADMIN` and `ROLE_PUBLISHER`), `dave` (`ROLE_USER` only).
 */
export function adminKernel(routes: RouteCollection): Kernel {
  const users = new InMemoryUserProvider({
    users: {
      alice: { password: 'alice', roles: ['ROLE_ADMIN'] },
      bob: { password: 'bob', roles: ['ROLE_ADMIN'] },
      carol: { password: 'carol', roles: ['ROLE_ADMIN', 'ROLE_PUBLISHER'] },
      dave: { password: 'dave', roles: ['ROLE_USER'] },
    },
  });
  return createKernel({
    routes,
    debug: false, environment: 'test', secret: 'a test secret of at least thirty-two characters',
    session: { store: 'memory' },
    locale: { defaultLocale: 'en', enabledLocales: ['en', 'fr'] },
    security: {
      firewalls: [{
        name: 'admin', pattern: '^/admin', provider: users,
        authenticators: [new FormLoginAuthenticator({ loginPath: '/admin/login', defaultTargetPath: '/admin' })],
        logout: { path: '/admin/logout', target: '/admin/login', csrfParameter: '_token' },
      }],
      accessControl: [{ path: '^/admin/login$', roles: ['PUBLIC_ACCESS'] }, { path: '^/admin', roles: ['ROLE_USER'] }],
      roleHierarchy: { ROLE_ADMIN: ['ROLE_USER'] },
    },
  });
}

/** A client signed in through the login form as `user` (its password is its name). */
export async function signedIn(kernel: Kernel, user: string): Promise<TestAgent> {
  const agent = request.agent(kernel);
  const page = await agent.get('/admin/login').expect(200);
  const csrf = cheerio.load(page.text)('input[name="_csrf_token"]').val();
  await agent.post('/admin/login').type('form').send({ _username: user, _password: user, _csrf_token: csrf })
    .expect(302);
  return agent;
}

/** A page, parsed. */
export function parse(html: string): cheerio.CheerioAPI {
  return cheerio.load(html);
}

/** The forms' `_token` of a page. */
export function formToken(html: string): string {
  const token = parse(html)('input[name="_token"]').first().val();
  if (typeof token !== 'string') throw new Error('no _token field on the page');
  return token;
}

/** The text of a node, whitespace collapsed. */
export function textOf(node: cheerio.Cheerio<never> | cheerio.Cheerio<import('domhandler').AnyNode>): string {
  return node.text().replace(/\s+/g, ' ').trim();
}

/** A table's body rows as the text of their cells, under `selector` (e.g. `table.history`). */
export function tableRows($: cheerio.CheerioAPI, selector: string): string[][] {
  return $(`${selector} tbody tr`).toArray().map((tr) => $(tr).find('td').toArray().map((td) => textOf($(td))));
}

/** The flash messages of a page. */
export function flashes($: cheerio.CheerioAPI): string[] {
  return $('.flashes .flash').toArray().map((p) => textOf($(p)));
}
