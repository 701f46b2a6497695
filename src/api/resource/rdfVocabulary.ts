import { z } from 'zod';
import type { PropertyMetadata } from '../state/types';

/**
 * External vocabularies (API Platform 3.4's `#[ApiResource(types: [...])]` and
 * `#[ApiProperty(iris: [...], types: [...])]`, docs "Using External Vocabularies"): the IRIs a
 * resource's class and properties are known by instead of the API's own vocabulary
 * (`/api/docs.jsonld#Book`, `#Book/title`), e.g. schema.org's `https://schema.org/Book` and
 * `https://schema.org/name`. Read by the JSON-LD serializer (an item's `@type`, its context's
 * terms; `ItemNormalizer`, `ContextBuilder`), the Hydra documentation (a class's `@id`, a
 * property's `@id`, `domain` and `range`; `DocumentationNormalizer`) and OpenAPI (a property's
 * `externalDocs`; `SchemaPropertyMetadataFactory`).
 * @module
 */

/**
 * One IRI: absolute (`https://schema.org/Book`), compact (`schema:Book`) or relative to the
 * API's vocabulary (`Book.name`, as API Platform's own fixtures write one); never a JSON-LD
 * keyword (`@id`) nor a string with white space.
 */
const iriSchema = z.string({ error: 'expected an IRI such as "https://schema.org/Book"' })
  .regex(/^[^\s@]\S*$/, { error: 'expected an IRI such as "https://schema.org/Book"' });

/** A list of IRIs (`types`, `iris`): at least one. */
export const iriListSchema = z.array(iriSchema, { error: 'expected an array of IRIs such as ["https://schema.org/Book"]' })
  .min(1, { error: 'expected at least one IRI, e.g. ["https://schema.org/Book"]' }).readonly();

/** The vocabulary options of one property (in `defineResource`'s `properties` option). All optional. */
export const propertyVocabularyShape = {
  /**
   * The IRIs of the property (API Platform `ApiProperty::iris`): the first is its term in the
   * resource's JSON-LD context (`"name": "https://schema.org/name"`) and its `@id` in the Hydra
   * documentation, the others its `owl:equivalentProperty` there (see {@link propertyIri}).
   * @default `<ShortName>/<property>` in the API's vocabulary
   * @example ['https://schema.org/name']
   */
  iris: iriListSchema.optional(),
  /**
   * The RDF types of the property's values (API Platform `ApiProperty::types`): the first is the
   * property's `externalDocs.url` in the OpenAPI schemas, as API Platform writes it.
   * @example ['https://schema.org/Text']
   */
  types: iriListSchema.optional(),
};

/** What a property's vocabulary options give its metadata. */
export interface PropertyVocabulary {
  readonly iris?: readonly string[];
  readonly types?: readonly string[];
}

/**
 * The properties with their `iris` and `types` from the `properties` option (names already
 * checked against the schema by `resolvePropertySecurity`).
 * @returns the same objects where a property has neither, frozen copies where it has some
 */
export function withVocabulary(
  properties: readonly PropertyMetadata[], given: Readonly<Record<string, PropertyVocabulary>>,
): PropertyMetadata[] {
  return properties.map((p) => {
    const v = given[p.name];
    if (v?.iris === undefined && v?.types === undefined) return p;
    return Object.freeze({
      ...p,
      ...(v.iris !== undefined ? { iris: Object.freeze([...v.iris]) } : {}),
      ...(v.types !== undefined ? { types: Object.freeze([...v.types]) } : {}),
    });
  });
}

/** One IRI as itself, several as an array (API Platform's `1 === count($types) ? $types[0] : $types`). */
function oneOrMany(iris: readonly string[]): string | string[] {
  return iris.length === 1 ? iris[0] : [...iris];
}

/** What the vocabulary functions read of a resource. */
export interface TypedResource {
  readonly shortName: string;
  /** The resource's `types`, if declared. */
  readonly types?: readonly string[];
}

/**
 * The JSON-LD `@type` of a resource's items (API Platform's `ItemNormalizer`): its `types`
 * (one: a string; several: an array), else its short name.
 */
export function jsonLdType(resource: TypedResource): string | string[] {
  return resource.types === undefined ? resource.shortName : oneOrMany(resource.types);
}

/**
 * A resource's class in the Hydra documentation (API Platform's `$prefixedShortName`): its first
 * type, else `#<ShortName>`: the class's `@id`, its properties' `domain`, the range of the
 * relations to it and the entrypoint's `owl:allValuesFrom`.
 */
export function classIri(resource: TypedResource): string {
  return resource.types?.[0] ?? `#${resource.shortName}`;
}

/**
 * A property's IRI (API Platform's `ContextBuilder` and `DocumentationNormalizer::getProperty`):
 * its first `iris`, else `<prefix><ShortName>/<name>`. API Platform writes several as an array,
 * which JSON-LD 1.1 refuses (a term and an `@id` name one IRI: the `jsonld` processor throws
 * "@context term values must be strings or objects"); the others are the Hydra property's
 * `owl:equivalentProperty` ({@link equivalentIris}).
 * @param prefix - `''` in a JSON-LD context (relative to `@vocab`), `'#'` in the documentation
 */
export function propertyIri(p: PropertyMetadata, shortName: string, prefix: '' | '#'): string {
  return p.iris?.[0] ?? `${prefix}${shortName}/${p.name}`;
}

/** A property's `iris` after the first, as JSON-LD node references (`[{ "@id": … }]`); none: []. */
export function equivalentIris(p: PropertyMetadata): { '@id': string }[] {
  return (p.iris ?? []).slice(1).map((iri) => ({ '@id': iri }));
}
