import type { Request, Response } from 'express';
import { ItemNotFoundError, type FilterCondition, type StoredItem } from '../api';
import { idFromPath, propertyPath, isResolvedPath } from '../api/internals';
import { type QueryPair } from '../api/internals';
import { labelOrder, type AdminApp, type Choice } from './AdminApp';
import { itemLabel, type AdminField, type AdminResource } from './AdminResource';
import { lastPage } from './lastPage';
import type { Translator } from './translations';

/**
 * The relation picker (EasyAdmin's `AssociationField::autocomplete()`, without script): a
 * relation whose target has more items than `relationSelectLimit` is, on the form, an input for
 * the target's id or IRI, the current choice named by its label, and a "Choose…" button. That
 * button posts the whole form (CSRF-checked) to the picker page, `POST <form>/pick/{field}`,
 * which searches the target (its id, and its index's search fields) and shows pages of results.
 * Every result is a button that posts the form's values back to the form with `_resume`: the
 * form is shown again with that choice and every other value as typed, nothing saved. In the
 * index's filters, such a relation is an input taking an id, an IRI or part of the target's
 * label ({@link relationLabelCondition}).
 * @module
 */

/** Longest search of the picker, in characters (as the index's). */
const QUERY_LENGTH = 200;

/** What the form shows of a relation with many targets: its picker's URL and the current choice. */
export interface PickerControl {
  /** The picker page of this field (the "Choose…" button's `formaction`). */
  readonly url: string;
  /** The chosen item's label (`Dune (#3)`), `form.current_unknown`, or `form.current_none`. */
  readonly current: string;
  /** Whether the value names an item (false: nothing typed, or a value naming none). */
  readonly found: boolean;
}

/** A relation's control on the form: a select of every target, or the picker's input. */
export type RelationControl = { readonly choices: readonly Choice[] } | { readonly picker: PickerControl };

/** The chosen item's label, or why there is none, for the form and the picker page. */
async function currentChoice(
  app: AdminApp, req: Request, target: AdminResource, value: string, t: Translator,
): Promise<{ text: string; found: boolean }> {
  if (value.trim() === '') return { text: t('form.current_none'), found: false };
  const id = app.relatedId(target.shortName, value);
  const item = id === null ? null
    : await target.resource.provider!.provideItem(target.resource.metadata, id, app.stateContext(req));
  if (item === null) {
    return { text: t('form.current_unknown', { value: value.trim().slice(0, QUERY_LENGTH) }), found: false };
  }
  return { text: t('form.current', { item: itemLabel(target, item) }), found: true };
}

/**
 * The control of a relation field on the form: the select of its target's items when they are
 * few (`relationSelectLimit`), else the picker's (the current choice by its label).
 * @param pickUrl - the field's picker page
 * @param value - the field's value as the form shows it (an id, an IRI, or what was typed)
 */
export async function relationControl(
  app: AdminApp, req: Request, field: AdminField, value: string, pickUrl: string, t: Translator,
): Promise<RelationControl> {
  const target = app.admins.get(field.relation ?? '');
  const choices = target === undefined ? [] : await app.relationChoices(req, target.shortName);
  if (choices !== null) return { choices: [{ value: '', label: t('form.none') }, ...choices] };
  const current = await currentChoice(app, req, target!, value, t);
  return { picker: { url: pickUrl, current: current.text, found: current.found } };
}

/** The form's fields the picker carries (every editable one but the one being chosen), as sent. */
function carriedFields(
  admin: AdminResource, body: Readonly<Record<string, unknown>>, picked: string,
): Array<{ name: string; value: string }> {
  const carried: Array<{ name: string; value: string }> = [];
  const names = [...admin.formFields.filter((f) => !f.readOnly && f.name !== picked).map((f) => f.name), '_version'];
  for (const name of names) {
    const raw: unknown = Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
    for (const value of Array.isArray(raw) ? raw as unknown[] : [raw]) {
      if (typeof value === 'string') carried.push({ name, value });
    }
  }
  return carried;
}

/** The search of the picker: the target's id (in its identifier's type) or any of its index's search fields. */
function searchConditions(target: AdminResource, query: string): FilterCondition[] | null {
  if (query === '') return [];
  const conditions: FilterCondition[] = target.searchPaths.map((path) => path.wrap({
    type: 'search', property: path.property.name, strategy: 'partial', values: [query],
  }));
  const id = idFromPath(target.resource.identifier, query);
  if (id !== null) conditions.push({ type: 'search', property: 'id', strategy: 'exact', values: [id] });
  return conditions.length === 0 ? null : [{ type: 'any', conditions }];
}

function text(value: unknown): string {
  const first: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === 'string' ? first : '';
}

/**
 * `POST <prefix>/<slug>/new/pick/{field}` and `POST <prefix>/<slug>/{id}/edit/pick/{field}`:
 * the relation picker of a form's field. Its body is the form's (the "Choose…" button) or the
 * picker's own (a search, a page): `_q` the search (at first, what was typed in the field when
 * it names no item), `_page` the page, `_current` the field's value when the form was left. The
 * page carries the form's other values in hidden fields; each result, "Choose none" (an optional
 * relation) and "Back to the form" post them to the form with `_resume`.
 * @param on - which form: the new item's, or an item's edit form
 * @throws AccessDeniedHttpError 403 without a valid `_token`
 * @throws ItemNotFoundError 404 for an edit form of an item that is gone, or a field that is no relation
 */
export function pickerScreen(app: AdminApp, admin: AdminResource, on: 'new' | 'edit', loadItem: (
  app: AdminApp, req: Request, admin: AdminResource) => Promise<StoredItem>) {
  return async function adminRelationPicker(req: Request, res: Response): Promise<void> {
    const name = String(req.params.field ?? '');
    const field = admin.formFields.find((f) => f.name === name && !f.readOnly && f.relation !== undefined);
    const target = app.admins.get(field?.relation ?? '');
    if (field === undefined || target === undefined) throw new ItemNotFoundError(admin.shortName, name);
    const item = on === 'edit' ? await loadItem(app, req, admin) : null;
    const body = await app.checkedForm(req, res);
    const { t } = app.translator(req);
    const current = typeof body._current === 'string' ? body._current : text(body[field.name]);
    // at first, a value that names no item is what to look for (a name typed in the id's input)
    const initial = app.relatedId(target.shortName, current) === null ? current : '';
    const query = (typeof body._q === 'string' ? body._q : initial).trim().slice(0, QUERY_LENGTH);
    const pageText = text(body._page);
    let page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
    const perPage = admin.pageSize ?? app.options.itemsPerPage;
    const conditions = searchConditions(target, query);
    const { provider, metadata } = target.resource;
    const find = (p: number): Promise<{ items: readonly StoredItem[]; totalItems?: number }> => (conditions === null
      ? Promise.resolve({ items: [], totalItems: 0 })
      : provider!.provideCollection(metadata, {
        conditions, order: labelOrder(target), page: p, itemsPerPage: perPage, partial: false,
      }, app.stateContext(req)));
    let result = await find(page);
    const total = result.totalItems ?? result.items.length;
    const pages = lastPage(total, perPage);
    if (page > pages) {
      page = pages; // a page past the last (the list shrank since): the last
      result = await find(page);
    }
    const formUrl = item === null ? app.url(req, admin.slug, 'new') : app.url(req, admin.slug, item.id, 'edit');
    const label = app.text(req, field.label);
    const searchFields = target.searchPaths.map((path) => {
      const f = target.fields.find((x) => x.name === path.property.name && path.relations.length === 0);
      return f === undefined ? path.path : app.text(req, f.label);
    }).join(', ');
    app.render(req, res, 200, 'picker.html.njk', {
      pageTitle: t('picker.title', { field: label }),
      formTitle: item === null ? t('form.new_title', { resource: app.text(req, admin.singular) })
        : t('form.edit_title', { item: itemLabel(admin, item) }),
      current: (await currentChoice(app, req, target, current, t)).text,
      currentValue: current,
      field: field.name,
      required: field.required,
      action: req.originalUrl,
      formUrl,
      carried: carriedFields(admin, body, field.name),
      query,
      searchLabel: searchFields === '' ? t('picker.search_label_id')
        : t('picker.search_label', { fields: searchFields }),
      results: result.items.map((i) => ({ value: String(i.id), label: itemLabel(target, i) })),
      total,
      page,
      pages,
      previous: page > 1 ? page - 1 : undefined,
      next: page < pages ? page + 1 : undefined,
    });
  };
}

/**
 * A relation filter of the index given something other than an id or an IRI (`?author=butler`):
 * a search of the target's label, part of it, any case (a book by its author's name). Only for
 * a relation the resource filters by (`SearchFilter`) whose target has a label property.
 * @param pair - one filter parameter of the index's query string
 * @returns the condition, or undefined when the pair is not such a search (the API's filter reads it)
 */
export function relationLabelCondition(
  app: AdminApp, admin: AdminResource, pair: QueryPair,
): FilterCondition | undefined {
  const field = admin.fields.find((f) => f.name === pair.name && f.relation !== undefined);
  const target = app.admins.get(field?.relation ?? '');
  if (field === undefined || target?.labelField === undefined) return undefined;
  if (!admin.resource.filters.some((f) => f.type === 'search' && f.property === field.name)) return undefined;
  const value = pair.value.trim();
  if (/^\d+$/.test(value) || value.startsWith('/') || /^https?:\/\//i.test(value)) return undefined;
  const path = propertyPath(admin.resource.metadata, `${field.name}.${target.labelField}`,
    (shortName) => app.admins.get(shortName)?.resource.metadata);
  if (!isResolvedPath(path)) return undefined;
  return path.wrap({
    type: 'search', property: path.property.name, strategy: 'partial', values: [value.slice(0, QUERY_LENGTH)],
  });
}
