import type { StoredItem } from '../api/state/types';
import type { AdminField, AdminResource } from './AdminResource';
import type { Translator } from './translations';

/** One cell of a table or a line of a detail page. */
export interface DisplayValue {
  readonly text: string;
  /** A link to the related item's detail page, for relations. */
  readonly url?: string;
}

/**
 * A stored value as text: yes/no for booleans, the related item's label for relations (with a
 * link to it), `—` for null.
 * @param labels - the related items' labels by `<shortName>:<id>` (`AdminApp.relationLabels`)
 * @param relatedUrl - the detail page of a related item
 */
export function displayValue(
  field: AdminField, value: unknown, t: Translator, labels: ReadonlyMap<string, string>,
  relatedUrl: (shortName: string, id: number) => string | undefined,
): DisplayValue {
  if (value === null || value === undefined) return { text: t('value.empty') };
  if (field.kind === 'boolean') return { text: value === true ? t('value.yes') : t('value.no') };
  if (field.kind === 'relation' && typeof value === 'number' && field.relation !== undefined) {
    const url = relatedUrl(field.relation, value);
    const text = labels.get(`${field.relation}:${value}`) ?? `#${value}`;
    return url === undefined ? { text } : { text, url };
  }
  return { text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** The shown (not write-only) fields of an item as label/value pairs, `id` first. */
export function detailRows(
  admin: AdminResource, item: StoredItem, t: Translator, labels: ReadonlyMap<string, string>,
  relatedUrl: (shortName: string, id: number) => string | undefined,
): Array<{ label: string; value: DisplayValue }> {
  return [
    { label: 'Id', value: { text: String(item.id) } },
    ...admin.fields.filter((f) => !f.writeOnly).map((f) => ({
      label: f.label, value: displayValue(f, item.data[f.name], t, labels, relatedUrl),
    })),
  ];
}
