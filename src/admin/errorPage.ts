import type { NextFunction, Request, Response } from 'express';
import { AccessDeniedHttpError, isHttpError } from '../http/errors';
import { isGranted } from '../security/SecurityState';
import type { Controller } from '../routing/Route';
import type { AdminApp } from './AdminApp';
import type { MessageKey } from './translations';

/** The statuses answered with an error page inside the back office's layout. */
const IN_LAYOUT = new Set([400, 403, 404, 409]);

/**
 * Wraps a screen's controller so that a 400, 403, 404 or 409 it throws is rendered inside the
 * admin's layout (header, navigation, logout form), its status and message kept, for a signed-in
 * user whose client prefers HTML; anything else is passed on to the error layer unchanged. The
 * role check is here (the route's `security` lets any signed-in user reach it), so a signed-in
 * user without `role` gets the 403 `Access Denied.` inside the layout too.
 * @param app - the back office
 * @param role - the role the screens require
 * @param controller - the screen's controller
 * @returns the wrapped controller
 * @throws AccessDeniedHttpError 403 for a user without `role` whose client does not prefer HTML
 */
export function inAdminLayout(app: AdminApp, role: string, controller: Controller): Controller {
  return async function adminScreen(req: Request, res: Response, next: NextFunction): Promise<void> {
    try {
      if (!isGranted(req.security, role)) throw new AccessDeniedHttpError();
      await controller(req, res, next);
    } catch (e) {
      if (!isHttpError(e) || !IN_LAYOUT.has(e.status) || req.user === undefined || res.headersSent
        || req.accepts(['html', 'json']) !== 'html') throw e;
      const { t, lang } = app.translator(req);
      // the kernel's and the API's messages are English: another language says what the status
      // means in its own words, and keeps the English message as a technical detail
      const translated = lang !== 'en';
      app.render(req, res, e.status, 'error.html.njk', {
        pageTitle: t('error.title', { status: e.status }),
        message: translated ? t(`error.${e.status}` as MessageKey) : e.message,
        detail: translated ? e.message : null,
      });
    }
  };
}
