import type { IdentifierType } from '../state/identifier';
import { HttpError } from '../../http/errors';
import type { Resource } from '../resource/defineResource';
import { kindDefinition } from '../property/propertyKinds';
import { nullableProperties } from './inputData';

/**
 * The 400s of a body that cannot be read as the resource, before it is validated (API Platform
 * 3.4's serializer: `AbstractItemNormalizer` throws an `UnexpectedValueException`, which its
 * error listener answers with a 400, while the validator's constraint violations are 422s):
 * - a value of the wrong JSON type: `The type of the "title" attribute must be "string", "integer" given.`;
 * - a relation that is not a string: `Expected IRI or nested document for attribute "author", "integer" given.`;
 * - a string that is not an IRI of the related resource: `Invalid IRI "/api/books/1".`;
 * - a related item that does not exist (the store's answer): `Item not found for "/api/authors/999".`;
 * - a JSON-LD POST with an `@id`: `Update is not allowed for this operation.`
 * @module
 */

function badRequest(message: string): HttpError {
  return new HttpError('ERR_HTTP_BAD_REQUEST', message);
}

/**
 * The 400 of a body whose writable properties the resource cannot read, or undefined. Absent
 * properties, unknown ones and readOnly ones are not looked at (API Platform ignores them; a
 * missing required property is the validator's 422).
 * @param object - the object to write (the body, or the merged object of a PATCH)
 * @param prefixes - the collection path of each resource by short name (relation IRIs)
 * @param baseUrl - the mount path IRIs may carry
 * @param identifiers - the identifier type of each resource by short name; left out: `integer`
 */
export function denormalizationError(
  resource: Resource, object: Readonly<Record<string, unknown>>,
  prefixes: Readonly<Record<string, string>>, baseUrl: string,
  identifiers?: Readonly<Record<string, IdentifierType>>,
): HttpError | undefined {
  const nullable = nullableProperties(resource);
  const wire = { prefixes, baseUrl, ...(identifiers !== undefined ? { identifiers } : {}) };
  for (const p of resource.metadata.properties) {
    if (p.readOnly || !Object.prototype.hasOwnProperty.call(object, p.name)) continue;
    const value = object[p.name];
    if (value === undefined || (value === null && nullable.has(p.name))) continue;
    const message = kindDefinition(p.kind).typeError(value, p, wire);
    if (message !== undefined) return badRequest(message);
  }
  return undefined;
}

/** The 400 for a relation whose IRI names no item (the store found none). */
export function itemNotFoundForIri(iri: unknown): HttpError {
  return badRequest(`Item not found for "${String(iri).slice(0, 200)}".`);
}

/** The 400 for a JSON-LD POST that names an item by `@id` (API Platform: `api_allow_update` is false). */
export function updateNotAllowed(): HttpError {
  return badRequest('Update is not allowed for this operation.');
}
