import { HttpError } from '../../http/errors';
import { ValidationError, type Violation } from '../http/ApiErrors';
import { phpTypeOf } from '../property/kindSupport';
import { compositeIdOf, partValueProblem, type IdentifierPart } from '../resource/compositeIdentifier';
import type { Resource } from '../resource/defineResource';
import { MAX_STRING_ID_LENGTH, parseItemId, type ItemId } from '../state/identifier';
import { violationMessages } from './violationMessages';

/**
 * The id a client chose in a POST body (`{ "id": "9780262033848", … }`), for a resource whose
 * identifier it may choose (`identifierSchema.ts`), as API Platform reads a writable identifier:
 * - a value that is not a string: the 400 of a wrong type (`The type of the "id" attribute must
 *   be "string", "int" given.`);
 * - a `uuid` that is not a UUID: a 400, as a bad `Ramsey\Uuid` in the body is (uuid.feature);
 * - a `string` its schema refuses, empty, longer than {@link MAX_STRING_ID_LENGTH} or holding
 *   U+0000: a 422 violation on `id`; absent: a 422 (`This value should not be blank.`).
 * A composite identifier's id is made of its parts' values (`compositeIdentifier.ts`); one that
 * cannot be in it (a `;` in a string) is a 422 violation on that property.
 * @param object - the denormalized body (for a composite identifier: the validated data)
 * @param locale - the request's locale (the schema's messages)
 * @returns the id in the stored shape (a UUID in lower case), or undefined (a `uuid` resource
 *   without one: the store picks it)
 * @throws HttpError 400, ValidationError 422 as above
 */
export function clientId(
  resource: Resource, object: Readonly<Record<string, unknown>>, locale?: string,
): ItemId | undefined {
  const { type, schema, parts } = resource.identifier;
  if (parts !== undefined) return compositeClientId(parts, object);
  const value = object.id;
  if (value === undefined || value === null) {
    if (type !== 'string') return undefined;
    throw new ValidationError([{ propertyPath: 'id', message: 'This value should not be blank.', code: 'is_blank' }]);
  }
  if (typeof value !== 'string') {
    throw new HttpError('ERR_HTTP_BAD_REQUEST',
      `The type of the "id" attribute must be "string", "${phpTypeOf(value)}" given.`);
  }
  const id = parseItemId(type, value);
  if (type === 'uuid') {
    if (id === null) throw new HttpError('ERR_HTTP_BAD_REQUEST', `Invalid UUID "${value.slice(0, 100)}".`);
    return id;
  }
  const violations: Violation[] = [];
  if (id === null) {
    const message = value.includes('\0') ? violationMessages(locale).nulCharacter
      : `This value should have 1 to ${MAX_STRING_ID_LENGTH} characters, none of them "/".`;
    violations.push({ propertyPath: 'id', message, code: 'invalid_id' });
  } else if (schema !== undefined) {
    const parsed = schema.safeParse(value, { error: violationMessages(locale).zod });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        violations.push({ propertyPath: 'id', message: issue.message, code: issue.code });
      }
    }
  }
  if (violations.length > 0) throw new ValidationError(violations);
  return id ?? undefined;
}

/** The composite id of a POST's validated data, or a 422 naming the parts that cannot be in it. */
function compositeClientId(parts: readonly IdentifierPart[], data: Readonly<Record<string, unknown>>): ItemId {
  const id = compositeIdOf(parts, data);
  if (id !== null) return id;
  const violations: Violation[] = [];
  for (const p of parts) {
    const message = partValueProblem(p, data[p.name]);
    if (message !== undefined) violations.push({ propertyPath: p.name, message, code: 'invalid_id' });
  }
  // every part fits, the whole does not (longer than an id may be)
  if (violations.length === 0) {
    const message = `The id these values make is longer than ${MAX_STRING_ID_LENGTH} characters.`;
    violations.push({ propertyPath: parts[0].name, message, code: 'invalid_id' });
  }
  throw new ValidationError(violations);
}
