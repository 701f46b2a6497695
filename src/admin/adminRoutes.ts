import { KernelConfigError } from '../config/KernelConfigError';
import { invalidOption, unknownOptionMessage } from '../config/optionError';
import { parseOptions } from '../config/parseOptions';
import { Route, type RouteOptions } from '../routing/Route';
import { RouteCollection } from '../routing/RouteCollection';
import type { SecuredRouteOptions } from '../security/RouteSecurity';
import { AdminApp } from './AdminApp';
import {
  adminOptionsSchema, RELATION_SELECT_LIMIT, type AdminOptions, type ResolvedAdminOptions,
} from './AdminOptions';
import { checkCrud } from './CrudOptions';
import { batchActionScreen, batchDeleteScreen, itemActionScreen, toggleScreen } from './actionScreens';
import { deleteScreen, detailScreen, editScreen, loadItem, newScreen } from './itemScreens';
import { pickerScreen } from './relationPicker';
import { completeFilters } from '../api/internals';
import { indexScreen } from './indexScreen';
import { inAdminLayout } from './errorPage';
import { auditScreen } from './history';
import { csvExport } from './csvExport';
import { dashboardPage, loginPage, logoutRoute, stylesheetRoute } from './pages';
import { languageRoute } from './languageSwitcher';

function resolve(given: AdminOptions): ResolvedAdminOptions {
  const o = parseOptions(adminOptionsSchema, given, 'admin');
  const names = new Set<string>();
  for (const [i, r] of o.resources.entries()) {
    if (names.has(r.shortName)) {
      throw invalidOption(`admin.resources[${i}]`, 'expected one resource per short name', r.shortName);
    }
    names.add(r.shortName);
    if (r.provider === undefined) {
      const what = 'expected a resource whose provider is a store (MemoryState, the SQL store): '
        + 'the back office reads it';
      throw invalidOption(`admin.resources[${i}].provider`, what, undefined, { got: 'no store' });
    }
  }
  for (const r of o.resources) {
    for (const p of r.metadata.properties) {
      if (p.relation !== undefined && !names.has(p.relation)) {
        const what = `relation() names a resource the back office does not list (listed: ${[...names].join(', ')})`;
        throw invalidOption(`admin.resources.${r.shortName}.schema.${p.name}`, what, p.relation);
      }
    }
  }
  const crud = o.crud ?? {};
  for (const [shortName, config] of Object.entries(crud)) {
    const resource = o.resources.find((r) => r.shortName === shortName);
    if (resource === undefined) {
      const message = unknownOptionMessage(shortName, [...names]).replace('unknown option', 'not a listed resource');
      throw new KernelConfigError(`admin.crud.${shortName}`, message);
    }
    checkCrud(resource, config, `admin.crud.${shortName}`,
      (target) => o.resources.find((r) => r.shortName === target)?.metadata);
  }
  const first = o.resources[0];
  const auditStore = o.auditStore ?? (first.processor !== undefined
    ? { provider: first.provider!, processor: first.processor } : undefined);
  if (auditStore === undefined) {
    throw new KernelConfigError('admin.auditStore', 'the first resource has no processor to keep the audit log; '
      + 'give auditStore: { provider, processor }.');
  }
  return Object.freeze({
    // filters on dotted paths (`writer.fullName`) resolved against the listed resources, as apiRoutes does
    resources: completeFilters(o.resources),
    crud,
    prefix: o.prefix ?? '/admin',
    stylesheetPath: o.stylesheetPath ?? '/bundles/admin/admin.css',
    itemsPerPage: o.itemsPerPage ?? 20,
    latestChanges: o.latestChanges ?? 10,
    relationSelectLimit: o.relationSelectLimit ?? RELATION_SELECT_LIMIT,
    auditStore,
    ...(o.stateContext !== undefined ? { stateContext: o.stateContext } : {}),
    role: o.role ?? 'ROLE_ADMIN',
    ...(o.title !== undefined ? { title: o.title } : {}),
  });
}

/**
 * The back office's routes (what EasyAdmin is to Symfony): screens for each listed resource,
 * generated from its `defineResource` declaration, to add to the kernel's routing table. Route
 * names and paths (`<prefix>` is `/admin` by default, `<slug>` the plural in kebab case:
 * `books`, and `<s>` in snake case):
 * - `admin_dashboard` GET `<prefix>`; `admin_audit` GET `<prefix>/audit` (the audit log, filtered
 *   by `?user=`, `?resource=`, `?item=`, `?action=`, `?from=`, `?to=`, paginated); `admin_login`
 *   GET `<prefix>/login` (the form; the firewall's form login answers the POST); `admin_logout`
 *   POST `<prefix>/logout` (answered by the firewall's logout, declared so its URL exists);
 *   `admin_locale` POST `<prefix>/locale` (the language switcher: the session keeps the chosen
 *   locale, which the locale layer reads before `Accept-Language`); `admin_stylesheet` GET `/bundles/admin/admin.css`;
 * - per resource: `admin_<s>_index` GET `<prefix>/<slug>`, `admin_<s>_export` GET
 *   `<prefix>/<slug>/export.csv` (the index's items, filtered and sorted as its query string
 *   says, as a streamed CSV), `admin_<s>_new` GET|POST
 *   `<prefix>/<slug>/new`, `admin_<s>_batch_delete` POST `<prefix>/<slug>/batch-delete`,
 *   `admin_<s>_detail` GET `<prefix>/<slug>/{id}`, `admin_<s>_edit` GET|POST
 *   `<prefix>/<slug>/{id}/edit`, `admin_<s>_delete` GET|POST `<prefix>/<slug>/{id}/delete`
 *   (`id: \d+`); a resource without a processor gets only index and detail;
 * - per relation on a resource's form: `admin_<s>_new_pick` POST `<prefix>/<slug>/new/pick/{field}`
 *   and `admin_<s>_edit_pick` POST `<prefix>/<slug>/{id}/edit/pick/{field}` (the relation
 *   picker: the form's values in, a search of the target's items, back to the form with the
 *   choice; the form's "Choose…" button posts there when the target has more than
 *   `relationSelectLimit` items);
 * - when configured (`crud`): `admin_<s>_batch_action` POST `<prefix>/<slug>/batch/{action}`
 *   (custom batch actions), `admin_<s>_toggle` POST `<prefix>/<slug>/{id}/toggle/{field}` (the
 *   index's switches of booleans, for a writable resource), `admin_<s>_action` GET|POST
 *   `<prefix>/<slug>/{id}/action/{action}` (custom item actions).
 *
 * Every screen but the login page and the stylesheet requires `role` (a route `security`
 * option, on top of the firewall's `accessControl`). Forms post
 * `application/x-www-form-urlencoded` with a `_token` CSRF field (`csrfToken`); pages are
 * nunjucks templates under `templates/admin/`, in English or French after `req.locale`; the
 * session (flash messages, CSRF tokens) is required.
 * @returns a new collection
 * @throws KernelConfigError for an unknown option, two resources with one short name, a
 *   relation to a resource not listed, or a `crud` entry that does not fit its resource (a
 *   name that is not a listed resource or a property, with "did you mean"; see `checkCrud`)
 */
export function adminRoutes(given: AdminOptions): RouteCollection {
  const options = resolve(given);
  const app = new AdminApp(options);
  const role = options.role;
  // a signed-in user without the role reaches the screen's wrapper, which answers its 403 inside the layout
  const secured: SecuredRouteOptions = { security: ({ isGranted, user }) => isGranted(role) || user !== null };
  const routes = new RouteCollection();
  const add = (name: string, path: string, methods: string[], controller: RouteOptions['controller'],
    extra: Partial<RouteOptions> = {}, security = true): void => {
    routes.add(name, new Route(path, {
      methods, controller: security ? inAdminLayout(app, role, controller!) : controller, ...extra,
      ...(security ? { options: { ...secured } as unknown as Record<string, unknown> } : {}),
    }));
  };
  const p = options.prefix;
  add('admin_dashboard', p, ['GET'], dashboardPage(app));
  add('admin_audit', `${p}/audit`, ['GET'], auditScreen(app));
  add('admin_login', `${p}/login`, ['GET'], loginPage(app), {}, false);
  add('admin_logout', `${p}/logout`, ['POST'], logoutRoute(`${p}/logout`), {}, false);
  add('admin_locale', `${p}/locale`, ['POST'], languageRoute(app), {}, false);
  add('admin_stylesheet', options.stylesheetPath, ['GET'], stylesheetRoute(), {}, false);
  for (const admin of app.admins.values()) {
    const base = `${p}/${admin.slug}`;
    const name = (action: string): string => `admin_${admin.routeSlug}_${action}`;
    const idRequirement = admin.resource.operations.find((op) => op.item && op.path.endsWith('/{id}'))
      ?.requirements.id ?? (admin.resource.identifier.type === 'integer' ? '\\d+' : '[^/]+');
    const id = { requirements: { id: idRequirement } };
    add(name('index'), base, ['GET'], indexScreen(app, admin));
    add(name('export'), `${base}/export.csv`, ['GET'], csvExport(app, admin));
    // the relation picker of each relation on the form (routed for any count: the form links it when needed)
    const picked = admin.formFields.filter((f) => f.relation !== undefined && !f.readOnly).map((f) => f.name);
    const field = picked.join('|');
    if (admin.writable) {
      add(name('new'), `${base}/new`, ['GET', 'POST'], newScreen(app, admin));
      if (picked.length > 0) {
        add(name('new_pick'), `${base}/new/pick/{field}`, ['POST'], pickerScreen(app, admin, 'new', loadItem),
          { requirements: { field } });
      }
      add(name('batch_delete'), `${base}/batch-delete`, ['POST'], batchDeleteScreen(app, admin));
    }
    const batch = admin.actions.filter((a) => a.scope !== 'item').map((a) => a.name);
    if (batch.length > 0) {
      add(name('batch_action'), `${base}/batch/{action}`, ['POST'], batchActionScreen(app, admin),
        { requirements: { action: batch.join('|') } });
    }
    add(name('detail'), `${base}/{id}`, ['GET'], detailScreen(app, admin), id);
    if (admin.writable) {
      add(name('edit'), `${base}/{id}/edit`, ['GET', 'POST'], editScreen(app, admin), id);
      if (picked.length > 0) {
        add(name('edit_pick'), `${base}/{id}/edit/pick/{field}`, ['POST'], pickerScreen(app, admin, 'edit', loadItem),
          { requirements: { id: idRequirement, field } });
      }
      add(name('delete'), `${base}/{id}/delete`, ['GET', 'POST'], deleteScreen(app, admin), id);
      const switches = admin.fields.filter((f) => f.renderAsSwitch && !f.readOnly).map((f) => f.name);
      if (switches.length > 0) {
        add(name('toggle'), `${base}/{id}/toggle/{field}`, ['POST'], toggleScreen(app, admin),
          { requirements: { id: idRequirement, field: switches.join('|') } });
      }
    }
    const single = admin.actions.filter((a) => a.scope !== 'batch').map((a) => a.name);
    if (single.length > 0) {
      add(name('action'), `${base}/{id}/action/{action}`, ['GET', 'POST'], itemActionScreen(app, admin),
        { requirements: { id: idRequirement, action: single.join('|') } });
    }
  }
  return routes;
}
