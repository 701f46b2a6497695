import type { PropertyKind } from '../api';

/**
 * The field types of the back office (EasyAdmin's `TextField`, `MoneyField`, `BooleanField`...):
 * what each one can show and the form control it renders. A new type is one entry of
 * {@link FIELD_TYPES} (the compiler asks for it) plus its case in `display.ts`'s formatting.
 * @module
 */

/** A field's type, as `fields.<name>.type` names it. */
export type FieldType =
  | 'text' | 'textarea' | 'number' | 'money' | 'email' | 'url' | 'boolean' | 'choice' | 'date' | 'datetime'
  | 'association';

/** The HTML control of a field on the forms. */
export type FieldInput =
  | 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'date' | 'datetime-local' | 'email' | 'url';

/** What one field type needs and gives. */
export interface FieldTypeSpec {
  /** The property kinds (the zod schema's) it can show. */
  readonly kinds: readonly PropertyKind[];
  /** Its form control. */
  readonly input: FieldInput;
}

/** Every field type, by name. */
export const FIELD_TYPES: Readonly<Record<FieldType, FieldTypeSpec>> = Object.freeze({
  text: { kinds: ['string', 'text'], input: 'text' },
  textarea: { kinds: ['string', 'text'], input: 'textarea' },
  number: { kinds: ['integer', 'number'], input: 'number' },
  money: { kinds: ['integer', 'number'], input: 'number' },
  email: { kinds: ['string'], input: 'email' },
  url: { kinds: ['string'], input: 'url' },
  boolean: { kinds: ['boolean'], input: 'checkbox' },
  choice: { kinds: ['string', 'enum'], input: 'select' },
  date: { kinds: ['date'], input: 'date' },
  datetime: { kinds: ['datetime'], input: 'datetime-local' },
  association: { kinds: ['relation', 'relations'], input: 'select' },
});

/** The names of the field types, for messages. */
export const FIELD_TYPE_NAMES = Object.freeze(Object.keys(FIELD_TYPES) as FieldType[]);

/** The type a property gets when the configuration names none (its zod kind decides). */
export const DEFAULT_FIELD_TYPE: Readonly<Record<PropertyKind, FieldType>> = Object.freeze({
  string: 'text', text: 'textarea', integer: 'number', number: 'number', boolean: 'boolean',
  date: 'date', datetime: 'datetime', enum: 'choice', relation: 'association', relations: 'association',
  json: 'textarea', // shown, never edited: AdminResource makes a json field read-only
  embedded: 'textarea', // its fields shown labelled (display.ts), read-only on the form
});
