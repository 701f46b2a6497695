import type { Request } from 'express';
import type { ItemId, StoredItem } from '../api';
import { formatInTimeZone } from '../timezone/formatInTimeZone';
import type { AdminField, AdminResource, Column } from './AdminResource';
import { localized } from './localized';
import { translatorFor, type Translator } from './translations';

/**
 * Stored values as the pages show them, per field type and locale (EasyAdmin's field
 * formatting): money and numbers through `Intl.NumberFormat`, dates and date-times through
 * `Intl.DateTimeFormat` (date-times in the request's time zone, `req.timeZone`, UTC by default),
 * choices by their label, e-mails and URLs as links, relations as the related item's label, an
 * embeddable value object as its fields' values (and, on the detail page, its labelled fields).
 * @module
 */

/** One cell of a table or a line of a detail page. */
export interface DisplayValue {
  readonly text: string;
  /** A link: the related item's page, a `mailto:` or an `http(s)` URL. */
  readonly url?: string;
  /** An embeddable value object's fields, as the detail page lists them (label, value). */
  readonly rows?: ReadonlyArray<{ readonly label: string; readonly value: DisplayValue }>;
}

/** What formatting needs from the request. */
export interface DisplayContext {
  readonly req: Request;
  readonly t: Translator;
  /** The related items' labels by `<shortName>:<id>` (`AdminApp.relationLabels`). */
  readonly labels: ReadonlyMap<string, string>;
  /** The detail page of a related item. */
  readonly relatedUrl: (shortName: string, id: ItemId) => string | undefined;
}

/** `fr_FR` → `fr-FR`; an unknown or malformed locale → `en`. */
export function intlLocale(locale: string | undefined): string {
  try {
    return Intl.getCanonicalLocales((locale ?? 'en').replace(/_/g, '-'))[0] ?? 'en';
  } catch {
    return 'en';
  }
}

function formatNumber(field: AdminField, value: number, locale: string): string {
  const digits = field.decimals === undefined ? {}
    : { minimumFractionDigits: field.decimals, maximumFractionDigits: field.decimals };
  return field.type === 'money' && field.currency !== undefined
    ? new Intl.NumberFormat(locale, { style: 'currency', currency: field.currency, ...digits }).format(value)
    : new Intl.NumberFormat(locale, digits).format(value);
}

/**
 * A stored value as text, after its field's type: yes/no for booleans, the related item's label
 * for relations (with a link to it), `—` for null.
 */
export function displayValue(field: AdminField, value: unknown, c: DisplayContext): DisplayValue {
  if (value === null || value === undefined) return { text: c.t('value.empty') };
  if (field.fields !== undefined && typeof value === 'object' && !Array.isArray(value)) {
    // an embeddable: its fields labelled (detail), the ones with a value joined (index, CSV)
    const object = value as Record<string, unknown>;
    const rows = field.fields.map((f) => ({
      label: localized(f.label, c.req.locale), value: displayValue(f, object[f.name], c),
    }));
    const filled = field.fields.filter((f) => object[f.name] !== null && object[f.name] !== undefined);
    return { text: filled.map((f) => displayValue(f, object[f.name], c).text).join(', '), rows };
  }
  const locale = intlLocale(c.req.locale);
  switch (field.type) {
    case 'boolean':
      return { text: value === true ? c.t('value.yes') : c.t('value.no') };
    case 'association': {
      if (Array.isArray(value) && field.relation !== undefined) {
        const target = field.relation;
        // a to-many relation, read-only: the related items' labels, comma-separated
        const names = (value as unknown[]).map((id) => c.labels.get(`${target}:${String(id)}`) ?? `#${String(id)}`);
        return { text: names.length === 0 ? c.t('value.empty') : names.join(', ') };
      }
      if ((typeof value !== 'number' && typeof value !== 'string') || field.relation === undefined) break;
      const url = c.relatedUrl(field.relation, value);
      const text = c.labels.get(`${field.relation}:${value}`) ?? `#${value}`;
      return url === undefined ? { text } : { text, url };
    }
    case 'number':
    case 'money':
      if (typeof value === 'number') return { text: formatNumber(field, value, locale) };
      break;
    case 'date':
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
        const day = new Date(`${value}T00:00:00Z`);
        return { text: new Intl.DateTimeFormat(locale, { dateStyle: field.dateStyle, timeZone: 'UTC' }).format(day) };
      }
      break;
    case 'datetime': {
      const when = typeof value === 'string' ? new Date(value) : undefined;
      if (when !== undefined && !Number.isNaN(when.getTime())) {
        return { text: formatInTimeZone(when, c.req, { dateStyle: field.dateStyle, timeStyle: 'long' }) };
      }
      break;
    }
    case 'choice': {
      const label = typeof value === 'string' ? field.choices?.[value] : undefined;
      if (label !== undefined) return { text: localized(label, c.req.locale) };
      break;
    }
    case 'email':
      if (typeof value === 'string') return { text: value, url: `mailto:${value}` };
      break;
    case 'url':
      if (typeof value === 'string' && /^https?:\/\//i.test(value)) return { text: value, url: value };
      break;
    case 'text':
    case 'textarea':
      break;
  }
  return { text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** The label of a column: `Id`, or its field's in the request's locale. */
export function columnLabel(column: Column, req: Request): string {
  if (column.field === undefined) return translatorFor(req.locale).t('field.id');
  return localized(column.field.label, req.locale);
}

/** The detail page's lines of an item, as label/value pairs, in the configured order. */
export function detailRows(
  admin: AdminResource, item: StoredItem, c: DisplayContext,
): Array<{ label: string; value: DisplayValue }> {
  return admin.detailColumns.map((col) => ({
    label: columnLabel(col, c.req),
    value: col.field === undefined ? { text: String(item.id) } : displayValue(col.field, item.data[col.field.name], c),
  }));
}
