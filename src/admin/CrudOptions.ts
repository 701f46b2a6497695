import { z } from 'zod';
import { KernelConfigError } from '../config/KernelConfigError';
import { invalidOption, unknownOptionMessage } from '../config/optionError';
import { integerFrom, nonEmptyString, optionsObject, wholeNumber } from '../config/optionSchemas';
import { type Resource, type PropertyMetadata, type ResourceMetadata } from '../api';
import { isResolvedPath, MAX_RELATIONS_CROSSED, propertyPath } from '../api/internals';
import { adminActionSchema } from './AdminAction';
import { DEFAULT_FIELD_TYPE, FIELD_TYPE_NAMES, FIELD_TYPES, type FieldType } from './fieldTypes';
import { localizedTextSchema } from './localized';

/**
 * The configuration of one resource's screens (EasyAdmin's CRUD controller: `configureCrud`,
 * `configureFields`, `configureActions`), given as `adminRoutes({ crud: { Book: {...} } })`.
 * The schema checks each value; {@link checkCrud} then checks it against the resource (field
 * names, types that fit each property), at start-up, with "did you mean" for mistyped names.
 * @module
 */

/** How a date is written (`Intl.DateTimeFormat`'s `dateStyle`). */
const DATE_STYLES = ['short', 'medium', 'long', 'full'] as const;

const CURRENCY = 'expected an ISO 4217 currency code such as "EUR"';

/** The schema of one field's configuration (`crud.<Resource>.fields.<name>`, EasyAdmin's `XxxField::new`). */
export const fieldOptionsSchema = optionsObject({
  /**
   * The widget: `text`, `textarea`, `number`, `money`, `email`, `url`, `boolean`, `choice`, `date`,
   * `datetime`, `association`. @default after the property's zod kind
   */
  type: z.enum(FIELD_TYPE_NAMES).optional(),
  /** The column header and form label. @default from the name: `publishedAt` → `Published at` */
  label: localizedTextSchema.optional(),
  /** Shown under the form field. @default the schema's `.describe()` */
  help: localizedTextSchema.optional(),
  /** For `money` (required there): the ISO 4217 code, e.g. `EUR`; the amount is stored in units (12.5 is 12.50 €). */
  currency: z.string({ error: CURRENCY }).regex(/^[A-Z]{3}$/, { error: CURRENCY }).optional(),
  /**
   * For `number` and `money`: digits after the decimal point, shown and typed.
   * @default the currency's, else as stored
   */
  decimals: wholeNumber(0, 10, 'digits').optional(),
  /** For `date` and `datetime`: how long the date is written (`Intl`'s `dateStyle`). @default 'medium' */
  dateStyle: z.enum(DATE_STYLES).optional(),
  /** For `choice`: the label of each value (an enum's values, or a string's allowed ones). @default the values */
  choices: z.record(z.string(), localizedTextSchema, { error: 'expected an object of labels by value' }).optional(),
  /** For `boolean`: a switch, toggled from the index by a small form. @default true */
  renderAsSwitch: z.boolean().optional(),
  /** Whether its column header sorts the index. @default true, but for textareas and associations */
  sortable: z.boolean().optional(),
});

const fieldList = z.array(nonEmptyString, { error: 'expected an array of field names' });

/** The schema of one resource's configuration (`crud.<shortName>`). */
export const crudOptionsSchema = optionsObject({
  /** The resource's name for one item (`New book`). @default the short name */
  entityLabelInSingular: localizedTextSchema.optional(),
  /** Its name for the list (menu, index title). @default the singular */
  entityLabelInPlural: localizedTextSchema.optional(),
  /** Shown under the index's title. */
  help: localizedTextSchema.optional(),
  /** Each field's configuration, by property name. */
  fields: z.record(z.string(), fieldOptionsSchema, { error: 'expected an object of field options by name' })
    .optional(),
  /** The index's columns, in order (`id` may be one). @default `id`, then every property not write-only */
  index: fieldList.optional(),
  /** The detail page's lines, in order (`id` may be one). @default as the index */
  detail: fieldList.optional(),
  /** The form's fields, in order. @default every property */
  form: fieldList.optional(),
  /**
   * The properties `?query=` searches (string, text and enum ones), a related item's too through
   * its relation (`author.name`: a book is found by its author's name; at most 3 relations).
   * @default every string, text and enum property of the resource's own
   * @example ['title', 'author.name']
   */
  searchFields: fieldList.optional(),
  /** The index's order when the URL gives none (EasyAdmin's `setDefaultSort`). @example { title: 'asc' } */
  defaultSort: z.record(z.string(), z.enum(['asc', 'desc'])).optional(),
  /** Rows per index page. @default the back office's `itemsPerPage` */
  paginatorPageSize: integerFrom(1).max(100, { error: 'expected at most 100' }).optional(),
  /** The property naming an item (titles, a relation's cells and choices). @default the first string property */
  labelProperty: nonEmptyString.optional(),
  /** Custom actions on rows and on the selection. */
  actions: z.array(adminActionSchema, { error: 'expected an array of actions' }).optional(),
});

/** Options of one resource's screens. */
export type CrudOptions = z.input<typeof crudOptionsSchema>;
/** Options of one field. */
export type FieldOptions = z.input<typeof fieldOptionsSchema>;

/** The option naming a key that is not known: `unknown <what>; did you mean "…"?`. */
function unknownName(option: string, what: string, name: string, known: readonly string[]): KernelConfigError {
  return new KernelConfigError(option, unknownOptionMessage(name, known).replace('unknown option', `unknown ${what}`));
}

const TYPE_OPTIONS: ReadonlyArray<[keyof FieldOptions, readonly FieldType[]]> = [
  ['currency', ['money']], ['decimals', ['number', 'money']], ['dateStyle', ['date', 'datetime']],
  ['choices', ['choice']], ['renderAsSwitch', ['boolean']],
];

function checkField(option: string, p: PropertyMetadata, f: FieldOptions): void {
  const type = f.type ?? DEFAULT_FIELD_TYPE[p.kind];
  const fitting = FIELD_TYPE_NAMES.filter((t) => FIELD_TYPES[t].kinds.includes(p.kind));
  if (!FIELD_TYPES[type].kinds.includes(p.kind)) {
    throw invalidOption(`${option}.type`, `expected a type for a ${p.kind} property: ${fitting.join(', ')}`, type);
  }
  for (const [key, types] of TYPE_OPTIONS) {
    if (f[key] !== undefined && !types.includes(type)) {
      throw invalidOption(`${option}.${key}`, `only a ${types.join(' or ')} field has it; this one is ${type}`, f[key]);
    }
  }
  if (type === 'money' && f.currency === undefined) {
    throw invalidOption(`${option}.currency`, 'a money field needs its currency', undefined, { hint: 'e.g. "EUR"' });
  }
  if (type === 'choice') {
    const values = p.enumValues ?? Object.keys(f.choices ?? {});
    if (values.length === 0) {
      throw invalidOption(`${option}.choices`, 'a choice field of a string property needs its choices', f.choices);
    }
    for (const value of Object.keys(f.choices ?? {})) {
      if (!values.includes(value)) throw unknownName(`${option}.choices.${value}`, 'value', value, values);
    }
  }
}

/**
 * The property at the end of a path through relations (`author.name`).
 * @throws KernelConfigError naming the segment that does not resolve (did you mean, for a name)
 */
function relatedField(
  option: string, resource: ResourceMetadata, path: string,
  resolve: (shortName: string) => ResourceMetadata | undefined,
): PropertyMetadata {
  const found = propertyPath(resource, path, resolve);
  if (isResolvedPath(found)) return found.property;
  const { segment, resource: at } = found;
  switch (found.problem) {
    case 'unknown_property':
      throw unknownName(option, `field of ${at.shortName}`, segment,
        at.properties.filter((p) => !p.writeOnly).map((p) => p.name));
    case 'not_a_relation':
      throw invalidOption(option, `expected a relation before each dot; ${at.shortName}.${segment} is not one`, path);
    case 'unknown_resource':
      throw invalidOption(option, `${at.shortName}.${segment} leads to a resource the back office does not list`, path);
    case 'too_deep':
      throw invalidOption(option, `expected at most ${MAX_RELATIONS_CROSSED} relations in a path`, path);
  }
}

/**
 * Checks a resource's configuration against the resource, after the schema's parse.
 * @param resource - the configured resource
 * @param crud - its parsed configuration
 * @param option - where it sits, e.g. `admin.crud.Book`
 * @throws KernelConfigError for a name that is not a property (with "did you mean"), a type
 *   that does not fit its property, an option of another type, a money field without currency,
 *   a list naming a field twice or a write-only field, a search field that is not text (or a
 *   path through relations that does not lead to one), a default sort on a field that does not
 *   sort, a label property that is not a string, or two actions of one name
 * @param resolve - a listed resource's metadata by short name (the targets of `searchFields`
 *   paths such as `author.name`)
 */
export function checkCrud(
  resource: Resource, crud: CrudOptions, option: string,
  resolve: (shortName: string) => ResourceMetadata | undefined = () => undefined,
): void {
  const byName = new Map(resource.metadata.properties.map((p) => [p.name, p]));
  const names = [...byName.keys()];
  const property = (path: string, name: string, withId = false): PropertyMetadata | undefined => {
    if (withId && name === 'id') return undefined;
    const p = byName.get(name);
    if (p === undefined) throw unknownName(path, 'field', name, withId ? ['id', ...names] : names);
    return p;
  };
  for (const [name, f] of Object.entries(crud.fields ?? {})) {
    checkField(`${option}.fields.${name}`, property(`${option}.fields.${name}`, name)!, f);
  }
  for (const list of ['index', 'detail', 'form'] as const) {
    const seen = new Set<string>();
    for (const [i, name] of (crud[list] ?? []).entries()) {
      const path = `${option}.${list}[${i}]`;
      if (seen.has(name)) throw invalidOption(path, 'expected each field once', name);
      seen.add(name);
      const p = property(path, name, list !== 'form');
      if (p?.writeOnly === true && list !== 'form') {
        throw invalidOption(path, 'a write-only field is never shown', name);
      }
    }
  }
  for (const [i, name] of (crud.searchFields ?? []).entries()) {
    const p = name.includes('.') ? relatedField(`${option}.searchFields[${i}]`, resource.metadata, name, resolve)
      : property(`${option}.searchFields[${i}]`, name)!;
    if (!['string', 'text', 'enum'].includes(p.kind) || p.writeOnly) {
      throw invalidOption(`${option}.searchFields[${i}]`, 'expected a string, text or enum field that is shown', name);
    }
  }
  for (const name of Object.keys(crud.defaultSort ?? {})) {
    const p = property(`${option}.defaultSort.${name}`, name, true);
    const type = p === undefined ? 'number' : crud.fields?.[name]?.type ?? DEFAULT_FIELD_TYPE[p.kind];
    if (p !== undefined && (p.writeOnly || crud.fields?.[name]?.sortable === false
      || (crud.fields?.[name]?.sortable !== true && (type === 'textarea' || type === 'association')))) {
      throw invalidOption(`${option}.defaultSort.${name}`, 'expected a field that sorts the index', name);
    }
  }
  if (crud.labelProperty !== undefined) {
    const p = property(`${option}.labelProperty`, crud.labelProperty)!;
    if (!['string', 'text', 'enum'].includes(p.kind) || p.writeOnly) {
      throw invalidOption(`${option}.labelProperty`, 'expected a string property that is shown', crud.labelProperty);
    }
  }
  const actions = new Set<string>();
  for (const [i, a] of (crud.actions ?? []).entries()) {
    if (actions.has(a.name)) {
      throw invalidOption(`${option}.actions[${i}].name`, 'expected one action per name', a.name);
    }
    actions.add(a.name);
  }
}
