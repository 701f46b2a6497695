import type { StoredItem } from '../api';
import type { AdminField, AdminResource } from './AdminResource';
import type { AuditFieldChange } from './AuditLog';

/**
 * From an HTML form's fields (`application/x-www-form-urlencoded`, every value a string, a
 * repeated name an array) to the object the API layer validates (`toStoredData` of
 * `src/api/write`, the same validation and messages as the API's 422), and from stored items
 * back to form values. Nothing is validated here: a value that cannot be converted is passed on
 * as it came, so the schema refuses it with its own message.
 * @module
 */

/** What a form control shows: text, or a checkbox's state. */
export type FormValue = string | boolean;

const NUMBER = /^-?\d+(?:[.,]\d+)?$/;
const LOCAL_DATETIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?$/;
const CHECKED = new Set(['1', 'on', 'true']);
const UNCHECKED = new Set(['0', 'off', 'false', '']);

function fieldValue(field: AdminField, raw: unknown, relationPrefix: string): unknown {
  if (field.kind === 'boolean') {
    if (raw === undefined) return false; // an unchecked box sends nothing
    if (typeof raw === 'string' && CHECKED.has(raw)) return true;
    if (typeof raw === 'string' && UNCHECKED.has(raw)) return false;
    return raw;
  }
  if (typeof raw !== 'string') return raw; // absent (the schema decides) or an array (refused)
  if (raw === '') return field.required ? (field.kind === 'string' || field.kind === 'text' ? raw : undefined) : null;
  switch (field.kind) {
    case 'integer':
    case 'number':
      return NUMBER.test(raw.trim()) ? Number(raw.trim().replace(',', '.')) : raw;
    case 'relation':
      // a select's value is the item's id (of any identifier type); an IRI is read as it is
      return raw.startsWith('/') ? raw : `${relationPrefix}/${encodeURIComponent(raw)}`;
    case 'datetime': {
      const m = LOCAL_DATETIME.exec(raw);
      return m === null ? raw : `${m[1]}${m[2] ?? ':00'}Z`;
    }
    default:
      return raw;
  }
}

/**
 * The object a form submits, for `toStoredData`: every editable property; an empty field is null
 * (or, when the property is required, absent or `''`, which the schema refuses); numbers and
 * booleans converted; a relation's id as the target's IRI; a `datetime-local` value read as UTC.
 * A property the form does not show (`crud.form`) keeps its `current` value (none on create).
 * @param body - the parsed form body
 * @param prefixes - each resource's collection path by short name (relation IRIs)
 * @param current - the stored item's data, on edit
 */
export function formObject(
  admin: AdminResource, body: Readonly<Record<string, unknown>>, prefixes: Readonly<Record<string, string>>,
  current: Readonly<Record<string, unknown>> | null = null,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const onForm = new Set(admin.formFields.map((f) => f.name));
  for (const field of admin.fields) {
    if (field.readOnly) continue;
    const prefix = prefixes[field.relation ?? ''] ?? '';
    if (!onForm.has(field.name)) {
      // a field the form does not show keeps its stored value (a relation's as its IRI)
      const stored = current?.[field.name];
      if (stored !== undefined && stored !== null) {
        object[field.name] = field.kind === 'relation' ? `${prefix}/${stored as number}` : stored;
      } else if (current !== null) object[field.name] = null;
      continue;
    }
    const raw = Object.prototype.hasOwnProperty.call(body, field.name) ? body[field.name] : undefined;
    const value = fieldValue(field, raw, prefix);
    if (value !== undefined) object[field.name] = value;
  }
  return object;
}

/** The values a form redisplays after a refusal: what was sent, as text (an array's first value). */
export function submittedValues(
  admin: AdminResource, body: Readonly<Record<string, unknown>>,
): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of admin.idField !== undefined ? [admin.idField, ...admin.fields] : admin.fields) {
    const raw = Object.prototype.hasOwnProperty.call(body, field.name) ? body[field.name] : undefined;
    const text = Array.isArray(raw) ? String(raw[0] ?? '') : typeof raw === 'string' ? raw : '';
    values[field.name] = field.kind === 'boolean' ? CHECKED.has(text) : text;
  }
  return values;
}

/** A stored value as a form control shows it (a datetime as `datetime-local` wants: UTC, minutes). */
export function formValue(field: AdminField, value: unknown): FormValue {
  if (field.kind === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  if (field.kind === 'datetime' && typeof value === 'string') return value.slice(0, 16);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The form values of a stored item (write-only properties empty), or of a new one (defaults empty). */
export function itemValues(admin: AdminResource, item: StoredItem | null): Record<string, FormValue> {
  const values: Record<string, FormValue> = {};
  for (const field of admin.fields) {
    const stored = item === null || field.writeOnly ? null : item.data[field.name];
    values[field.name] = formValue(field, stored);
  }
  return values;
}

/**
 * What a change did to each property, for the audit log: on create (`before` null) every non-null
 * value (`to`), on update the values that differ (`from`, `to`), on delete (`after` null) every
 * non-null value (`from`). A write-only property is named without its values (never logged).
 */
export function fieldChanges(
  admin: AdminResource, before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>> | null,
): AuditFieldChange[] {
  const changes: AuditFieldChange[] = [];
  for (const f of admin.fields) {
    const a = before === null ? null : before[f.name] ?? null;
    const b = after === null ? null : after[f.name] ?? null;
    const changed = before === null ? b !== null
      : after === null ? a !== null : JSON.stringify(a) !== JSON.stringify(b);
    if (!changed) continue;
    changes.push(f.writeOnly ? { field: f.name } : {
      field: f.name, ...(before === null ? {} : { from: a }), ...(after === null ? {} : { to: b }),
    });
  }
  return changes;
}
