import { z } from 'zod';
import type { Resource } from '../resource/defineResource';
import type { Violation } from '../http/ApiErrors';
import { ValidationError } from '../http/ApiErrors';
import { kindDefinition } from '../property/propertyKinds';
import { unwrapSchema } from '../schema/metadata';
import { violationMessages } from './violationMessages';
import type { IdentifierType } from '../state/identifier';
import {
  hasValidationGroups, schemaForGroups, validationSteps, type ValidationContextOptions,
} from './validationGroups';

/**
 * From a denormalized object (what the client sent, merged for PATCH) to the data a store
 * keeps: validation by the resource's zod schema (API Platform's validator), relation IRIs to
 * ids, date-times to UTC ISO strings. readOnly properties and `id` are not written.
 * @module
 */

const INPUT_SCHEMAS = new WeakMap<Resource, z.ZodObject>();

/** The schema of what clients may write: the resource's schema without `id` and readOnly properties. */
export function inputSchema(resource: Resource): z.ZodObject {
  let schema = INPUT_SCHEMAS.get(resource);
  if (schema === undefined) {
    const omitted: Record<string, true> = {};
    if ('id' in resource.schema.shape) omitted.id = true;
    for (const p of resource.metadata.properties) if (p.readOnly) omitted[p.name] = true;
    schema = resource.schema.omit(omitted);
    INPUT_SCHEMAS.set(resource, schema);
  }
  return schema;
}

const NULLABLE = new WeakMap<Resource, ReadonlySet<string>>();

/** The properties whose schema accepts null (`.nullable()`), not only absence (`.optional()`, `.default()`). */
export function nullableProperties(resource: Resource): ReadonlySet<string> {
  let set = NULLABLE.get(resource);
  if (set === undefined) {
    const shape = resource.schema.shape as Record<string, z.ZodType>;
    // a property with validation groups may be left empty by a write outside them
    set = new Set(resource.metadata.properties
      .filter((p) => unwrapSchema(shape[p.name]).nullable || hasValidationGroups(shape[p.name])).map((p) => p.name));
    NULLABLE.set(resource, set);
  }
  return set;
}

/**
 * The writable properties of an object; an absent property is null when its schema accepts null
 * (PUT replaces every property), else left absent (its default applies, or it is required). A
 * datetime with an offset, as the API writes them, is read as UTC (`utcDateTime`).
 */
export function writableView(resource: Resource, object: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const nullable = nullableProperties(resource);
  for (const p of resource.metadata.properties) {
    if (p.readOnly) continue;
    const v = Object.prototype.hasOwnProperty.call(object, p.name) ? object[p.name] : undefined;
    const before = kindDefinition(p.kind).beforeValidation;
    if (v !== undefined) out[p.name] = before === undefined || v === null ? v : before(v, p);
    else if (nullable.has(p.name)) out[p.name] = null;
  }
  return out;
}

/** The violation code of a string holding U+0000. */
export const NUL_CHARACTER = 'nul_character';

/**
 * One violation per writable property whose string holds a NUL character (U+0000): PostgreSQL's
 * text cannot store one (`invalid byte sequence for encoding "UTF8": 0x00`, a 500) and SQLite
 * cuts C strings at it, so it is refused before any store sees it, a 422 on every store.
 */
function nulViolations(view: Readonly<Record<string, unknown>>, message: string): Violation[] {
  const found: Violation[] = [];
  for (const [name, v] of Object.entries(view)) {
    const path = nulPath(v, name);
    if (path !== undefined) found.push({ propertyPath: path, code: NUL_CHARACTER, message });
  }
  return found;
}

/**
 * The path of the first string or key holding a NUL inside `value` (a json property's arrays and
 * objects included: PostgreSQL's jsonb refuses `\u0000` anywhere), or undefined. The body's depth
 * is bounded by the JSON parser (512 levels).
 */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, v] of Object.entries(value)) {
    const inner = `${path}.${key}`;
    if (key.includes('\u0000')) return inner;
    const found = nulPath(v, inner);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Validates `object` and converts it to stored data: what the API's writes (POST, PUT, PATCH)
 * and the back office's forms go through, so both give the same 422 for the same input.
 * @param resource - the resource written to
 * @param object - the input, JSON-shaped: writable properties only are read, a relation as its IRI
 *   (`/api/authors/3`, or the id itself)
 * @param prefixes - collection path by short name (relations' IRIs)
 * @param baseUrl - the mount path IRIs may carry
 * @param locale - the request's locale (`req.locale`): the violations' language (zod's locale for
 *   the schema's constraints, see {@link violationMessages}); undefined reads English
 * @param identifiers - the identifier type of each resource by short name (relations' IRIs);
 *   a resource left out has `integer` ids
 * @param validation - the operation's `validationContext`: the groups whose constraints are
 *   checked (`validationGroups()`); a `GroupSequence` reports its first step with violations
 * @returns every writable property, in the contract's value shapes
 * @throws ValidationError (422) with one violation per failed constraint (of the active groups),
 *   bad relation IRI or string holding a NUL character (code {@link NUL_CHARACTER})
 */
export function toStoredData(
  resource: Resource,
  object: Readonly<Record<string, unknown>>,
  prefixes: Readonly<Record<string, string>>,
  baseUrl: string,
  locale?: string,
  identifiers?: Readonly<Record<string, IdentifierType>>,
  validation?: ValidationContextOptions,
): Record<string, unknown> {
  const messages = violationMessages(locale);
  const wire = { prefixes, baseUrl, messages, ...(identifiers !== undefined ? { identifiers } : {}) };
  const view = writableView(resource, object);
  const nul = nulViolations(view, messages.nulCharacter);
  let value: Record<string, unknown> = {};
  // Symfony's GroupSequence: each step only once the steps before it passed
  for (const groups of validationSteps(validation, view)) {
    const parsed = schemaForGroups(inputSchema(resource), resource.shortName, groups)
      .safeParse(view, { error: messages.zod });
    if (!parsed.success || nul.length > 0) {
      throw new ValidationError([...nul, ...(parsed.success ? [] : parsed.error.issues.map((i): Violation => ({
        propertyPath: i.path.map(String).join('.'),
        message: i.message,
        code: i.code,
      })))]);
    }
    value = parsed.data;
  }
  const data: Record<string, unknown> = {};
  const violations: Violation[] = [];
  for (const p of resource.metadata.properties) {
    if (p.readOnly) continue;
    const v = value[p.name] ?? null;
    if (v === null) { data[p.name] = p.kind === 'relations' ? [] : null; continue; }
    const stored = kindDefinition(p.kind).toStored(v, p, wire);
    if ('violation' in stored) {
      violations.push(stored.violation);
      data[p.name] = null;
    } else {
      data[p.name] = stored.value;
    }
  }
  if (violations.length > 0) throw new ValidationError(violations);
  return data;
}

/**
 * The 422 for a relation the store says names no item (its `invalid_relation` write outcome).
 * @param resource - the resource written to
 * @param property - the relation's property, e.g. `author`
 * @param locale - the request's locale: the message's language; undefined reads English
 * @returns a ValidationError with one `invalid_relation` violation on `property`
 */
export function invalidRelation(resource: Resource, property: string, locale?: string): ValidationError {
  const target = resource.metadata.properties.find((p) => p.name === property)?.relation ?? 'item';
  return new ValidationError([
    { propertyPath: property, code: 'invalid_relation', message: violationMessages(locale).invalidRelation(target) },
  ]);
}
