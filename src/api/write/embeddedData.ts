import type { Resource } from '../resource/defineResource';
import type { Violation } from '../http/ApiErrors';
import { ValidationError } from '../http/ApiErrors';
import { itemIri } from '../serializer/iri';
import { EmbeddedWrite } from '../state/embeddedWrite';
import type { IdentifierType } from '../state/identifier';
import type { PropertyMetadata, StoredItem } from '../state/types';
import { toStoredData } from './inputData';
import type { ValidationContextOptions } from './validationGroups';

/**
 * The nested documents of a body that the API accepted for writable embedded relations (API
 * Platform's writable links), on their way to the store: the denormalizer marks each one's
 * object ({@link markNestedDocument}), and {@link toStoredDataWithEmbedded} validates them with
 * their own resource's schema (violations at `author.name`, `tags[1].name`) and turns each into
 * an {@link EmbeddedWrite}.
 * @module
 */

/** What the denormalizer knows of a nested document it accepted. */
export interface NestedDocument {
  /** The related resource (`Author`). */
  readonly resource: Resource;
  /** The stored item the document names by its `@id` (an update), or null (a creation). */
  readonly previous: StoredItem | null;
  /** The `@id` (or `id`) the document named the stored item by, as sent. */
  readonly reference?: string;
}

const NESTED = new WeakMap<object, NestedDocument>();

/**
 * Marks `object` as an accepted nested document: the denormalized object of the related item
 * (its properties in the client's representation, relations as IRIs or nested documents).
 * @returns `object`
 */
export function markNestedDocument<T extends object>(object: T, document: NestedDocument): T {
  NESTED.set(object, document);
  return object;
}

/** The nested document `value` is, when the denormalizer accepted it as one. */
export function nestedDocumentOf(value: unknown): NestedDocument | undefined {
  return typeof value === 'object' && value !== null ? NESTED.get(value) : undefined;
}

/**
 * An IRI of the target that stands for a nested document while the parent's own schema is
 * checked: the stored item's for an update; for a creation, one any id of the target's
 * identifier type parses (the relation's value is then the EmbeddedWrite, never this id).
 */
function standIn(document: NestedDocument, prefix: string, baseUrl: string): string {
  if (document.previous !== null) return itemIri(prefix, document.previous.id, baseUrl);
  const type: IdentifierType = document.resource.metadata.identifier ?? 'integer';
  const any = type === 'uuid' ? '00000000-0000-7000-8000-000000000000' : type === 'integer' ? 1 : 'new';
  return itemIri(prefix, any, baseUrl);
}

/**
 * {@link toStoredData} with writable embedded relations: each nested document (to-one value or
 * to-many element) is validated with its resource's schema, recursively, and becomes an
 * {@link EmbeddedWrite} in the data; every violation, the parent's and the nested documents'
 * (prefixed with their path: `author.name`, `tags[1].name`), is in one 422.
 * @param path - the prefix of the violations' paths (`''` for the body's item)
 * @returns the data for the store; relations holding EmbeddedWrites where the body held nested documents
 * @throws ValidationError (422) as toStoredData does, with the nested documents' violations
 */
export function toStoredDataWithEmbedded(
  resource: Resource,
  object: Readonly<Record<string, unknown>>,
  prefixes: Readonly<Record<string, string>>,
  baseUrl: string,
  locale?: string,
  identifiers?: Readonly<Record<string, IdentifierType>>,
  path = '',
  validation?: ValidationContextOptions,
): Record<string, unknown> {
  const violations: Violation[] = [];
  const writes = new Map<string, Map<number, EmbeddedWrite>>();
  const plain: Record<string, unknown> = { ...object };
  const embed = (p: PropertyMetadata, value: unknown, at: string): EmbeddedWrite | string | undefined => {
    const document = nestedDocumentOf(value);
    if (document === undefined) return undefined;
    try {
      const data = toStoredDataWithEmbedded(
        document.resource, value as Record<string, unknown>, prefixes, baseUrl, locale, identifiers, `${at}.`,
      );
      const target = document.resource;
      return new EmbeddedWrite(target.shortName, target.metadata, data, at, document.previous ?? undefined,
        document.reference);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      violations.push(...error.violations);
      return standIn(document, prefixes[p.relation ?? ''] ?? '', baseUrl);
    }
  };
  for (const p of resource.metadata.properties) {
    if (p.readOnly || p.relation === undefined) continue;
    const value = object[p.name];
    const found = new Map<number, EmbeddedWrite>();
    const prefix = prefixes[p.relation] ?? '';
    if (p.kind === 'relation') {
      const w = embed(p, value, `${path}${p.name}`);
      if (w instanceof EmbeddedWrite) found.set(0, w);
      if (w !== undefined) {
        plain[p.name] = typeof w === 'string' ? w : standIn(nestedDocumentOf(value)!, prefix, baseUrl);
      }
    } else if (Array.isArray(value)) {
      plain[p.name] = (value as unknown[]).map((v, i) => {
        const w = embed(p, v, `${path}${p.name}[${i}]`);
        if (w instanceof EmbeddedWrite) found.set(i, w);
        return w === undefined ? v : typeof w === 'string' ? w : standIn(nestedDocumentOf(v)!, prefix, baseUrl);
      });
    }
    if (found.size > 0) writes.set(p.name, found);
  }
  let data: Record<string, unknown> = {};
  try {
    data = toStoredData(resource, plain, prefixes, baseUrl, locale, identifiers, validation);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    violations.unshift(...error.violations.map((v) => ({ ...v, propertyPath: `${path}${v.propertyPath}` })));
  }
  if (violations.length > 0) throw new ValidationError(violations);
  for (const [name, found] of writes) {
    const stored = data[name];
    data[name] = Array.isArray(stored) ? (stored as unknown[]).map((id, i) => found.get(i) ?? id) : found.get(0);
  }
  return data;
}
