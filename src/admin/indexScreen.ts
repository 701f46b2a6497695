import type { Request, Response } from 'express';
import { InvalidQueryError } from '../api/http/ApiErrors';
import { parseCollectionQuery } from '../api/query/collectionQuery';
import { parseQueryString, type QueryPair } from '../api/query/queryString';
import type { FilterCondition, OrderBy } from '../api/state/types';
import type { AdminApp, Choice } from './AdminApp';
import { itemLabel, type AdminResource } from './AdminResource';
import { displayValue } from './display';
import type { Translator } from './translations';
import { lastPage } from '../api/serializer/pagination';

/**
 * The index screen (EasyAdmin's `index` action): a page of items in a table, sorted by a column
 * (`?sort=title&direction=desc`, shown with `aria-sort`), searched across the text fields
 * (`?query=`, case-insensitive, any of them), filtered by the resource's own filters (the API's
 * query parameters: `featured=true`, `price[gte]=10`...), paginated (`?page=`). A parameter the
 * screen cannot read is a 400 naming it.
 * @module
 */

/** The index's own parameters; every other non-empty one is one of the resource's filters. */
const OWN = new Set(['page', 'sort', 'direction', 'query']);

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
  const filters = pairs.filter((p) => !OWN.has(p.name) && p.value !== '');
  const filterQuery = filters.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(p.value)}`).join('&');
  const parsed = parseCollectionQuery(filterQuery, admin.resource, { prefixes: app.prefixes, strict: true });
  const conditions: FilterCondition[] = [...parsed.conditions];
  if (text !== '' && admin.textFields.length > 0) {
    conditions.push({
      type: 'any',
      conditions: admin.textFields.map((property): FilterCondition => ({
        type: 'search', property, strategy: 'partial', values: [text],
      })),
    });
  }
  return {
    pairs, page: Number(pageText), direction, text, conditions,
    ...(sort !== undefined && sort !== '' ? { sort } : {}),
  };
}

async function filterControls(
  app: AdminApp, req: Request, admin: AdminResource, pairs: readonly QueryPair[], t: Translator,
): Promise<FilterControl[]> {
  const value = (name: string): string => pairs.find((p) => p.name === name)?.value ?? '';
  const yesNo = [{ value: '', label: t('index.any') }, { value: 'true', label: t('index.yes') },
    { value: 'false', label: t('index.no') }];
  const controls: FilterControl[] = [];
  for (const f of admin.resource.filters) {
    const field = admin.fields.find((x) => x.name === f.property);
    if (field === undefined || field.writeOnly) continue;
    const label = field.label;
    const input = (name: string, text: string, type: FilterControl['type']): FilterControl =>
      ({ name, label: text, type, value: value(name) });
    switch (f.type) {
      case 'search':
        if (field.kind === 'relation' && field.relation !== undefined) {
          const choices = [{ value: '', label: t('index.any') }, ...await app.relationChoices(req, field.relation)];
          controls.push({ ...input(f.property, label, 'select'), choices });
        } else if (field.kind === 'enum') {
          const values = (field.enumValues ?? []).map((v) => ({ value: v, label: v }));
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
 * The index screen's controller. A query string with empty parameters (the filter form's unused
 * fields) is answered 303 to the same list without them, the others (filters, sort, page) kept.
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
    const perPage = app.options.itemsPerPage;
    const order: OrderBy[] = q.sort === undefined ? [] : [{ property: q.sort, direction: q.direction }];
    const { resource } = admin;
    const result = await resource.provider!.provideCollection(resource.metadata, {
      conditions: q.conditions, order, page: q.page, itemsPerPage: perPage, partial: false,
    }, app.stateContext(req));
    const total = result.totalItems ?? result.items.length;
    const pages = lastPage(total, perPage);
    if (q.page > pages) {
      throw new InvalidQueryError(`The page ${q.page} is out of range: the last page is ${pages}.`);
    }
    const labels = await app.relationLabels(req, admin, result.items);
    const relatedUrl = (shortName: string, id: number): string | undefined => {
      const target = app.admins.get(shortName);
      return target === undefined ? undefined : app.url(req, target.slug, id);
    };
    const shown = admin.fields.filter((f) => !f.writeOnly);
    const here = app.url(req, admin.slug);
    const columns = [{ name: 'id', label: 'Id' }, ...shown].map((c) => {
      const sortable = admin.sortable.has(c.name);
      const active = q.sort === c.name;
      const next = active && q.direction === 'asc' ? 'desc' : 'asc';
      return {
        label: c.label,
        ariaSort: active ? (q.direction === 'asc' ? 'ascending' : 'descending') : sortable ? 'none' : undefined,
        url: sortable ? `${here}${queryOf(q.pairs, { sort: c.name, direction: next, page: undefined })}` : undefined,
        sortLabel: t('index.sort_by', { field: c.label }),
        active,
      };
    });
    const rows = result.items.map((item) => ({
      id: item.id,
      label: itemLabel(admin, item),
      cells: [{ text: String(item.id) },
        ...shown.map((f) => displayValue(f, item.data[f.name], t, labels, relatedUrl))],
      labels: ['Id', ...shown.map((f) => f.label)],
      show: app.url(req, admin.slug, item.id),
      edit: app.url(req, admin.slug, item.id, 'edit'),
      remove: app.url(req, admin.slug, item.id, 'delete'),
    }));
    const pageUrl = (page: number): string =>
      `${here}${queryOf(q.pairs, { page: page === 1 ? undefined : String(page) })}`;
    app.render(req, res, 200, 'index.html.njk', {
      admin,
      pageTitle: admin.shortName,
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
      searchFields: admin.textFields.join(', '),
      filters: await filterControls(app, req, admin, q.pairs, t),
      here,
      exportUrl: app.url(req, admin.slug, 'export.csv') + queryOf(q.pairs, { page: undefined }),
      newUrl: admin.writable ? app.url(req, admin.slug, 'new') : undefined,
      batchUrl: admin.writable ? app.url(req, admin.slug, 'batch-delete') : undefined,
    });
  };
}
