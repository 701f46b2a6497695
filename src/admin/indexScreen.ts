import type { Request, Response } from 'express';
import { InvalidQueryError, type FilterCondition, type OrderBy, type ResolvedPropertyPath } from '../api';
import { parseCollectionQuery } from '../api/internals';
import { parseQueryString, type QueryPair } from '../api/internals';
import type { AdminApp, Choice } from './AdminApp';
import { itemLabel, type AdminField, type AdminResource } from './AdminResource';
import { columnLabel, displayValue } from './display';
import { isGranted } from '../security/SecurityState';
import type { Translator } from './translations';
import { lastPage } from './lastPage';
import { relationLabelCondition } from './relationPicker';

/**
 * The index screen (EasyAdmin's `index` action): a page of items in a table, sorted by a column
 * (`?sort=title&direction=desc`, shown with `aria-sort`), searched across the text fields
 * (`?query=`, case-insensitive, any of them, a related item's through its relation: `author.name`),
 * filtered by the resource's own filters (the API's query parameters: `featured=true`,
 * `price[gte]=10`...; a relation's filter also takes part of the target's label, `author=herbert`),
 * paginated (`?page=`). A parameter the screen cannot read is a 400 naming it.
 * @module
 */

/** The index's own parameters; every other non-empty one is one of the resource's filters. */
const OWN = new Set(['page', 'sort', 'direction', 'query', 'select']);

/** A filter control above the table. */
interface FilterControl {
  readonly name: string;
  readonly label: string;
  readonly type: 'text' | 'number' | 'date' | 'select';
  readonly value: string;
  readonly choices?: readonly Choice[];
}

function single(pairs: readonly QueryPair[], name: string): string | undefined {
  const found = pairs.filter((p) => p.name === name);
  if (found.length > 1) throw new InvalidQueryError(`The query parameter "${name}" is given twice.`);
  return found[0]?.value;
}

/** A query string from pairs, with `changes` applied (undefined drops a parameter). */
function queryOf(pairs: readonly QueryPair[], changes: Readonly<Record<string, string | undefined>>): string {
  const kept = pairs.filter((p) => !(p.name in changes) && p.value !== '').map((p) => [p.name, p.value]);
  const added = Object.entries(changes).filter((e): e is [string, string] => e[1] !== undefined);
  const all = [...kept, ...added];
  const encoded = all.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return encoded.length === 0 ? '' : `?${encoded.join('&')}`;
}

/** The index's query string, read: what the list shows (and the CSV export writes). */
export interface IndexQuery {
  readonly pairs: readonly QueryPair[];
  readonly page: number;
  readonly sort?: string;
  readonly direction: 'asc' | 'desc';
  readonly text: string;
  readonly conditions: readonly FilterCondition[];
}

/**
 * Reads the index's query string (the CSV export reads the same).
 * @param raw - the query string, without `?`
 * @throws InvalidQueryError (400) naming the bad parameter
 */
export function readQuery(app: AdminApp, admin: AdminResource, raw: string): IndexQuery {
  const pairs = parseQueryString(raw);
  const pageText = single(pairs, 'page') ?? '1';
  if (!/^\d{1,6}$/.test(pageText) || Number(pageText) < 1) {
    throw new InvalidQueryError(`Invalid value for the query parameter "page": expected an integer from 1.`);
  }
  const sort = single(pairs, 'sort');
  if (sort !== undefined && sort !== '' && !admin.sortable.has(sort)) {
    const known = [...admin.sortable].join(', ');
    throw new InvalidQueryError(`Invalid value for the query parameter "sort": expected one of ${known}.`);
  }
  const direction = single(pairs, 'direction') ?? 'asc';
  if (direction !== 'asc' && direction !== 'desc') {
    throw new InvalidQueryError('Invalid value for the query parameter "direction": expected asc or desc.');
  }
  const text = (single(pairs, 'query') ?? '').trim().slice(0, 200);
  const conditions: FilterCondition[] = [];
  const filters = pairs.filter((p) => {
    if (OWN.has(p.name) || p.value === '') return false;
    // a relation filter given a name rather than an id: the target's label searched
    const byLabel = relationLabelCondition(app, admin, p);
    if (byLabel !== undefined) conditions.push(byLabel);
    return byLabel === undefined;
  });
  const filterQuery = filters.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');
  const parsed = parseCollectionQuery(filterQuery, admin.resource, {
    prefixes: app.prefixes, identifiers: app.identifiers, strict: true,
  });
  conditions.unshift(...parsed.conditions);
  if (text !== '' && admin.searchPaths.length > 0) {
    // any of the fields, a related one through its relation (a book by its author's name)
    conditions.push({
      type: 'any',
      conditions: admin.searchPaths.map((path) => path.wrap({
        type: 'search', property: path.property.name, strategy: 'partial', values: [text],
      })),
    });
  }
  return {
    pairs, page: Number(pageText), direction, text, conditions,
    ...(sort !== undefined && sort !== '' ? { sort } : {}),
  };
}

/**
 * The field a filter's property path ends on, through relations (`author.name`: the Author's
 * name, labelled "Author › Name"), or undefined when a step is not a readable field of the
 * back office (an `id`, a write-only property, a resource without a CRUD).
 */
function filterField(
  app: AdminApp, req: Request, admin: AdminResource, path: string,
): { field: AdminField; label: string } | undefined {
  const dot = path.indexOf('.');
  const head = dot === -1 ? path : path.slice(0, dot);
  const field = admin.fields.find((x) => x.name === head);
  if (field === undefined || field.writeOnly) return undefined;
  const label = app.text(req, field.label);
  if (dot === -1) return { field, label };
  const target = field.relation === undefined ? undefined : app.admins.get(field.relation);
  const inner = target === undefined ? undefined : filterField(app, req, target, path.slice(dot + 1));
  return inner === undefined ? undefined : { field: inner.field, label: `${label} › ${inner.label}` };
}

async function filterControls(
  app: AdminApp, req: Request, admin: AdminResource, pairs: readonly QueryPair[], t: Translator,
): Promise<FilterControl[]> {
  const value = (name: string): string => pairs.find((p) => p.name === name)?.value ?? '';
  const yesNo = [{ value: '', label: t('index.any') }, { value: 'true', label: t('index.yes') },
    { value: 'false', label: t('index.no') }];
  const controls: FilterControl[] = [];
  for (const f of admin.resource.filters) {
    // a nested filter (`author.name`) gets the control of the field it ends on
    const found = filterField(app, req, admin, f.property);
    if (found === undefined) continue;
    const { field, label } = found;
    const input = (name: string, text: string, type: FilterControl['type']): FilterControl =>
      ({ name, label: text, type, value: value(name) });
    switch (f.type) {
      case 'search':
        if (field.kind === 'relation' && field.relation !== undefined) {
          const related = await app.relationChoices(req, field.relation);
          if (related !== null) {
            const choices = [{ value: '', label: t('index.any') }, ...related];
            controls.push({ ...input(f.property, label, 'select'), choices });
          } else {
            // too many to list: an id, an IRI, or part of the target's label (relationLabelCondition)
            const byLabel = app.admins.get(field.relation)?.labelField !== undefined;
            controls.push(input(f.property,
              t(byLabel ? 'index.relation_filter' : 'index.relation_filter_id', { field: label }), 'text'));
          }
        } else if (field.kind === 'enum') {
          const values = (field.enumValues ?? [])
            .map((v) => ({ value: v, label: app.text(req, field.choices?.[v] ?? v) }));
          const choices = [{ value: '', label: t('index.any') }, ...values];
          controls.push({ ...input(f.property, label, 'select'), choices });
        } else if (field.kind !== 'boolean') {
          controls.push(input(f.property, label, field.kind === 'date' ? 'date' : 'text'));
        }
        break;
      case 'range':
        controls.push(input(`${f.property}[gte]`, t('index.min', { field: label }), 'number'));
        controls.push(input(`${f.property}[lte]`, t('index.max', { field: label }), 'number'));
        break;
      case 'date':
        if (field.kind !== 'date') break; // a datetime filter reads ISO date-times: no plain control
        controls.push(input(`${f.property}[after]`, t('index.after', { field: label }), 'date'));
        controls.push(input(`${f.property}[before]`, t('index.before', { field: label }), 'date'));
        break;
      case 'boolean':
        controls.push({ ...input(f.property, label, 'select'), choices: yesNo });
        break;
      case 'exists':
        controls.push({
          ...input(`exists[${f.property}]`, t('index.exists', { field: label }), 'select'), choices: yesNo,
        });
        break;
      default:
        break;
    }
  }
  return controls;
}

/**
 * The list's URL with the query string a form carried back (`_back`: the filters, sort and page
 * the list had), for the redirect after an action; a page past the last (the action removed its
 * rows) becomes the last, and a query the list cannot read is dropped.
 * @param back - the `_back` field as posted
 */
export async function listUrl(app: AdminApp, req: Request, admin: AdminResource, back: unknown): Promise<string> {
  const here = app.url(req, admin.slug);
  if (typeof back !== 'string' || back === '') return here;
  const raw = back.startsWith('?') ? back.slice(1) : back;
  let q: IndexQuery;
  try {
    q = readQuery(app, admin, raw);
  } catch (e) {
    if (e instanceof InvalidQueryError) return here;
    throw e;
  }
  let page = q.page;
  if (page > 1) {
    const { resource } = admin;
    const count = await resource.provider!.provideCollection(resource.metadata, {
      conditions: q.conditions, order: [], page: 1, itemsPerPage: 1, partial: false,
    }, app.stateContext(req));
    page = Math.min(page, lastPage(count.totalItems ?? 0, pageSize(app, admin)));
  }
  return `${here}${queryOf(q.pairs, { select: undefined, page: page === 1 ? undefined : String(page) })}`;
}

/** The list's query string a GET link carried (`?back=`), for its form's `_back` field; `''` for none. */
export function backOf(req: Request): string {
  const pairs = parseQueryString(req.kernel?.uri?.queryString ?? '');
  return pairs.find((p) => p.name === 'back')?.value ?? '';
}

/**
 * A searched field's label: its own (`Title`), or, through relations, each relation's then the
 * field's (`Author › Name`), as each resource's configuration labels them.
 */
function searchFieldLabel(
  app: AdminApp, req: Request, admin: AdminResource, path: ResolvedPropertyPath, t: Translator,
): string {
  let owner: AdminResource | undefined = admin;
  const labels: string[] = [];
  for (const name of [...path.relations.map((r) => r.name), path.property.name]) {
    const field: AdminField | undefined = owner?.fields.find((f) => f.name === name);
    labels.push(field === undefined ? name : app.text(req, field.label));
    owner = field?.relation === undefined ? undefined : app.admins.get(field.relation);
  }
  return labels.reduce((relation, field) => t('index.related_field', { relation, field }));
}

/** Rows per page: the resource's, else the back office's. */
function pageSize(app: AdminApp, admin: AdminResource): number {
  return admin.pageSize ?? app.options.itemsPerPage;
}

/**
 * The index screen's controller. A query string with empty parameters (the filter form's unused
 * fields) is answered 303 to the same list without them, the others (filters, sort, page) kept.
 * `?select=page` shows the page's rows checked (select-all without script).
 * @throws InvalidQueryError (400) for a bad parameter or a page past the last
 */
export function indexScreen(app: AdminApp, admin: AdminResource) {
  return async function adminIndex(req: Request, res: Response): Promise<void> {
    const raw = req.kernel?.uri?.queryString ?? '';
    const pairs = parseQueryString(raw);
    if (pairs.some((p) => p.value === '')) {
      // the filter form is a GET form: its empty fields never stay in the URL
      res.redirect(303, app.url(req, admin.slug) + queryOf(pairs, {}));
      return;
    }
    const { t } = app.translator(req);
    const q = readQuery(app, admin, raw);
    const perPage = pageSize(app, admin);
    const order: readonly OrderBy[] = q.sort === undefined ? admin.defaultSort
      : [{ property: q.sort, direction: q.direction }];
    const { resource } = admin;
    const result = await resource.provider!.provideCollection(resource.metadata, {
      conditions: q.conditions, order: [...order], page: q.page, itemsPerPage: perPage, partial: false,
    }, app.stateContext(req));
    const total = result.totalItems ?? result.items.length;
    const pages = lastPage(total, perPage);
    if (q.page > pages) {
      throw new InvalidQueryError(`The page ${q.page} is out of range: the last page is ${pages}.`);
    }
    const labels = await app.relationLabels(req, admin, result.items);
    const display = app.displayContext(req, labels);
    const here = app.url(req, admin.slug);
    const sorted = order[0];
    const columns = admin.indexColumns.map((c) => {
      const label = columnLabel(c, req);
      const sortable = admin.sortable.has(c.name);
      const active = sorted?.property === c.name;
      const next = active && sorted.direction === 'asc' ? 'desc' : 'asc';
      return {
        label,
        ariaSort: active ? (sorted.direction === 'asc' ? 'ascending' : 'descending') : sortable ? 'none' : undefined,
        url: sortable
          ? `${here}${queryOf(q.pairs, { sort: c.name, direction: next, page: undefined, select: undefined })}`
          : undefined,
        sortLabel: t('index.sort_by', { field: label }),
        active,
        direction: active ? sorted.direction : undefined,
      };
    });
    const granted = (role: string | undefined): boolean => role === undefined || isGranted(req.security, role);
    const back = queryOf(q.pairs, { select: undefined });
    const backParam = back === '' ? '' : `?back=${encodeURIComponent(back)}`;
    const itemActions = admin.actions.filter((a) => a.scope !== 'batch' && granted(a.role));
    const rows = result.items.map((item) => {
      const label = itemLabel(admin, item);
      return {
        id: item.id,
        label,
        version: item.version,
        cells: admin.indexColumns.map((c) => {
          if (c.field === undefined) return { label: t('field.id'), text: String(item.id) };
          const f = c.field;
          const value = displayValue(f, item.data[f.name], display);
          const toggle = admin.writable && f.renderAsSwitch && !f.readOnly && typeof item.data[f.name] === 'boolean'
            ? {
              url: app.url(req, admin.slug, item.id, 'toggle', f.name),
              checked: item.data[f.name] === true,
              label: `${app.text(req, f.label)}: ${label}`,
            }
            : undefined;
          return { label: columnLabel(c, req), ...value, toggle };
        }),
        show: app.url(req, admin.slug, item.id),
        edit: app.url(req, admin.slug, item.id, 'edit'),
        remove: `${app.url(req, admin.slug, item.id, 'delete')}${backParam}`,
        actions: itemActions.map((a) => ({
          label: app.text(req, a.label),
          // an action that asks first links to its page; the others run from the row
          ...(a.confirmation !== undefined
            ? { link: `${app.url(req, admin.slug, item.id, 'action', a.name)}${backParam}` }
            : { formaction: app.url(req, admin.slug, item.id, 'action', a.name) }),
        })),
      };
    });
    const batchActions = [
      ...(admin.writable
        ? [{ label: t('index.batch_delete'), url: app.url(req, admin.slug, 'batch-delete'), danger: true }] : []),
      ...admin.actions.filter((a) => a.scope !== 'item' && granted(a.role))
        .map((a) => ({ label: app.text(req, a.label), url: app.url(req, admin.slug, 'batch', a.name), danger: false })),
    ];
    const pageUrl = (page: number): string =>
      `${here}${queryOf(q.pairs, { page: page === 1 ? undefined : String(page), select: undefined })}`;
    const selectAll = single(q.pairs, 'select') === 'page';
    const filters = await filterControls(app, req, admin, q.pairs, t);
    app.render(req, res, 200, 'index.html.njk', {
      admin,
      pageTitle: app.text(req, admin.plural),
      help: admin.help === undefined ? undefined : app.text(req, admin.help),
      newLabel: t('index.new', { resource: app.text(req, admin.singular) }),
      columns,
      rows,
      total,
      page: q.page,
      pages,
      previous: q.page > 1 ? pageUrl(q.page - 1) : undefined,
      next: q.page < pages ? pageUrl(q.page + 1) : undefined,
      query: q.text,
      sort: q.sort ?? '',
      direction: q.direction,
      searchFields: admin.searchPaths.map((path) => searchFieldLabel(app, req, admin, path, t)).join(', '),
      filters,
      activeFilters: filters.filter((f) => f.value !== '').length,
      here,
      exportUrl: app.url(req, admin.slug, 'export.csv') + queryOf(q.pairs, { page: undefined, select: undefined }),
      back,
      selectAll,
      selectAllUrl: `${here}${queryOf(q.pairs, { select: selectAll ? undefined : 'page' })}`,
      newUrl: admin.writable ? app.url(req, admin.slug, 'new') : undefined,
      batchActions,
      rowActions: admin.writable || itemActions.length > 0,
    });
  };
}
