import { z } from 'zod';
import {
  type Resource, type OrderBy, type PropertyKind, type PropertyMetadata, type StoredItem, type ResolvedPropertyPath,
  type ResourceMetadata,
} from '../api';
import { plural, snakeCase } from '../api/internals';
import { unwrapSchema } from '../api/internals';
import { isResolvedPath, propertyPath } from '../api/internals';
import type { AdminAction } from './AdminAction';
import type { CrudOptions, FieldOptions } from './CrudOptions';
import { DEFAULT_FIELD_TYPE, FIELD_TYPES, type FieldInput, type FieldType } from './fieldTypes';
import type { LocalizedText } from './localized';

/**
 * What the back office reads from a resource and its configuration (EasyAdmin's CRUD controller
 * and fields): its names, slug, the fields of each page in order, each field's type and
 * formatting, the columns it sorts and searches, its default sort, page size and actions.
 * @module
 */

export type { FieldInput } from './fieldTypes';

/** One property as a form field and a column. */
export interface AdminField {
  readonly name: string;
  /** As configured, else from the name: `publishedAt` → `Published at`. */
  readonly label: LocalizedText;
  readonly kind: PropertyKind;
  /** The widget (EasyAdmin's field class). */
  readonly type: FieldType;
  readonly input: FieldInput;
  /** The schema refuses absence and null (a checkbox is never required: unchecked is false). */
  readonly required: boolean;
  /** Shown, not editable (API Platform `writable: false`). */
  readonly readOnly: boolean;
  /** Editable, never shown (e.g. a password): left out of tables and detail pages. */
  readonly writeOnly: boolean;
  /** As configured, else the schema's description (`.describe()` or `.meta({ description })`). */
  readonly help?: LocalizedText;
  /** For number inputs: `1` for integers, `0.01` for two decimals, `any` for other numbers. */
  readonly step?: string;
  /** For choices: the values offered (an enum's, or the configured ones). */
  readonly enumValues?: readonly string[];
  /** For choices: the configured label of some values. */
  readonly choices?: Readonly<Record<string, LocalizedText>>;
  /** For money: the ISO 4217 code. */
  readonly currency?: string;
  /** For numbers and money: digits after the point. */
  readonly decimals?: number;
  /** For dates and date-times: `Intl`'s `dateStyle`. */
  readonly dateStyle: 'short' | 'medium' | 'long' | 'full';
  /** For booleans: a switch on the form, toggled from the index. */
  readonly renderAsSwitch: boolean;
  /** Its column header sorts the index. */
  readonly sortable: boolean;
  /** For relations: the target's short name. */
  readonly relation?: string;
  /**
   * For an embeddable value object (`embeddable()`): its fields, each a field of its own (label
   * and formatting from the field's schema), which the index summarises and the detail page lists.
   */
  readonly fields?: readonly AdminField[];
}

/** A resource as the back office shows it. */
export interface AdminResource {
  readonly resource: Resource;
  readonly shortName: string;
  /** One item's name (`New book`). */
  readonly singular: LocalizedText;
  /** The list's name (menu, index title). */
  readonly plural: LocalizedText;
  /** Shown under the index's title. */
  readonly help?: LocalizedText;
  /** The URL segment: the plural, kebab case (`books`, `book-reviews`). */
  readonly slug: string;
  /** The route name part: the plural, snake case (`books`, `book_reviews`). */
  readonly routeSlug: string;
  /** Every property, in the schema's order. */
  readonly fields: readonly AdminField[];
  /** The index's columns, in order (`id` among them when shown). */
  readonly indexColumns: readonly Column[];
  /** The detail page's lines, in order. */
  readonly detailColumns: readonly Column[];
  /** The form's fields, in order. */
  readonly formFields: readonly AdminField[];
  /**
   * The new form's `id` field, first on it, when clients choose the id (a `string` identifier,
   * required; a writable `z.uuid()`, optional: blank lets the store pick). The API reads the same
   * id from a POST body (`clientId`); an edit form never shows it (an item keeps its id).
   */
  readonly idField?: AdminField;
  /** Searched by `?query=` (case-insensitive, partial): property names, or paths (`author.name`). */
  readonly textFields: readonly string[];
  /** The same, resolved: each wraps its condition in the relations it crosses. */
  readonly searchPaths: readonly ResolvedPropertyPath[];
  /** `id` and the properties a column header sorts by. */
  readonly sortable: ReadonlySet<string>;
  /** The order when the URL gives none. */
  readonly defaultSort: readonly OrderBy[];
  /** Rows per index page, when configured. */
  readonly pageSize?: number;
  /** The property naming an item in titles and selects (configured, else the first string property), if any. */
  readonly labelField?: string;
  /** Whether the screens may write (the resource has a processor). */
  readonly writable: boolean;
  /** Custom actions. */
  readonly actions: readonly AdminAction[];
}

/** A column of the index or a line of the detail page: the id, or a field. */
export type Column =
  | { readonly name: 'id'; readonly field?: undefined }
  | { readonly name: string; readonly field: AdminField };

/** `publishedAt` → `Published at`, `birth_date` → `Birth date`. */
export function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The digits a currency is written with (EUR: 2, JPY: 0). */
function currencyDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

function stepOf(kind: PropertyKind, type: FieldType, decimals: number | undefined): string | undefined {
  if (kind === 'integer') return '1';
  if (type !== 'number' && type !== 'money') return undefined;
  return decimals === undefined ? 'any' : decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`;
}

/** A property as a field: widget and formatting from its schema and the configured options. */
function adminField(p: PropertyMetadata, schema: z.ZodType, o: FieldOptions): AdminField {
  const u = unwrapSchema(schema);
  const type = o.type ?? DEFAULT_FIELD_TYPE[p.kind];
  const help = o.help ?? (u.meta.description !== '' ? u.meta.description : undefined);
  const decimals = o.decimals
    ?? (type === 'money' && o.currency !== undefined ? currencyDigits(o.currency) : undefined);
  const step = stepOf(p.kind, type, decimals);
  const enumValues = p.enumValues ?? (o.choices !== undefined ? Object.keys(o.choices) : undefined);
  return Object.freeze({
    name: p.name,
    label: o.label ?? humanize(p.name),
    kind: p.kind,
    type,
    input: FIELD_TYPES[type].input,
    required: !u.optional && !u.nullable && p.kind !== 'boolean',
    // the back office has no control for an array or object, nor for a list of items, yet: it shows
    // a json, embeddable or to-many value, read-only
    readOnly: p.readOnly || p.kind === 'json' || p.kind === 'embedded' || p.kind === 'relations',
    writeOnly: p.writeOnly,
    ...(help !== undefined ? { help } : {}),
    ...(step !== undefined ? { step } : {}),
    ...(enumValues !== undefined ? { enumValues } : {}),
    ...(o.choices !== undefined ? { choices: o.choices } : {}),
    ...(o.currency !== undefined ? { currency: o.currency } : {}),
    ...(decimals !== undefined ? { decimals } : {}),
    dateStyle: o.dateStyle ?? 'medium',
    renderAsSwitch: type === 'boolean' && o.renderAsSwitch !== false,
    sortable: !p.writeOnly && (o.sortable ?? (type !== 'textarea' && type !== 'association')),
    ...(p.relation !== undefined ? { relation: p.relation } : {}),
    ...(p.embeddable !== undefined ? { fields: embeddableFields(p, u.inner) } : {}),
  });
}

/** An embeddable's fields as fields of their own (no options: each from its schema). */
function embeddableFields(p: PropertyMetadata, object: z.ZodType): readonly AdminField[] {
const shape = ((object as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {});
return Object.freeze(p.embeddable!.fields.map((f) => adminField(f, shape[f.name], {})));
}

/** The new form's `id` field of a resource whose clients choose ids (see `AdminResource.idField`). */
function clientIdField(resource: Resource): AdminField | undefined {
  const { type, writable, parts, schema } = resource.identifier;
  if (!writable || parts !== undefined) return undefined;
  const required = type === 'string';
  const field: PropertyMetadata = {
    name: 'id', kind: 'string', nullable: !required, readOnly: false, writeOnly: false,
  };
  const base = schema ?? z.string();
  return adminField(field, required ? base : base.optional(), { label: 'Id', sortable: false });
}

/**
 * Reads a resource and its configuration for the back office.
 * @param resource - as `defineResource` returned it
 * @param crud - its configuration, checked by `checkCrud` (none: every default)
 * @param resolve - a listed resource's metadata by short name (for `searchFields` paths such as
 *   `author.name`, checked by `checkCrud`; a path that does not resolve is left out)
 */
export function adminResource(
  resource: Resource, crud: CrudOptions = {},
  resolve: (shortName: string) => ResourceMetadata | undefined = () => undefined,
): AdminResource {
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const fields = resource.metadata.properties.map((p) => adminField(p, shape[p.name], crud.fields?.[p.name] ?? {}));
  const byName = new Map(fields.map((f) => [f.name, f]));
  const idField = clientIdField(resource);
  const shown = fields.filter((f) => !f.writeOnly);
  const column = (name: string): Column => (name === 'id' ? { name: 'id' } : { name, field: byName.get(name)! });
  const indexColumns = (crud.index ?? ['id', ...shown.map((f) => f.name)]).map(column);
  const snake = plural(snakeCase(resource.shortName));
  const labelField = crud.labelProperty ?? shown.find((f) => f.kind === 'string')?.name;
  const singular = crud.entityLabelInSingular ?? resource.shortName;
  const textFields = crud.searchFields
    ?? shown.filter((f) => ['string', 'text', 'enum'].includes(f.kind)).map((f) => f.name);
  const searchPaths = textFields.map((path) => propertyPath(resource.metadata, path, resolve)).filter(isResolvedPath);
  return Object.freeze({
    resource,
    shortName: resource.shortName,
    singular,
    plural: crud.entityLabelInPlural ?? singular,
    ...(crud.help !== undefined ? { help: crud.help } : {}),
    slug: snake.replace(/_/g, '-'),
    routeSlug: snake,
    fields: Object.freeze(fields),
    indexColumns: Object.freeze(indexColumns),
    detailColumns: Object.freeze(crud.detail?.map(column) ?? indexColumns),
    formFields: Object.freeze((crud.form ?? fields.map((f) => f.name)).map((name) => byName.get(name)!)),
    ...(idField !== undefined ? { idField } : {}),
    textFields: Object.freeze(textFields),
    searchPaths: Object.freeze(searchPaths),
    sortable: new Set(['id', ...shown.filter((f) => f.sortable).map((f) => f.name)]),
    defaultSort: Object.freeze(Object.entries(crud.defaultSort ?? {})
      .map(([property, direction]): OrderBy => ({ property, direction }))),
    ...(crud.paginatorPageSize !== undefined ? { pageSize: crud.paginatorPageSize } : {}),
    ...(labelField !== undefined ? { labelField } : {}),
    writable: resource.processor !== undefined,
    actions: Object.freeze((crud.actions ?? []).map((a): AdminAction => Object.freeze({
      name: a.name, label: a.label, scope: a.scope ?? 'both', run: a.run,
      ...(a.confirmation !== undefined ? { confirmation: a.confirmation } : {}),
      ...(a.role !== undefined ? { role: a.role } : {}),
    }))),
  });
}

/** How an item is named: `Dune (#3)`, or `Book #3` without a label (the short name, or the given singular). */
export function itemLabel(admin: AdminResource, item: StoredItem, singular: string = admin.shortName): string {
  const label = admin.labelField === undefined ? undefined : item.data[admin.labelField];
  return typeof label === 'string' && label !== '' ? `${label} (#${item.id})` : `${singular} #${item.id}`;
}
