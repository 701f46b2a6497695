import type { Request, Response } from 'express';
import { isValidationError, ItemNotFoundError, type ItemId, type Violation, type StoredItem } from '../api';
import { clientId, ID_ALREADY_USED, idFromPath } from '../api/internals';
import { HttpError } from '../http/errors';
import { invalidRelation, toStoredData } from '../api/internals';
import type { AdminApp, AuditedChange, Choice } from './AdminApp';
import { itemLabel, type AdminResource } from './AdminResource';
import { detailRows } from './display';
import { itemHistory } from './history';
import { referrersOf, type Referrers } from './referrers';
import { backOf, listUrl } from './indexScreen';
import { fieldChanges, formObject, itemValues, submittedValues, type FormValue } from './formData';
import { isAuditFailure } from './AuditLog';
import { unexpectedOutcome } from './AdminError';
import { requestLog } from '../profiler/requestLogger';
import { relationControl, type PickerControl } from './relationPicker';
import type { StorageUnavailableError } from '../storage/StorageUnavailableError';

/**
 * The screens of one item (EasyAdmin's `detail`, `new`, `edit` and `delete` actions). Writes go
 * through the resource's state processor after the API's own validation (`toStoredData`: the
 * same messages as the API's 422); edits and deletes carry the version the form was made from
 * (`_version`), so a stale form is a conflict (409), never an overwrite (the API's optimistic
 * locking). Every POST checks its `_token` first (403).
 * @module
 */

/** Logs why the audit log failed (the page only says that it did). */
export function logAuditFailure(req: Request, error: StorageUnavailableError): void {
  requestLog(req)?.error({ err: error, reason: error.reason },
    'admin: the audit log could not be written; the change was not kept');
}

/**
 * Answers a change whose audit entry could not be written: the page again (`render`, a 503 with
 * `Retry-After`) with the message that nothing was saved, the values kept; the reason goes to the log.
 */
function auditFailed(
  app: AdminApp, req: Request, error: StorageUnavailableError, render: (problem: string) => void | Promise<void>,
): void | Promise<void> {
  logAuditFailure(req, error);
  for (const [name, value] of Object.entries(error.headers)) req.res!.setHeader(name, value);
  return render(app.translator(req).t('audit.failed'));
}

/** The form's state: values shown, errors by field, and the page's status. */
interface FormState {
  readonly values: Readonly<Record<string, FormValue>>;
  readonly violations: readonly Violation[];
  readonly conflict?: boolean;
  /** A message about the whole form (the audit log could not be written: nothing was saved). */
  readonly problem?: string;
}

export async function loadItem(app: AdminApp, req: Request, admin: AdminResource): Promise<StoredItem> {
  const raw = String(req.params.id ?? '');
  const id = idFromPath(admin.resource.identifier, raw);
  const { provider, metadata } = admin.resource;
  const item = id === null ? null : await provider!.provideItem(metadata, id, app.stateContext(req));
  if (item === null) throw new ItemNotFoundError(admin.shortName, raw);
  return item;
}

async function renderForm(
  app: AdminApp, req: Request, res: Response, admin: AdminResource, item: StoredItem | null,
  state: FormState, status: number,
): Promise<void> {
  const { t } = app.translator(req);
  const errors = new Map<string, string[]>();
  const general: string[] = [];
  // a new item's form asks for its id first when clients choose it
  const formFields = item === null && admin.idField !== undefined
    ? [admin.idField, ...admin.formFields] : admin.formFields;
  for (const v of state.violations) {
    const name = v.propertyPath.split('.')[0];
    if (formFields.some((f) => f.name === name && !f.readOnly)) {
      errors.set(name, [...(errors.get(name) ?? []), v.message]);
    } else general.push(v.propertyPath === '' ? v.message : `${v.propertyPath}: ${v.message}`);
  }
  const fields = [];
  const formUrl = item === null ? app.url(req, admin.slug, 'new') : app.url(req, admin.slug, item.id, 'edit');
  for (const f of formFields) {
    let choices: readonly Choice[] | undefined;
    let picker: PickerControl | undefined;
    const shownValue = f.readOnly && item !== null ? itemValues(admin, item)[f.name] : state.values[f.name];
    if (f.type === 'association' && f.relation !== undefined && !f.readOnly) {
      const control = await relationControl(app, req, f, typeof shownValue === 'string' ? shownValue : '',
        `${formUrl}/pick/${encodeURIComponent(f.name)}`, t);
      if ('choices' in control) choices = control.choices;
      else picker = control.picker;
    } else if (f.type === 'choice') {
      choices = [...(f.required ? [] : [{ value: '', label: t('form.none') }]),
        ...(f.enumValues ?? []).map((v) => ({ value: v, label: app.text(req, f.choices?.[v] ?? v) }))];
    }
    const fieldErrors = errors.get(f.name) ?? [];
    // what the control's aria-describedby names: its help (a datetime's UTC note, a picker's), choice, errors
    const describedBy = [
      f.help !== undefined || f.kind === 'datetime' || picker !== undefined ? `help-${f.name}` : '',
      picker !== undefined ? `current-${f.name}` : '', fieldErrors.length > 0 ? `error-${f.name}` : '',
    ].filter((id) => id !== '').join(' ');
    fields.push({
      ...f, label: app.text(req, f.label), help: f.help === undefined ? undefined : app.text(req, f.help),
      value: shownValue ?? '', errors: fieldErrors, choices, picker, describedBy,
    });
  }
  const label = item === null ? '' : itemLabel(admin, item);
  app.render(req, res, status, 'form.html.njk', {
    admin,
    pageTitle: item === null
      ? t('form.new_title', { resource: app.text(req, admin.singular) })
      : t('form.edit_title', { item: label }),
    fields,
    // Enter in a field saves: the form's first submit button (a hidden twin of Save) comes before "Choose…"
    hasPicker: fields.some((f) => f.picker !== undefined),
    general,
    hasErrors: state.violations.length > 0,
    conflict: state.conflict === true,
    problem: state.problem,
    version: item?.version,
    action: formUrl,
    cancel: item === null ? app.url(req, admin.slug) : app.url(req, admin.slug, item.id),
    submit: item === null ? t('action.create') : t('action.save'),
  });
}

/**
 * Validates a submitted form; the stored data, or the violations (the API's 422 messages, in the
 * request's language).
 */
function validate(
  app: AdminApp, req: Request, admin: AdminResource, body: Readonly<Record<string, unknown>>,
  current: StoredItem | null = null,
): { data: Record<string, unknown> } | { violations: readonly Violation[] } {
  try {
    const object = formObject(admin, body, app.prefixes, current?.data ?? null);
    const data = toStoredData(admin.resource, object, app.prefixes, '', req.locale, app.identifiers);
    // a to-many relation is read-only here: left out, the store keeps its links
    for (const f of admin.fields) if (f.kind === 'relations') delete data[f.name];
    return { data };
  } catch (e) {
    if (isValidationError(e)) return { violations: e.violations };
    throw e;
  }
}

/** The audit log's record of an item's delete: its last values. */
export function deletion(admin: AdminResource, item: StoredItem): AuditedChange {
  return { action: 'delete', item, changes: fieldChanges(admin, item.data, null) };
}

/** Items named per relation in a detail page's related lists (the rest: the filtered index, linked). */
const RELATED_SHOWN = 10;

/** Entries of an item's history on its detail page (the rest: the audit page, linked). */
const ITEM_HISTORY = 5;

/**
 * `GET /admin/{slug}/{id}`: the item's fields and its latest changes (old → new), with a link to
 * its whole history on the audit page. @throws ItemNotFoundError 404
 */
export function detailScreen(app: AdminApp, admin: AdminResource) {
  return async function adminDetail(req: Request, res: Response): Promise<void> {
    const item = await loadItem(app, req, admin);
    const labels = await app.relationLabels(req, admin, [item]);
    app.render(req, res, 200, 'detail.html.njk', {
      admin,
      pageTitle: itemLabel(admin, item),
      rows: detailRows(admin, item, app.displayContext(req, labels)),
      history: await itemHistory(app, req, admin, item.id, ITEM_HISTORY, app.translator(req).t),
      related: await referrersOf(app, req, admin, item.id, RELATED_SHOWN),
      index: app.url(req, admin.slug),
      edit: admin.writable ? app.url(req, admin.slug, item.id, 'edit') : undefined,
      remove: admin.writable ? app.url(req, admin.slug, item.id, 'delete') : undefined,
    });
  };
}

/**
 * `GET|POST /admin/{slug}/new`: the empty form; a valid POST creates the item (303 to its page);
 * a POST with `_resume` (back from the relation picker) shows the form again with its values.
 */
export function newScreen(app: AdminApp, admin: AdminResource) {
  return async function adminNew(req: Request, res: Response): Promise<void> {
    if (req.method !== 'POST') {
      return renderForm(app, req, res, admin, null, { values: itemValues(admin, null), violations: [] }, 200);
    }
    const body = await app.checkedForm(req, res);
    const values = submittedValues(admin, body);
    // back from the relation picker: the form again, with its values and the choice, nothing saved
    if (isResume(body)) return renderForm(app, req, res, admin, null, { values, violations: [] }, 200);
    const checked = validate(app, req, admin, body);
    const chosen = chosenId(admin, body, req.locale);
    if ('violations' in checked || 'violations' in chosen) {
      const violations = [...('violations' in chosen ? chosen.violations : []),
        ...('violations' in checked ? checked.violations : [])];
      return renderForm(app, req, res, admin, null, { values, violations }, 422);
    }
    const { metadata } = admin.resource;
    let outcome;
    try {
      outcome = await app.change(req, admin,
        (processor) => processor.create(metadata, checked.data, app.stateContext(req), chosen.id),
        (o) => (o.status === 'ok'
          ? { action: 'create', item: o.item, changes: fieldChanges(admin, null, o.item.data) } : undefined));
    } catch (e) {
      if (!isAuditFailure(e)) throw e;
      return auditFailed(app, req, e,
        (problem) => renderForm(app, req, res, admin, null, { values, violations: [], problem }, 503));
    }
    if (outcome.status === 'invalid_relation') {
      const { violations } = invalidRelation(admin.resource, outcome.property, req.locale);
      return renderForm(app, req, res, admin, null, { values, violations }, 422);
    }
    if (outcome.status === 'duplicate') {
      return renderForm(app, req, res, admin, null, { values, violations: [ID_ALREADY_USED] }, 422);
    }
    if (outcome.status !== 'ok') throw unexpectedOutcome(admin.shortName, 'create', outcome.status);
    const { t } = app.translator(req);
    app.seeOther(req, res, t('flash.created', { item: itemLabel(admin, outcome.item) }),
      app.url(req, admin.slug, outcome.item.id));
  };
}

/**
 * The id a new item's form chose (`AdminResource.idField`), read as the API reads a POST's
 * (`clientId`): its violations at `id` (blank, too long, refused by the id's schema, not a UUID), or
 * the id (undefined: the store picks it, or the resource's ids are never chosen).
 */
function chosenId(
  admin: AdminResource, body: Readonly<Record<string, unknown>>, locale: string | undefined,
): { id: ItemId | undefined } | { violations: readonly Violation[] } {
  if (admin.idField === undefined) return { id: undefined };
  const raw: unknown = Array.isArray(body.id) ? (body.id as unknown[])[0] : body.id;
  const text = typeof raw === 'string' ? raw : '';
  try {
    return { id: clientId(admin.resource, text === '' ? {} : { id: text }, locale) };
  } catch (e) {
    if (isValidationError(e)) return { violations: e.violations };
    // a malformed UUID: the API's 400, shown at the field
    if (e instanceof HttpError) return { violations: [{ propertyPath: 'id', message: e.message, code: 'invalid_id' }] };
    throw e;
  }
}

/** Whether a form's POST comes back from the relation picker (`_resume`): shown again, never saved. */
function isResume(body: Readonly<Record<string, unknown>>): boolean {
  return body._resume !== undefined;
}

/** The version a form was made from (`_version`), or 0 (never a stored version: a conflict). */
export function formVersion(body: Readonly<Record<string, unknown>>): number {
  return typeof body._version === 'string' && /^[1-9]\d{0,14}$/.test(body._version) ? Number(body._version) : 0;
}

/**
 * `GET|POST /admin/{slug}/{id}/edit`: the item's form; a valid POST of the current version
 * replaces it (303 to its page); a POST of an older version is a 409 and changes nothing; a
 * POST with `_resume` (back from the relation picker) shows the form again with its values and version.
 */
export function editScreen(app: AdminApp, admin: AdminResource) {
  return async function adminEdit(req: Request, res: Response): Promise<void> {
    const item = await loadItem(app, req, admin);
    if (req.method !== 'POST') {
      return renderForm(app, req, res, admin, item, { values: itemValues(admin, item), violations: [] }, 200);
    }
    const body = await app.checkedForm(req, res);
    const values = submittedValues(admin, body);
    const version = formVersion(body);
    const stale = { ...item, version }; // the form keeps the version it was made from
    if (isResume(body)) return renderForm(app, req, res, admin, stale, { values, violations: [] }, 200);
    const checked = validate(app, req, admin, body, item);
    if ('violations' in checked) return renderForm(app, req, res, admin, stale, { values, ...checked }, 422);
    const { metadata } = admin.resource;
    let outcome;
    try {
      outcome = await app.change(req, admin,
        (processor) => processor.replace(metadata, item.id, checked.data, version, app.stateContext(req)),
        (o) => (o.status === 'ok'
          ? { action: 'update', item: o.item, changes: fieldChanges(admin, item.data, o.item.data) } : undefined));
    } catch (e) {
      if (!isAuditFailure(e)) throw e;
      return auditFailed(app, req, e,
        (problem) => renderForm(app, req, res, admin, stale, { values, violations: [], problem }, 503));
    }
    switch (outcome.status) {
      case 'conflict':
        return renderForm(app, req, res, admin, stale, { values, violations: [], conflict: true }, 409);
      case 'invalid_relation': {
        const { violations } = invalidRelation(admin.resource, outcome.property, req.locale);
        return renderForm(app, req, res, admin, stale, { values, violations }, 422);
      }
      case 'not_found': throw new ItemNotFoundError(admin.shortName, String(item.id));
      case 'duplicate': throw unexpectedOutcome(admin.shortName, 'update', outcome.status);
      case 'ok': break;
    }
    const { t } = app.translator(req);
    app.seeOther(req, res, t('flash.updated', { item: itemLabel(admin, outcome.item) }),
      app.url(req, admin.slug, item.id));
  };
}

/**
 * `GET|POST /admin/{slug}/{id}/delete`: the confirmation page; its POST deletes the item (303
 * to the index, with the filters, sort and page of `?back=` when the index's link gave them),
 * unless it changed since (409) or another item refers to it (409).
 */
export function deleteScreen(app: AdminApp, admin: AdminResource) {
  return async function adminDelete(req: Request, res: Response): Promise<void> {
    const { t } = app.translator(req);
    const item = await loadItem(app, req, admin);
    const label = itemLabel(admin, item);
    const page = (status: number, problem?: string, version = item.version, referrers: Referrers[] = []): void =>
      app.render(req, res, status, 'delete.html.njk', {
        admin, pageTitle: t('delete.title', { item: label }), label, problem, version, referrers, back,
        action: app.url(req, admin.slug, item.id, 'delete'), cancel: app.url(req, admin.slug, item.id),
      });
    let back = backOf(req);
    if (req.method !== 'POST') return page(200);
    const body = await app.checkedForm(req, res);
    back = typeof body._back === 'string' ? body._back : '';
    const { metadata } = admin.resource;
    let outcome;
    try {
      outcome = await app.change(req, admin,
        (processor) => processor.remove(metadata, item.id, formVersion(body), app.stateContext(req)),
        (o) => (o.status === 'ok' ? deletion(admin, item) : undefined));
    } catch (e) {
      if (!isAuditFailure(e)) throw e;
      return auditFailed(app, req, e, (problem) => page(503, problem, formVersion(body)));
    }
    switch (outcome.status) {
      case 'referenced': {
        // the count and where to see them, for each relation pointing here (the store names one)
        const referrers = await referrersOf(app, req, admin, item.id, 1);
        const problem = referrers.length === 0 ? t('delete.referenced', { item: label, by: outcome.by })
          : referrers.map((r) => t('delete.referenced_count', {
            item: label, count: r.total, resource: r.resource, field: r.field,
          })).join(' ');
        return page(409, problem, item.version, referrers);
      }
      case 'conflict': return page(409, t('delete.conflict', { item: label }), formVersion(body));
      case 'not_found': throw new ItemNotFoundError(admin.shortName, String(item.id));
      case 'ok': break;
    }
    app.seeOther(req, res, t('flash.deleted', { item: label }), await listUrl(app, req, admin, back));
  };
}
