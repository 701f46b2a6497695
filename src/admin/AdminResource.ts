import type { z } from 'zod';
import { plural, snakeCase, type Resource } from '../api/resource/defineResource';
import { unwrapSchema } from '../api/schema/metadata';
import type { PropertyKind, StoredItem } from '../api/state/types';

/**
 * What the back office reads from a resource (EasyAdmin's CRUD controller and field
 * configuration, derived here from the API layer's resource): its slug, the form field of each
 * property, the columns it sorts and searches.
 * @module
 */

/** The HTML control of a property. */
export type FieldInput = 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'date' | 'datetime-local';

/** One property as a form field and a column. */
export interface AdminField {
  readonly name: string;
  /** From the name: `publishedAt` → `Published at`. */
  readonly label: string;
  readonly kind: PropertyKind;
  readonly input: FieldInput;
  /** The schema refuses absence and null (a checkbox is never required: unchecked is false). */
  readonly required: boolean;
  /** Shown, not editable (API Platform `writable: false`). */
  readonly readOnly: boolean;
  /** Editable, never shown (e.g. a password): left out of tables and detail pages. */
  readonly writeOnly: boolean;
  /** The schema's description (`.describe()` or `.meta({ description })`), shown under the field. */
  readonly help?: string;
  /** For `number`: `1` for integers, `any` for other numbers. */
  readonly step?: string;
  readonly enumValues?: readonly string[];
  /** For relations: the target's short name. */
  readonly relation?: string;
}

/** A resource as the back office shows it. */
export interface AdminResource {
  readonly resource: Resource;
  readonly shortName: string;
  /** The URL segment: the plural, kebab case (`books`, `book-reviews`). */
  readonly slug: string;
  /** The route name part: the plural, snake case (`books`, `book_reviews`). */
  readonly routeSlug: string;
  readonly fields: readonly AdminField[];
  /** Searched by `?query=` (case-insensitive, partial): string, text and enum properties. */
  readonly textFields: readonly string[];
  /** `id` and the properties a column header sorts by. */
  readonly sortable: ReadonlySet<string>;
  /** The property naming an item in titles and selects (the first string property), if any. */
  readonly labelField?: string;
  /** Whether the screens may write (the resource has a processor). */
  readonly writable: boolean;
}

const INPUTS: Readonly<Record<PropertyKind, FieldInput>> = {
  string: 'text', text: 'textarea', integer: 'number', number: 'number', boolean: 'checkbox',
  date: 'date', datetime: 'datetime-local', enum: 'select', relation: 'select',
};

/** `publishedAt` → `Published at`, `birth_date` → `Birth date`. */
export function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' ').toLowerCase().trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Reads a resource for the back office.
 * @param resource - as `defineResource` returned it
 */
export function adminResource(resource: Resource): AdminResource {
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const fields = resource.metadata.properties.map((p): AdminField => {
    const u = unwrapSchema(shape[p.name]);
    const help = u.meta.description;
    return Object.freeze({
      name: p.name,
      label: humanize(p.name),
      kind: p.kind,
      input: INPUTS[p.kind],
      required: !u.optional && !u.nullable && p.kind !== 'boolean',
      readOnly: p.readOnly,
      writeOnly: p.writeOnly,
      ...(help !== undefined && help !== '' ? { help } : {}),
      ...(p.kind === 'integer' ? { step: '1' } : p.kind === 'number' ? { step: 'any' } : {}),
      ...(p.enumValues !== undefined ? { enumValues: p.enumValues } : {}),
      ...(p.relation !== undefined ? { relation: p.relation } : {}),
    });
  });
  const shown = fields.filter((f) => !f.writeOnly);
  const snake = plural(snakeCase(resource.shortName));
  return Object.freeze({
    resource,
    shortName: resource.shortName,
    slug: snake.replace(/_/g, '-'),
    routeSlug: snake,
    fields: Object.freeze(fields),
    textFields: Object.freeze(shown.filter((f) => ['string', 'text', 'enum'].includes(f.kind)).map((f) => f.name)),
    sortable: new Set(['id', ...shown.filter((f) => f.kind !== 'text' && f.kind !== 'relation').map((f) => f.name)]),
    ...(shown.some((f) => f.kind === 'string')
      ? { labelField: shown.find((f) => f.kind === 'string')!.name } : {}),
    writable: resource.processor !== undefined,
  });
}

/** How an item is named: `Book #3 Dune` style, here `Dune (#3)`, or `Book #3` without a label field. */
export function itemLabel(admin: AdminResource, item: StoredItem): string {
  const label = admin.labelField === undefined ? undefined : item.data[admin.labelField];
  return typeof label === 'string' && label !== '' ? `${label} (#${item.id})` : `${admin.shortName} #${item.id}`;
}
