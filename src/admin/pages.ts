import fs from 'node:fs';
import path from 'node:path';
import type { Request, Response } from 'express';
import { TEMPLATES_DIR } from '../http/templates';
import {
  lastAuthenticationFailure, lastUsername, type AuthenticationFailureRecord,
} from '../security/AuthenticationUtils';
import { csrfToken } from '../security/csrf';
import { loginCsrfToken } from '../security/loginCsrf';
import { isLocalPath } from '../security/localPath';
import type { AdminApp } from './AdminApp';
import { logoutNotConfigured } from './AdminError';
import { historyRows } from './history';
import type { Translator } from './translations';

/**
 * The back office's pages besides the resources': the dashboard, the login page and the
 * stylesheet.
 * @module
 */

/**
 * `GET /admin`: each resource with its count and a link, and the latest changes of the audit log
 * (old → new values, deleted items by their last label and without a link), with a link to the log.
 */
export function dashboardPage(app: AdminApp) {
  return async function adminDashboard(req: Request, res: Response): Promise<void> {
    const { t } = app.translator(req);
    const resources = [];
    for (const admin of app.admins.values()) {
      const page = await admin.resource.provider!.provideCollection(admin.resource.metadata, {
        conditions: [], order: [], page: 1, itemsPerPage: 1, partial: false,
      }, app.stateContext(req));
      const label = app.text(req, admin.plural);
      resources.push({ label, count: page.totalItems ?? 0, url: app.url(req, admin.slug) });
    }
    const latest = await app.audit.latest(app.options.latestChanges, app.stateContext(req));
    const entries = await historyRows(app, req, latest, t);
    app.render(req, res, 200, 'dashboard.html.njk', {
      pageTitle: t('dashboard.title'), resources, entries, auditUrl: app.url(req, 'audit'),
    });
  };
}

/**
 * The login error in the page's language, by its `ERR_FIREWALL_*` code (the firewall keeps
 * Symfony's English messages; their text is never matched).
 * @param failure - the session's last failure (`lastAuthenticationFailure`), or null
 * @param t - the page's translator
 * @returns the message to show, or null for none
 */
export function loginError(failure: AuthenticationFailureRecord | null, t: Translator): string | null {
  if (failure === null) return null;
  switch (failure.code) {
    case 'ERR_FIREWALL_BAD_CREDENTIALS': return t('login.invalid_credentials');
    case 'ERR_FIREWALL_TOO_MANY_LOGIN_ATTEMPTS':
      return t('login.throttled', { minutes: Math.max(1, Math.ceil((failure.retryAfterSeconds ?? 60) / 60)) });
    default: return failure.message;
  }
}

/**
 * `GET /admin/login` (Symfony's login form template): `_username` (the last one tried),
 * `_password`, `_csrf_token`, `_target_path` (from `?_target_path=`, `isLocalPath` only) and the
 * last error, translated. The firewall's form login answers the POST. The page starts no session
 * (its CSRF token is `loginCsrfToken`'s double-submit cookie): a flood of views stores nothing.
 */
export function loginPage(app: AdminApp) {
  return function adminLogin(req: Request, res: Response): void {
    const { t } = app.translator(req);
    app.render(req, res, 200, 'login.html.njk', {
      pageTitle: t('login.title'),
      action: app.url(req, 'login'),
      error: loginError(lastAuthenticationFailure(req), t),
      username: lastUsername(req),
      csrf: loginCsrfToken(req, res),
      // the logout form's, shown to a user only: an anonymous view starts no session
      token: req.user === undefined ? '' : csrfToken(req),
      targetPath: isLocalPath(req.query._target_path) ? req.query._target_path : '',
    });
  };
}

/**
 * `POST /admin/logout`: answered by the firewall's logout; reaching the controller is a set-up mistake.
 * @param path - the logout path, for the message. @default '/admin/logout'
 * @throws AdminError `ERR_ADMIN_LOGOUT_NOT_CONFIGURED` (a 500) whenever the controller runs
 */
export function logoutRoute(path = '/admin/logout') {
  return function adminLogout(): never {
    throw logoutNotConfigured(path);
  };
}

/** The stylesheet (`templates/admin/admin.css`), read once, cached by browsers for an hour. */
export function stylesheetRoute() {
  const css = fs.readFileSync(path.join(TEMPLATES_DIR, 'admin', 'admin.css'), 'utf8');
  return function adminStylesheet(_req: Request, res: Response): void {
    res.type('text/css; charset=utf-8').set('Cache-Control', 'public, max-age=3600').send(css);
  };
}
