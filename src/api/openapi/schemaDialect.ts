import type { JsonSchema } from './resourceSchemas';

/**
 * What zod 4's `z.toJSONSchema` writes, turned into the schema dialect an OpenAPI 3.1 document
 * uses (JSON Schema 2020-12 with OpenAPI's vocabulary), the way API Platform 3.4 writes its own:
 * - a nullable value is `type: [T, "null"]` (OpenAPI 3.1 §4.8.24; zod writes
 *   `anyOf: [{ type: T, ... }, { type: "null" }]`, which generators such as api-doc-parser read
 *   as a schema with no type); a branch that cannot take a type array (a `$ref`, an `anyOf`) keeps
 *   the `anyOf`;
 * - a keyword outside JSON Schema and OpenAPI becomes an extension (`relation` → `x-relation`:
 *   zod copies every `.meta()` key into the schema, and Redocly's `spec` rules, which
 *   openapi-typescript runs before it generates, reject unknown keywords).
 * @module
 */

/** JSON Schema 2020-12's keywords (core, applicator, validation, meta-data, format, content, unevaluated). */
const JSON_SCHEMA_KEYWORDS = [
  '$schema', '$id', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs',
  'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas', 'prefixItems', 'items', 'contains',
  'properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'unevaluatedItems',
  'unevaluatedProperties', 'type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'maxContains',
  'minContains', 'maxProperties', 'minProperties', 'required', 'dependentRequired', 'title', 'description',
  'default', 'deprecated', 'readOnly', 'writeOnly', 'examples', 'format', 'contentEncoding', 'contentMediaType',
  'contentSchema',
];

/** OpenAPI 3.1's own keywords in a Schema Object (§4.8.24). */
const OPENAPI_KEYWORDS = ['discriminator', 'xml', 'externalDocs', 'example'];

const KNOWN = new Set([...JSON_SCHEMA_KEYWORDS, ...OPENAPI_KEYWORDS]);

/** Keywords whose value is one schema. */
const ONE_SCHEMA = new Set([
  'not', 'if', 'then', 'else', 'items', 'contains', 'additionalProperties', 'propertyNames', 'unevaluatedItems',
  'unevaluatedProperties', 'contentSchema',
]);
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullSchema = (schema: JsonSchema): boolean => schema.type === 'null' && Object.keys(schema).length === 1;

/** `schema` accepting null too, as one schema with a type array, or undefined when it cannot be written so. */
function withNull(schema: JsonSchema): JsonSchema | undefined {
  if (typeof schema.type !== 'string' || schema.$ref !== undefined) return undefined;
  if (['anyOf', 'oneOf', 'allOf', 'not', 'if'].some((k) => k in schema)) return undefined;
  const { const: constant, ...rest } = schema;
  const out: JsonSchema = { ...rest, type: [schema.type, 'null'] };
  if (constant !== undefined) out.enum = [constant, null];
  else if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...(schema.enum as unknown[]), null];
  return out;
}

/**
 * A schema in the OpenAPI 3.1 dialect (see the module's note): nullables as type arrays, unknown
 * keywords as `x-` extensions, applied through every nested schema.
 * @param schema - a JSON Schema as `z.toJSONSchema` writes it (not changed)
 * @returns a new schema
 */
export function toOpenApiDialect(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    const name = KNOWN.has(key) || key.startsWith('x-') ? key : `x-${key}`;
    if (ONE_SCHEMA.has(key) && isSchema(value)) out[name] = toOpenApiDialect(value);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) {
      out[name] = value.map((v: unknown) => (isSchema(v) ? toOpenApiDialect(v) : v));
    } else if (SCHEMA_MAP.has(key) && isSchema(value)) {
      out[name] = Object.fromEntries(Object.entries(value)
        .map(([k, v]) => [k, isSchema(v) ? toOpenApiDialect(v) : v]));
    } else out[name] = value;
  }
  // zod's date-time pattern accepts only `Z`; the API writes and reads API Platform's `+00:00` too
  if (out.format === 'date-time') delete out.pattern;
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && isSchema(anyOf[1]) && isNullSchema(anyOf[1])
    && isSchema(anyOf[0])) {
    const merged = withNull(anyOf[0]);
    const { anyOf: _union, ...wrapper } = out;
    // the wrapper's own keywords (readOnly, description) apply to the whole value
    if (merged !== undefined && Object.keys(wrapper).every((k) => !(k in merged))) return { ...merged, ...wrapper };
  }
  return out;
}
