import type { Express } from 'express';
import { Route } from '../../src/routing/Route';
import type { RouteCollection } from '../../src/routing/RouteCollection';
import { csrfToken } from '../../src/security/csrf';
import { Browser as FormBrowser } from '../helpers/formBrowser';

/** A test page on the `main` firewall (public) that prints the session's CSRF token as `{ csrf }`. */
export const TOKEN_PAGE = '/test/csrf-token';

/**
 * `extendRoutes` for `createDemoKernel`: adds {@link TOKEN_PAGE}. The demo's real login page
 * (`GET /admin/login`) belongs to the back office's screens; the session, and so the token, is
 * the same for both firewalls.
 */
export function withTokenPage(routes: RouteCollection): void {
  routes.add('test_csrf_token', new Route(TOKEN_PAGE, {
    methods: ['GET'], controller: (req, res) => { res.json({ csrf: csrfToken(req) }); },
  }));
}

/** A form-login browser that reads its CSRF token from {@link TOKEN_PAGE}. */
export class Browser extends FormBrowser {
  constructor(kernel: Express) {
    super(kernel, TOKEN_PAGE);
  }
}
