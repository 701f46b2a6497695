import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKernel, Kernel } from '../../src/kernel/createKernel';
import { Route } from '../../src/routing/Route';
import { RouteCollection } from '../../src/routing/RouteCollection';
import { lastAuthenticationError, lastUsername } from '../../src/security/AuthenticationUtils';
import { csrfToken } from '../../src/security/csrf';
import { FormLoginAuthenticator } from '../../src/security/FormLoginAuthenticator';
import { HttpBasicAuthenticator } from '../../src/security/HttpBasicAuthenticator';
import { SqliteThrottleStore } from '../../src/security/SqliteThrottleStore';
import { existingSession } from '../../src/session/previousSession';
import { openSqlite, SqliteDatabase } from '../../src/storage/sqlite';
import { HIERARCHY, testUsers } from './support';

/**
 * The back office's security as the demo wires it, on real SQLite files (sessions, throttling):
 * firewall `admin` on ^/admin (form login, logout), then `main` (HTTP Basic), one provider, one
 * throttling store. Test routes: the login page prints what the form would show (as JSON), and
 * `/probe` (public, on `main`) prints the session's keys.
 */
export interface FormLoginKernel {
  readonly kernel: Kernel;
  readonly throttleDb: SqliteDatabase;
  close(): Promise<void>;
}

function routes(): RouteCollection {
  const r = new RouteCollection();
  const text = (at: string, body: string) => new Route(at, {
    methods: ['GET'], controller: (_req, res) => { res.type('text/plain').send(body); },
  });
  r.add('admin_login', new Route('/admin/login', {
    methods: ['GET'],
    controller: (req, res) => {
      const error = lastAuthenticationError(req);
      res.json({ error, lastUsername: lastUsername(req), csrf: csrfToken(req), user: req.user?.identifier ?? null });
    },
  }));
  r.add('admin_logout', new Route('/admin/logout', { methods: ['POST'], controller: (_req, res) => { res.send('never'); } }));
  r.add('admin_dashboard', text('/admin', 'admin dashboard'));
  r.add('admin_books', text('/admin/books', 'books'));
  r.add('probe', new Route('/probe', {
    methods: ['GET'],
    controller: (req, res) => {
      const session = existingSession(req) as Record<string, unknown> | undefined;
      res.json(session === undefined ? null : Object.fromEntries(Object.entries(session).filter(([k]) => k !== 'cookie')));
    },
  }));
  r.add('me', new Route('/api/me', { methods: ['GET'], controller: (req, res) => { res.json({ user: req.user?.identifier ?? null }); } }));
  return r;
}

/** Builds the kernel on fresh SQLite files under the OS temp directory. */
export function formLoginKernel(maxAttempts = 5): FormLoginKernel {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'form-login-'));
  const throttleDb = openSqlite(path.join(dir, 'throttle.sqlite'));
  const provider = testUsers();
  const kernel = createKernel({
    routes: routes(),
    debug: true,
    secret: 'a-test-secret-of-at-least-32-characters!',
    session: { store: 'sqlite', sqlitePath: path.join(dir, 'sessions.sqlite') },
    security: {
      firewalls: [
        {
          name: 'admin',
          pattern: '^/admin',
          provider,
          authenticators: [new FormLoginAuthenticator({ loginPath: '/admin/login', defaultTargetPath: '/admin' })],
          logout: { path: '/admin/logout', target: '/admin/login', csrfParameter: '_token' },
        },
        { name: 'main', pattern: '^/', provider, authenticators: [new HttpBasicAuthenticator()] },
      ],
      accessControl: [
        { path: '^/admin/login$', roles: ['PUBLIC_ACCESS'] },
        { path: '^/admin', roles: ['ROLE_ADMIN'] },
      ],
      roleHierarchy: HIERARCHY,
      throttling: { maxAttempts, store: new SqliteThrottleStore(throttleDb) },
    },
  });
  return {
    kernel,
    throttleDb,
    close: async () => {
      await kernel.close();
      throttleDb.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { Browser, sessionCookie } from '../helpers/formBrowser';
export type { LoginPage } from '../helpers/formBrowser';
