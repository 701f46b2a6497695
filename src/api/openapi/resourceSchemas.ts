import { z } from 'zod';
import type { ResourceDescription } from '../describeApi';
import { toOpenApiDialect } from './schemaDialect';
import { kindDefinition } from '../property/propertyKinds';
import type { PropertyMetadata } from '../state/types';
import { inGroups } from '../serializer/serializationContext';
import { definitionName } from './definitionName';
import { jsonLdType } from '../resource/rdfVocabulary';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1). */
export type JsonSchema = Record<string, unknown>;

/** The component names of a resource's schemas, as API Platform names its own. */
export interface ResourceSchemaNames {
  /** An item as sent in plain JSON (`Book`). */
  readonly output: string;
  /** A POST or PUT body (`Book.input`), or `output` when the two are the same. */
  readonly input: string;
  /** A PATCH body, every property optional (`Book.patch`). */
  readonly patch: string;
  /** An item in JSON-LD (`Book.jsonld`) and in HAL (`Book.jsonhal`). */
  readonly jsonld: string;
  readonly jsonhal: string;
}

/** The schemas of one resource, by component name. */
export interface ResourceSchemas {
  readonly names: ResourceSchemaNames;
  readonly components: Readonly<Record<string, JsonSchema>>;
}

/**
 * The schema with more properties, copied rather than combined with `allOf`: zod's output side
 * says `additionalProperties: false`, which an `allOf` branch would apply to the added ones too.
 */
function extend(schema: JsonSchema, properties: Properties, required: string[]): JsonSchema {
  return {
    ...schema,
    properties: { ...properties, ...(schema.properties as Properties) },
    required: [...required, ...(schema.required as string[])],
  };
}

/**
 * zod 4's JSON Schema of one side of the schema, in OpenAPI 3.1's dialect (`toOpenApiDialect`),
 * without `$schema` (OpenAPI 3.1 sets the dialect).
 */
function toJsonSchema(schema: z.ZodObject, io: 'input' | 'output'): JsonSchema {
  const written = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' });
  const { $schema: _dialect, ...rest } = written;
  return toOpenApiDialect(rest);
}

type Properties = Record<string, JsonSchema>;

/** Properties whose schema (or a wrapper's) says `keyword: true`. */
function flagged(properties: Properties, keyword: 'readOnly' | 'writeOnly'): Set<string> {
  return new Set(Object.entries(properties).filter(([, p]) => p[keyword] === true).map(([n]) => n));
}

function without(schema: JsonSchema, names: Set<string>): JsonSchema {
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Properties)
    .filter(([n]) => !names.has(n)));
  const required = ((schema.required ?? []) as string[]).filter((n) => !names.has(n));
  return { ...schema, properties, required };
}

/** Whether a schema accepts null (zod writes a nullable as `anyOf: [..., { type: 'null' }]`). */
function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).some(acceptsNull);
}

/** The JSON-LD `@type` of a resource's items: its short name or its `types` (`rdfVocabulary.ts`). */
function typeSchema(resource: ResourceDescription): JsonSchema {
  const type = jsonLdType(resource);
  return typeof type === 'string' ? { type: 'string', const: type, readOnly: true }
    : { type: 'array', items: { type: 'string' }, const: type, readOnly: true };
}

/**
 * Each property whose metadata has `types` with its first as `externalDocs.url`, as API
 * Platform's `SchemaPropertyMetadataFactory` writes `ApiProperty::types` (a key OpenAPI defines,
 * which JSON Schema allows).
 */
function withExternalDocs(schema: JsonSchema, resource: ResourceDescription): JsonSchema {
  const properties = { ...(schema.properties ?? {}) as Properties };
  for (const p of resource.metadata.properties) {
    const current = properties[p.name];
    const url = p.types?.[0];
    if (current !== undefined && url !== undefined) properties[p.name] = { ...current, externalDocs: { url } };
  }
  return { ...schema, properties };
}

/**
 * The output side as the API sends it: every readable property is present, null when it has no
 * value (an optional property, or a nullable one), `id` first. `required` lists only what every
 * item has a value for whatever was written: `id` and the properties a write must carry (API
 * Platform lists a resource's required properties, not every property; api-doc-parser reads
 * `required` of the response schema as the form's required fields), but not a property with a
 * `security` rule, which a client it denies does not get. A property with a default
 * is never null (zod fills it in on every write). A composite identifier's resource has no `id`.
 */
function sentAsNormalized(
  output: JsonSchema, resource: ResourceDescription, mustWrite: ReadonlySet<string>,
): JsonSchema {
  const from = (output.properties ?? {}) as Properties;
  const alwaysSet = new Set((output.required ?? []) as string[]);
  // a composite identifier is no property (its parts are)
  const composite = resource.metadata.compositeKey !== undefined;
  const properties: Properties = composite ? {} : { id: from.id ?? { type: 'integer', readOnly: true } };
  const required = composite ? [] : ['id'];
  for (const p of resource.metadata.properties) {
    const schema = from[p.name];
    if (p.writeOnly || schema === undefined) continue;
    const mayBeNull = !alwaysSet.has(p.name) && !acceptsNull(schema);
    properties[p.name] = mayBeNull ? toOpenApiDialect({ anyOf: [schema, { type: 'null' }] }) : schema;
    if (mustWrite.has(p.name) && !resource.securedProperties.includes(p.name)) required.push(p.name);
  }
  return { ...output, properties, required };
}

/**
 * The properties without `default`: a generator such as openapi-typescript makes a property with
 * a default required in the body type it writes (`defaultNonNullable`), so a client would have to
 * send it; in a merge patch the default is wrong besides (a property left out keeps its value).
 * @param note - whether to say the default in the property's description (POST and PUT bodies)
 */
function withoutDefaults(schema: JsonSchema, note: boolean): JsonSchema {
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Properties).map(([n, p]) => {
    if (!('default' in p)) return [n, p];
    const { default: value, ...rest } = p;
    if (!note) return [n, rest];
    const said = `Defaults to ${JSON.stringify(value)} when left out.`;
    return [n, { ...rest, description: typeof rest.description === 'string' ? `${rest.description} ${said}` : said }];
  }));
  return { ...schema, properties };
}

/** A relation's target schema in one of the variants (a `$ref` to the target's component). */
export type SchemaVariant = 'output' | 'jsonld' | 'jsonhal' | 'input';

/**
 * A relation the serializer context embeds (API Platform's readable link on output, writable
 * link on input): the `$ref` to its target's schema in each variant, and whether a nested
 * document may still be an IRI (a cycle of embedded relations: the item above, or past
 * `MAX_EMBEDDED_LEVELS`, is written as its IRI).
 */
export interface EmbeddedRelation {
  readonly ref: (variant: SchemaVariant) => JsonSchema;
  readonly mayBeIri: boolean;
}

/** Which relations a context embeds: undefined for a relation written as an IRI. */
export type EmbedRelation = (p: PropertyMetadata) => EmbeddedRelation | undefined;

/** The output schemas of one resource under one normalization context (not named yet). */
export interface OutputSchemas {
  /** Plain JSON: the relations embedded as `$ref` to the targets' `output`. */
  readonly output: JsonSchema;
  /** The same with every relation an IRI (JSON:API's attributes, which never embed). */
  readonly flat: JsonSchema;
  readonly jsonld: JsonSchema;
  readonly jsonhal: JsonSchema;
}

/** The body schemas of one resource under one denormalization context (not named yet). */
export interface InputSchemas {
  readonly input: JsonSchema;
  readonly patch: JsonSchema;
}

const IRI: JsonSchema = { type: 'string', format: 'iri-reference' };
const NEVER: EmbedRelation = () => undefined;
/** The annotations a relation's schema keeps when its value becomes a `$ref`. */
const ANNOTATIONS = [
  'description', 'default', 'readOnly', 'writeOnly', 'deprecated', 'x-groups', 'x-relation', 'x-many', 'externalDocs',
];

function annotations(schema: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => ANNOTATIONS.includes(k)));
}

/** The properties of the resource the context leaves out (`id` never is). */
function outsideGroups(resource: ResourceDescription, groups: ReadonlySet<string> | undefined): Set<string> {
  return new Set(resource.metadata.properties.filter((p) => !inGroups(p, { groups })).map((p) => p.name));
}

/** What a POST body may carry, all groups: zod's input side without `id` and the readOnly properties. */
function writtenOf(resource: ResourceDescription): JsonSchema {
  const rawInput = withExternalDocs(toJsonSchema(resource.schema, 'input'), resource);
  return without(rawInput, new Set(['id', ...flagged((rawInput.properties ?? {}) as Properties, 'readOnly')]));
}

/** The schema with `map` applied to the properties of the relations `embed` embeds. */
function mapEmbedded(
  schema: JsonSchema, resource: ResourceDescription, embed: EmbedRelation,
  map: (p: PropertyMetadata, current: JsonSchema, e: EmbeddedRelation) => JsonSchema,
): JsonSchema {
  const properties = { ...(schema.properties ?? {}) as Properties };
  for (const p of resource.metadata.properties) {
    const current = properties[p.name];
    const e = current === undefined ? undefined : embed(p);
    if (e !== undefined) properties[p.name] = map(p, current, e);
  }
  return { ...schema, properties };
}

/**
 * The output schemas of a resource under a normalization context (API Platform's `SchemaFactory`
 * with the operation's `normalizationContext`): `id` and the properties in the groups (all
 * without groups), a relation the context embeds as a `$ref` to its target's schema of the same
 * format and groups (an array of them for a to-many relation, with `null` for a nullable one,
 * with an IRI when `mayBeIri`), the others IRIs. A property with `maxDepth()` is never required
 * under groups (`enable_max_depth` may leave it out of a nested document).
 * @param groups - the normalization groups; undefined: every readable property
 * @param embed - which relations are nested documents; none by default
 */
export function outputSchemas(
  resource: ResourceDescription, groups?: ReadonlySet<string>, embed: EmbedRelation = NEVER,
): OutputSchemas {
  const mustWrite = new Set(writtenOf(resource).required as string[]);
  const sent = sentAsNormalized(toJsonSchema(resource.schema, 'output'), resource, mustWrite);
  const all = withExternalDocs(sent, resource);
  let flat = without(all, outsideGroups(resource, groups));
  if (groups !== undefined) {
    const deep = new Set(resource.metadata.properties.filter((p) => p.maxDepth !== undefined).map((p) => p.name));
    flat = { ...flat, required: (flat.required as string[]).filter((n) => !deep.has(n)) };
  }
  const nested = (variant: SchemaVariant): JsonSchema => mapEmbedded(flat, resource, embed, (p, current, e) => {
    const item = e.mayBeIri ? { anyOf: [e.ref(variant), IRI] } : e.ref(variant);
    if (p.kind === 'relations') return { ...annotations(current), type: 'array', items: item };
    return acceptsNull(current) ? { ...annotations(current), anyOf: [item, { type: 'null' }] }
      : { ...annotations(current), ...item };
  });
  const relations = resource.metadata.properties
    .filter((p) => kindDefinition(p.kind).link && (flat.properties as Properties)[p.name] !== undefined);
  const link = {
    type: 'object', properties: { href: { type: 'string', format: 'iri-reference' } }, required: ['href'],
  };
  const embedded = relations.flatMap((p) => {
    const e = embed(p);
    if (e === undefined) return [];
    return [[p.name, p.kind === 'relations' ? { type: 'array', items: e.ref('jsonhal') } : e.ref('jsonhal')]];
  });
  return {
    output: nested('output'),
    flat,
    jsonld: extend(nested('jsonld'), {
      '@context': { anyOf: [{ type: 'string', format: 'iri-reference' }, { type: 'object' }], readOnly: true },
      '@id': { type: 'string', format: 'iri-reference', readOnly: true },
      '@type': typeSchema(resource),
    }, ['@id', '@type']),
    jsonhal: extend(without(flat, new Set(relations.map((p) => p.name))), {
      _links: {
        type: 'object',
        properties: {
          self: link,
          ...Object.fromEntries(relations
            .map((p) => [p.name, p.kind === 'relations' ? { type: 'array', items: link } : link])),
        },
        required: ['self'],
        additionalProperties: false,
        readOnly: true,
      },
      ...(embedded.length > 0 ? {
        _embedded: {
          type: 'object',
          description: 'The relations embedded by the normalization groups (absent when null).',
          properties: Object.fromEntries(embedded),
          additionalProperties: false,
          readOnly: true,
        },
      } : {}),
    }, ['_links']),
  };
}

/**
 * The body schemas of a resource under a denormalization context (API Platform's `SchemaFactory`
 * for the input side): the writable properties in the groups (all without groups), a relation
 * with a writable link either an IRI or a nested document (`$ref` to the target's input schema
 * under the same groups; API Platform's denormalizer takes both), defaults said in the
 * description (`input`) or dropped (`patch`, nothing required).
 * @param groups - the denormalization groups; undefined: every writable property
 * @param embed - which relations take a nested document; none by default
 */
export function inputSchemas(
  resource: ResourceDescription, groups?: ReadonlySet<string>, embed: EmbedRelation = NEVER,
): InputSchemas {
  const written = mapEmbedded(without(writtenOf(resource), outsideGroups(resource, groups)), resource, embed,
    (p, current, e) => {
      const either = { anyOf: [IRI, e.ref('input')] };
      if (p.kind === 'relations') return { ...annotations(current), type: 'array', items: either };
      const anyOf = acceptsNull(current) ? [...either.anyOf, { type: 'null' }] : either.anyOf;
      return { ...annotations(current), anyOf };
    });
  const { required: _all, ...patch } = withoutDefaults(written, false);
  return { input: withoutDefaults(written, true), patch };
}

/**
 * The JSON Schemas of a resource without serialization groups (zod 4's `z.toJSONSchema`,
 * readOnly and writeOnly kept as JSON Schema keywords, OpenAPI 3.1 §4.8.24); with groups, the
 * OpenAPI document names them per context (`schemaCatalog.ts`, `Book.jsonld-book.read`):
 * - output (`Book`): what the plain JSON format sends, zod's output side: `id` (a readOnly
 *   integer when the schema does not list it) and every property but the writeOnly ones, each
 *   present, null when it has no value (`type: [T, "null"]`); `required`: `id` and the properties
 *   a write must carry; relations are IRIs;
 * - input (`Book.input`): a POST or PUT body, zod's input side without the readOnly
 *   properties (a client sending them is ignored, as API Platform ignores unwritable ones), a
 *   default said in the description rather than as `default`; the output's name when both are
 *   the same;
 * - patch (`Book.patch`): a merge-patch body (RFC 7386): the input's properties, none required,
 *   no default;
 * - jsonld (`Book.jsonld`): the output with `@id` and `@type` (and `@context`, on an item
 *   document; a collection member has none);
 * - jsonhal (`Book.jsonhal`): the output with `_links.self`, each relation moved from the
 *   properties to a link of its name (an array of links for a to-many one; absent when null), as
 *   API Platform's `jsonhal`.
 * @param resource - from `describeApi`
 * @param componentName - the components' base name (an operation's DTO: `Book.publish.output`)
 *   @default the resource's short name
 */
export function resourceSchemas(resource: ResourceDescription, componentName?: string): ResourceSchemas {
  const name = componentName ?? resource.shortName;
  const out = outputSchemas(resource);
  const { input, patch } = inputSchemas(resource);
  const sameInput = JSON.stringify(input) === JSON.stringify(out.output);
  const names: ResourceSchemaNames = {
    output: name,
    input: sameInput ? name : definitionName(name, 'input'),
    patch: definitionName(name, 'patch'),
    jsonld: definitionName(name, 'jsonld'),
    jsonhal: definitionName(name, 'jsonhal'),
  };
  const components: Record<string, JsonSchema> = {
    [names.output]: { ...out.output, description: resource.description },
    [names.patch]: { ...patch, description: `A merge patch of a ${name} (RFC 7386): the properties to change.` },
    [names.jsonld]: out.jsonld,
    [names.jsonhal]: out.jsonhal,
  };
  if (!sameInput) components[names.input] = { ...input, description: `A ${name} as a client writes it.` };
  return { names, components };
}
