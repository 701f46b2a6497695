import type { Request, Response } from 'express';
import { ItemNotFoundError, type ItemId, type StoredItem } from '../api';
import { idFromPath } from '../api/internals';
import { AccessDeniedHttpError } from '../http/errors';
import { isGranted } from '../security/SecurityState';
import type { AdminAction, AdminActionContext } from './AdminAction';
import type { AdminApp } from './AdminApp';
import { unexpectedOutcome } from './AdminError';
import { itemLabel, type AdminResource } from './AdminResource';
import { isAuditFailure } from './AuditLog';
import { fieldChanges } from './formData';
import { backOf, listUrl } from './indexScreen';
import { deletion, formVersion, loadItem, logAuditFailure } from './itemScreens';

/**
 * The index's actions (EasyAdmin's batch actions and custom actions): batch delete and custom
 * actions on the selection, custom actions on one item, and the inline toggle of a boolean.
 * Each is a POST of a small form (no script) carrying `_token` and `_back` (the list's query
 * string); an action that asks first answers its POST with a confirmation page naming the items,
 * whose own POST (`_confirmed=1`) runs it. Every action ends with a 303 to the list, its
 * filters, sort and page kept, and a flash message.
 * @module
 */

/** Most items one batch action takes (the rows of a page are at most 100). */
const MAX_BATCH = 100;

/** The ids a form chose (`ids`, repeated): distinct, in order, at most {@link MAX_BATCH}. */
function chosenIds(admin: AdminResource, body: Readonly<Record<string, unknown>>): ItemId[] {
  const given = Array.isArray(body.ids) ? body.ids : body.ids === undefined ? [] : [body.ids];
  const ids = given.map((v) => (typeof v === 'string' ? idFromPath(admin.resource.identifier, v) : null))
    .filter((id): id is ItemId => id !== null);
  return [...new Set(ids)].slice(0, MAX_BATCH);
}

/** The chosen items that exist, in the order chosen: one query. */
async function loadItems(
  app: AdminApp, req: Request, admin: AdminResource, ids: readonly ItemId[],
): Promise<StoredItem[]> {
  if (ids.length === 0) return [];
  const { provider, metadata } = admin.resource;
  const page = await provider!.provideCollection(metadata, {
    conditions: [{ type: 'search', property: 'id', strategy: 'exact', values: [...ids] }],
    order: [], page: 1, itemsPerPage: ids.length, partial: true,
  }, app.stateContext(req));
  const byId = new Map(page.items.map((item) => [item.id, item]));
  return ids.map((id) => byId.get(id)).filter((item): item is StoredItem => item !== undefined);
}

/** What a confirmation page shows. */
interface Confirmation {
  readonly title: string;
  /** The action's own question, if any. */
  readonly text?: string;
  /** The line above the list of items. */
  readonly intro: string;
  readonly items: readonly StoredItem[];
  /** Where its form posts. */
  readonly action: string;
  readonly button: string;
  readonly danger: boolean;
  readonly back: string;
}

/** The page asking before an action: its text, the items named, a button and a way back. */
async function confirmPage(
  app: AdminApp, req: Request, res: Response, admin: AdminResource, c: Confirmation,
): Promise<void> {
  app.render(req, res, 200, 'confirm.html.njk', {
    admin,
    pageTitle: c.title,
    text: c.text,
    intro: c.intro,
    items: c.items.map((item) => itemLabel(admin, item)),
    ids: c.items.map((item) => item.id),
    action: c.action,
    button: c.button,
    danger: c.danger,
    back: c.back,
    cancel: await listUrl(app, req, admin, c.back),
  });
}

/** The form's `_back` field (the list's query string), or `''`. */
function backField(body: Readonly<Record<string, unknown>>): string {
  return typeof body._back === 'string' ? body._back : '';
}

/** @throws AccessDeniedHttpError 403 when the action has a role the user lacks */
function checkRole(req: Request, action: AdminAction): void {
  if (action.role !== undefined && !isGranted(req.security, action.role)) throw new AccessDeniedHttpError();
}

/**
 * Runs a custom action on items, its changes audited; returns its message (or the default).
 * @throws StorageUnavailableError when an audit entry cannot be written (see `isAuditFailure`)
 */
async function run(
  app: AdminApp, req: Request, admin: AdminResource, action: AdminAction, items: readonly StoredItem[],
): Promise<string> {
  const { metadata } = admin.resource;
  const context: AdminActionContext = {
    req,
    label: (item) => itemLabel(admin, item),
    update: async (item, changes) => {
      const data = { ...item.data, ...changes };
      const outcome = await app.change(req, admin,
        (processor) => processor.replace(metadata, item.id, data, item.version, app.stateContext(req)),
        (o) => (o.status === 'ok'
          ? { action: 'update', item: o.item, changes: fieldChanges(admin, item.data, o.item.data) } : undefined));
      if (outcome.status === 'ok') return outcome.item;
      if (outcome.status === 'conflict' || outcome.status === 'not_found') return null;
      throw unexpectedOutcome(admin.shortName, `action ${action.name}`, outcome.status);
    },
  };
  const message = await action.run(items, context);
  const { t } = app.translator(req);
  return typeof message === 'string' && message !== ''
    ? message : t('flash.action_done', { action: app.text(req, action.label), count: items.length });
}

/**
 * Runs a custom action, then back to the list with its message; an audit failure stops it
 * there (what it changed before is kept, each change with its entry) and says so.
 */
async function runAndReturn(
  app: AdminApp, req: Request, res: Response, admin: AdminResource, action: AdminAction,
  items: readonly StoredItem[], back: string,
): Promise<void> {
  let message: string;
  try {
    message = await run(app, req, admin, action, items);
  } catch (e) {
    if (!isAuditFailure(e)) throw e;
    logAuditFailure(req, e);
    message = app.translator(req).t('audit.failed');
  }
  app.seeOther(req, res, message, await listUrl(app, req, admin, back));
}

/**
 * `POST /admin/{slug}/batch-delete` (`ids`: the checked rows): first a confirmation page naming
 * the items; its POST (`_confirmed=1`) deletes each item it can; the flash message counts them
 * and names those kept (referenced, or already gone). 303 to the list.
 */
export function batchDeleteScreen(app: AdminApp, admin: AdminResource) {
  return async function adminBatchDelete(req: Request, res: Response): Promise<void> {
    const { t } = app.translator(req);
    const body = await app.checkedForm(req, res);
    const back = backField(body);
    const items = await loadItems(app, req, admin, chosenIds(admin, body));
    if (items.length === 0) return app.seeOther(req, res, t('flash.batch_none'), await listUrl(app, req, admin, back));
    if (body._confirmed !== '1') {
      return confirmPage(app, req, res, admin, {
        title: t('confirm.title', { action: t('index.batch_delete') }),
        intro: t('confirm.delete', { count: items.length }), items,
        action: app.url(req, admin.slug, 'batch-delete'), button: t('index.batch_delete'), danger: true, back,
      });
    }
    const { metadata } = admin.resource;
    const deleted: string[] = [];
    const kept: string[] = [];
    let stopped = false;
    for (const item of items) {
      let outcome;
      try {
        outcome = await app.change(req, admin,
          (processor) => processor.remove(metadata, item.id, item.version, app.stateContext(req)),
          (o) => (o.status === 'ok' ? deletion(admin, item) : undefined));
      } catch (e) {
        if (!isAuditFailure(e)) throw e;
        logAuditFailure(req, e);
        stopped = true; // this item and the next ones are kept
        break;
      }
      if (outcome.status === 'ok') deleted.push(itemLabel(admin, item));
      else kept.push(itemLabel(admin, item));
    }
    const message = (deleted.length === 0 ? t('flash.batch_deleted_none')
      : t('flash.batch_deleted', { count: deleted.length, items: deleted.join(', ') }))
      + (kept.length > 0 ? ` ${t('flash.batch_kept', { items: kept.join(', ') })}` : '')
      + (stopped ? ` ${t('flash.batch_audit_failed')}` : '');
    app.seeOther(req, res, message, await listUrl(app, req, admin, back));
  };
}

/** The action a route's `{action}` names (the route's requirement lists them). @throws ItemNotFoundError 404 */
function actionOf(admin: AdminResource, req: Request, scope: 'item' | 'batch'): AdminAction {
  const name = String(req.params.action ?? '');
  const action = admin.actions.find((a) => a.name === name && a.scope !== (scope === 'item' ? 'batch' : 'item'));
  if (action === undefined) throw new ItemNotFoundError(admin.shortName, name);
  return action;
}

/**
 * `POST /admin/{slug}/batch/{action}` (`ids`: the checked rows): a custom action on the
 * selection; an action with a `confirmation` first shows it with the items named.
 * @throws AccessDeniedHttpError 403 without the action's role
 */
export function batchActionScreen(app: AdminApp, admin: AdminResource) {
  return async function adminBatchAction(req: Request, res: Response): Promise<void> {
    const action = actionOf(admin, req, 'batch');
    checkRole(req, action);
    const { t } = app.translator(req);
    const body = await app.checkedForm(req, res);
    const back = backField(body);
    const items = await loadItems(app, req, admin, chosenIds(admin, body));
    if (items.length === 0) return app.seeOther(req, res, t('flash.batch_none'), await listUrl(app, req, admin, back));
    const label = app.text(req, action.label);
    if (action.confirmation !== undefined && body._confirmed !== '1') {
      return confirmPage(app, req, res, admin, {
        title: t('confirm.title', { action: label }), text: app.text(req, action.confirmation),
        intro: t('confirm.items', { count: items.length }), items,
        action: app.url(req, admin.slug, 'batch', action.name), button: label, danger: false, back,
      });
    }
    return runAndReturn(app, req, res, admin, action, items, back);
  };
}

/**
 * `GET|POST /admin/{slug}/{id}/action/{action}`: a custom action on one item. The GET is its
 * confirmation page; a POST runs it (one with a `confirmation` needs `_confirmed=1`, else it
 * shows the page).
 * @throws ItemNotFoundError 404 for an item that is not there
 * @throws AccessDeniedHttpError 403 without the action's role
 */
export function itemActionScreen(app: AdminApp, admin: AdminResource) {
  return async function adminItemAction(req: Request, res: Response): Promise<void> {
    const action = actionOf(admin, req, 'item');
    checkRole(req, action);
    const { t } = app.translator(req);
    const item = await loadItem(app, req, admin);
    const body = req.method === 'POST' ? await app.checkedForm(req, res) : undefined;
    const back = body === undefined ? backOf(req) : backField(body);
    const label = app.text(req, action.label);
    if (body === undefined || (action.confirmation !== undefined && body._confirmed !== '1')) {
      return confirmPage(app, req, res, admin, {
        title: t('confirm.title', { action: label }),
        ...(action.confirmation !== undefined ? { text: app.text(req, action.confirmation) } : {}),
        intro: t('confirm.items', { count: 1 }), items: [item],
        action: app.url(req, admin.slug, item.id, 'action', action.name), button: label, danger: false, back,
      });
    }
    return runAndReturn(app, req, res, admin, action, [item], back);
  };
}

/**
 * `POST /admin/{slug}/{id}/toggle/{field}` (`_version`: the version the list showed): sets a
 * boolean to the opposite of what the list showed, audited as an update; a change made since
 * changes nothing and says so. 303 to the list.
 * @throws ItemNotFoundError 404 for an item that is not there, or a field that is no switch
 */
export function toggleScreen(app: AdminApp, admin: AdminResource) {
  return async function adminToggle(req: Request, res: Response): Promise<void> {
    const { t } = app.translator(req);
    const name = String(req.params.field ?? '');
    const field = admin.fields.find((f) => f.name === name && f.renderAsSwitch && !f.readOnly);
    if (field === undefined) throw new ItemNotFoundError(admin.shortName, name);
    const item = await loadItem(app, req, admin);
    const body = await app.checkedForm(req, res);
    const back = await listUrl(app, req, admin, backField(body));
    const label = itemLabel(admin, item);
    const version = formVersion(body);
    const value = item.data[name] !== true;
    const { metadata } = admin.resource;
    let outcome;
    try {
      outcome = version !== item.version ? { status: 'conflict' as const } : await app.change(req, admin,
        (processor) => processor.replace(metadata, item.id, { ...item.data, [name]: value }, version,
          app.stateContext(req)),
        (o) => (o.status === 'ok'
          ? { action: 'update', item: o.item, changes: fieldChanges(admin, item.data, o.item.data) } : undefined));
    } catch (e) {
      if (!isAuditFailure(e)) throw e;
      logAuditFailure(req, e);
      return app.seeOther(req, res, t('audit.failed'), back);
    }
    if (outcome.status === 'conflict') return app.seeOther(req, res, t('flash.toggle_conflict', { item: label }), back);
    if (outcome.status === 'not_found') throw new ItemNotFoundError(admin.shortName, String(item.id));
    if (outcome.status !== 'ok') throw unexpectedOutcome(admin.shortName, 'toggle', outcome.status);
    app.seeOther(req, res, t('flash.toggled', {
      item: label, field: app.text(req, field.label), value: value ? t('value.yes') : t('value.no'),
    }), back);
  };
}
