import type { Request, Response } from 'express';
import { InvalidQueryError, type ItemId, type StoredItem } from '../api';
import { idFromPath } from '../api/internals';
import { parseQueryString } from '../api/internals';

/** The longest id the audit page's `item` parameter takes (a `string` identifier's longest). */
const MAX_STRING_ID_LENGTH = 255;
import { lastPage } from './lastPage';
import type { AdminApp, Choice } from './AdminApp';
import { itemLabel, type AdminResource } from './AdminResource';
import type { AuditAction, AuditCriteria, StoredAuditEntry } from './AuditLog';
import { displayValue, intlLocale } from './display';
import type { Translator } from './translations';

/**
 * The history of changes made through the back office (the audit log's pages, EasyAdmin leaves
 * them to a bundle): the rows the dashboard, an item's detail page and the audit log page show,
 * and the audit log page (`GET <prefix>/audit`) with its filters and pages.
 * @module
 */

/** One field of a history row: its label and the values before and after, as pages show them. */
export interface HistoryChange {
  readonly label: string;
  /** Absent on create, and when the value is not kept (a write-only property, an old entry). */
  readonly from?: string;
  /** Absent on delete, and when the value is not kept. */
  readonly to?: string;
}

/** One entry of the audit log as a page shows it. */
export interface HistoryRow {
  readonly occurredAt: string;
  /** `2026-11-27 20:15:03` (UTC). */
  readonly when: string;
  readonly user: string | null;
  readonly actionLabel: string;
  /** The item's current label, or its last one once deleted. */
  readonly item: string;
  /** The item's detail page; absent once the item is deleted (no dead link). */
  readonly url?: string;
  readonly changes: readonly HistoryChange[];
}

/** The ids of `ids` that still exist in `admin`'s store, with their current items (one query). */
async function existing(
  app: AdminApp, req: Request, admin: AdminResource, given: ReadonlySet<ItemId>,
): Promise<Map<ItemId, StoredItem>> {
  // as the resource's identifier type has them (the log keeps them as text)
  const ids = [...given].map((id) => idFromPath(admin.resource.identifier, String(id)))
    .filter((id): id is ItemId => id !== null);
  if (ids.length === 0) return new Map();
  const { provider, metadata } = admin.resource;
  const page = await provider!.provideCollection(metadata, {
    conditions: [{ type: 'search', property: 'id', strategy: 'exact', values: ids }],
    order: [], page: 1, itemsPerPage: ids.length, partial: true,
  }, app.stateContext(req));
  return new Map(page.items.map((item) => [item.id, item]));
}

/**
 * The entries as rows: field labels instead of property names, values as the screens show them
 * (a relation by its target's label), and each item by its current label with a link, or, once
 * deleted, by the last label the log has of it (the newest entry's) and no link. One query per
 * resource for the items, one per related resource for the values' labels.
 * @param entries - newest first
 */
export async function historyRows(
  app: AdminApp, req: Request, entries: readonly StoredAuditEntry[], t: Translator,
): Promise<HistoryRow[]> {
  const byResource = new Map<string, Set<ItemId>>();
  const lastLabel = new Map<string, string>();
  for (const e of entries) {
    byResource.set(e.resource, (byResource.get(e.resource) ?? new Set<ItemId>()).add(e.itemId));
    const key = `${e.resource}:${e.itemId}`;
    if (!lastLabel.has(key)) lastLabel.set(key, e.label);
  }
  const current = new Map<string, StoredItem>();
  const valueLabels = new Map<string, ReadonlyMap<string, string>>();
  for (const [shortName, ids] of byResource) {
    const admin = app.admins.get(shortName);
    if (admin === undefined) continue; // a resource no longer listed: its entries keep their labels
    for (const [id, item] of await existing(app, req, admin, ids)) current.set(`${shortName}:${id}`, item);
    // the values of relations, as items the labels are read for (one query per related resource)
    const values: StoredItem[] = entries.filter((e) => e.resource === shortName).flatMap((e) => e.changes)
      .flatMap((c) => [c.from, c.to].map((v) => ({ id: 0, version: 0, data: { [c.field]: v } })));
    valueLabels.set(shortName, await app.relationLabels(req, admin, values));
  }
  const noLink = (): undefined => undefined;
  // when, in the request's language, in UTC as the audit log's filters count days
  const when = new Intl.DateTimeFormat(intlLocale(req.locale), {
    dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC',
  });
  return entries.map((e) => {
    const admin = app.admins.get(e.resource);
    const key = `${e.resource}:${e.itemId}`;
    const item = current.get(key);
    const labels = valueLabels.get(e.resource) ?? new Map<string, string>();
    const changes = e.changes.map((c): HistoryChange => {
      const field = admin?.fields.find((f) => f.name === c.field);
      const shown = (value: unknown): string => (field === undefined
        ? JSON.stringify(value) : displayValue(field, value, { req, t, labels, relatedUrl: noLink }).text);
      return {
        label: field === undefined ? c.field : app.text(req, field.label),
        ...('from' in c ? { from: shown(c.from) } : {}),
        ...('to' in c ? { to: shown(c.to) } : {}),
      };
    });
    return {
      occurredAt: e.occurredAt,
      when: when.format(new Date(e.occurredAt)),
      user: e.username,
      actionLabel: t(`audit.${e.action}`),
      item: admin !== undefined && item !== undefined ? itemLabel(admin, item) : lastLabel.get(key) ?? e.label,
      ...(admin !== undefined && item !== undefined ? { url: app.url(req, admin.slug, e.itemId) } : {}),
      changes,
    };
  });
}

/** The audit page's parameters. */
const PARAMETERS = ['user', 'resource', 'action', 'item', 'from', 'to', 'page'] as const;
const ACTIONS: readonly AuditAction[] = ['create', 'update', 'delete'];
const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The audit page's query: the log's criteria and the page. @throws InvalidQueryError (400) naming the parameter */
function readAuditQuery(
  app: AdminApp, raw: string,
): { criteria: AuditCriteria; page: number; given: Record<string, string> } {
  const given: Record<string, string> = {};
  for (const { name, value } of parseQueryString(raw)) {
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      throw new InvalidQueryError(`Unknown query parameter "${name}": expected one of ${PARAMETERS.join(', ')}.`);
    }
    if (name in given) throw new InvalidQueryError(`The query parameter "${name}" is given twice.`);
    given[name] = value;
  }
  const bad = (name: string, expected: string): InvalidQueryError =>
    new InvalidQueryError(`Invalid value for the query parameter "${name}": expected ${expected}.`);
  const { user, resource, action, item, from, to, page = '1' } = given;
  if (resource !== undefined && !app.admins.has(resource)) {
    throw bad('resource', `one of ${[...app.admins.keys()].join(', ')}`);
  }
  if (action !== undefined && !(ACTIONS as readonly string[]).includes(action)) throw bad('action', ACTIONS.join(', '));
  if (item !== undefined && (item === '' || item.length > MAX_STRING_ID_LENGTH)) throw bad('item', 'an item\'s id');
  if (item !== undefined && resource === undefined) throw bad('item', 'the "resource" parameter with it');
  for (const [name, value] of [['from', from], ['to', to]] as const) {
    if (value !== undefined && !DAY.test(value)) throw bad(name, 'a date such as 2026-11-27');
  }
  if (!/^\d{1,6}$/.test(page) || Number(page) < 1) throw bad('page', 'an integer from 1');
  const criteria: AuditCriteria = {
    ...(user !== undefined ? { username: user } : {}),
    ...(resource !== undefined ? { resource } : {}),
    ...(action !== undefined ? { action: action as AuditAction } : {}),
    ...(item !== undefined ? { itemId: item } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
  };
  return { criteria, page: Number(page), given };
}

/** `?a=1&b=2` from the given parameters (none: the empty string). */
function queryOf(params: Readonly<Record<string, string | undefined>>): string {
  const pairs = Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  const encoded = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return encoded.length === 0 ? '' : `?${encoded.join('&')}`;
}

/**
 * `GET <prefix>/audit`: the audit log, newest first, a page at a time, filtered by user
 * (`?user=`, exactly), resource (`?resource=Book`), action (`?action=update`), item
 * (`?resource=Book&item=3`: one item's history) and day (`?from=`, `?to=`: `YYYY-MM-DD`, UTC,
 * both included). Empty parameters (the filter form's unused fields) are answered 303 to the
 * same page without them.
 * @throws InvalidQueryError (400) for an unknown parameter, a bad value or a page past the last
 */
export function auditScreen(app: AdminApp) {
  return async function adminAudit(req: Request, res: Response): Promise<void> {
    const raw = req.kernel?.uri?.queryString ?? '';
    const here = app.url(req, 'audit');
    const pairs = parseQueryString(raw);
    if (pairs.some((p) => p.value === '')) {
      res.redirect(303, here + queryOf(Object.fromEntries(pairs.map((p) => [p.name, p.value]))));
      return;
    }
    const { t } = app.translator(req);
    const { criteria, page, given } = readAuditQuery(app, raw);
    const perPage = app.options.itemsPerPage;
    const found = await app.audit.list(criteria, page, perPage, app.stateContext(req));
    const pages = lastPage(found.total, perPage);
    if (page > pages) throw new InvalidQueryError(`The page ${page} is out of range: the last page is ${pages}.`);
    const pageUrl = (n: number): string => here + queryOf({ ...given, page: n === 1 ? undefined : String(n) });
    const resources: Choice[] = [{ value: '', label: t('index.any') },
      ...[...app.admins.values()].map((a) => ({ value: a.shortName, label: app.text(req, a.plural) }))];
    const actions: Choice[] = [{ value: '', label: t('index.any') },
      ...ACTIONS.map((a) => ({ value: a, label: t(`audit.${a}`) }))];
    const subject = criteria.itemId === undefined ? undefined : app.admins.get(criteria.resource!);
    app.render(req, res, 200, 'audit.html.njk', {
      pageTitle: t('audit.title'),
      rows: await historyRows(app, req, found.entries, t),
      total: found.total,
      page,
      pages,
      previous: page > 1 ? pageUrl(page - 1) : undefined,
      next: page < pages ? pageUrl(page + 1) : undefined,
      here,
      given,
      // the filters in use (the page number is not one): the panel opens and counts them
      activeFilters: Object.keys(given).filter((name) => name !== 'page').length,
      resources,
      actions,
      // one item's history: its page, when it still exists
      subject: subject === undefined ? undefined : {
        id: criteria.itemId,
        url: await itemUrl(app, req, subject, criteria.itemId!),
      },
    });
  };
}

/** An item's detail page, or undefined when the item is gone. */
async function itemUrl(app: AdminApp, req: Request, admin: AdminResource, raw: ItemId): Promise<string | undefined> {
  const id = idFromPath(admin.resource.identifier, String(raw));
  if (id === null) return undefined;
  const item = await admin.resource.provider!.provideItem(admin.resource.metadata, id, app.stateContext(req));
  return item === null ? undefined : app.url(req, admin.slug, id);
}

/**
 * An item's latest changes for its detail page, and the link to its whole history.
 * @param limit - how many entries, from 1 to 100
 */
export async function itemHistory(
  app: AdminApp, req: Request, admin: AdminResource, id: ItemId, limit: number, t: Translator,
): Promise<{ rows: HistoryRow[]; total: number; url: string }> {
  const found = await app.audit.list({ resource: admin.shortName, itemId: id }, 1, limit, app.stateContext(req));
  return {
    rows: await historyRows(app, req, found.entries, t),
    total: found.total,
    url: app.url(req, 'audit') + queryOf({ resource: admin.shortName, item: String(id) }),
  };
}
