import { z } from 'zod';
import type { ResourceDescription } from '../describeApi';
import { toOpenApiDialect } from './schemaDialect';
import { kindDefinition } from '../property/propertyKinds';

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

/**
 * The output side as the API sends it: every readable property is present, null when it has no
 * value (an optional property, or a nullable one), `id` first. `required` lists only what every
 * item has a value for whatever was written: `id` and the properties a write must carry (API
 * Platform lists a resource's required properties, not every property; api-doc-parser reads
 * `required` of the response schema as the form's required fields), but not a property with a
 * `security` rule, which a client it denies does not get. A property with a default
 * is never null (zod fills it in on every write).
 */
function sentAsNormalized(
  output: JsonSchema, resource: ResourceDescription, mustWrite: ReadonlySet<string>,
): JsonSchema {
  const from = (output.properties ?? {}) as Properties;
  const alwaysSet = new Set((output.required ?? []) as string[]);
  const properties: Properties = { id: from.id ?? { type: 'integer', readOnly: true } };
  const required = ['id'];
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

/**
 * The JSON Schemas of a resource (zod 4's `z.toJSONSchema`, readOnly and writeOnly kept as
 * JSON Schema keywords, OpenAPI 3.1 §4.8.24):
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
 *   properties to a link of its name (absent when null), as API Platform's `jsonhal`.
 * @param resource - from `describeApi`
 */
export function resourceSchemas(resource: ResourceDescription): ResourceSchemas {
  const name = resource.shortName;
  const rawInput = toJsonSchema(resource.schema, 'input');
  const written = without(rawInput, new Set(['id', ...flagged((rawInput.properties ?? {}) as Properties, 'readOnly')]));
  const mustWrite = new Set(written.required as string[]);
  const output = sentAsNormalized(toJsonSchema(resource.schema, 'output'), resource, mustWrite);
  const input = withoutDefaults(written, true);
  const { required: _all, ...patch } = withoutDefaults(written, false);
  const sameInput = JSON.stringify(input) === JSON.stringify(output);
  const names: ResourceSchemaNames = {
    output: name,
    input: sameInput ? name : `${name}.input`,
    patch: `${name}.patch`,
    jsonld: `${name}.jsonld`,
    jsonhal: `${name}.jsonhal`,
  };
  const relations = new Set(resource.metadata.properties.filter((p) => kindDefinition(p.kind).link).map((p) => p.name));
  const link = {
    type: 'object', properties: { href: { type: 'string', format: 'iri-reference' } }, required: ['href'],
  };
  const components: Record<string, JsonSchema> = {
    [names.output]: { ...output, description: resource.description },
    [names.patch]: { ...patch, description: `A merge patch of a ${name} (RFC 7386): the properties to change.` },
    [names.jsonld]: extend(output, {
      '@context': { anyOf: [{ type: 'string', format: 'iri-reference' }, { type: 'object' }], readOnly: true },
      '@id': { type: 'string', format: 'iri-reference', readOnly: true },
      '@type': { type: 'string', const: name, readOnly: true },
    }, ['@id', '@type']),
    [names.jsonhal]: extend(without(output, relations), {
      _links: {
        type: 'object',
        properties: { self: link, ...Object.fromEntries([...relations].map((r) => [r, link])) },
        required: ['self'],
        additionalProperties: false,
        readOnly: true,
      },
    }, ['_links']),
  };
  if (!sameInput) components[names.input] = { ...input, description: `A ${name} as a client writes it.` };
  return { names, components };
}
