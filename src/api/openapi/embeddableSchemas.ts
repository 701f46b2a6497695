import type { PropertyMetadata } from '../state/types';
import { definitionName } from './definitionName';
import type { InputSchemas, JsonSchema, OutputSchemas } from './resourceSchemas';
import { toOpenApiDialect } from './schemaDialect';

/**
 * The OpenAPI component schemas of embeddable value objects (`embeddable()`, Doctrine's
 * embeddable): API Platform 3.4's `SchemaFactory` writes a definition per embedded class, named
 * as a resource's are (`DefinitionNameFactory`: the class, the format, the groups), and refers to
 * it from its owner's. zod writes the owner's schemas with the value object inline; these
 * functions move it to components of its own, under the owner's serializer groups:
 * - `Address-<groups>`: the object as the API sends it in JSON, HAL and JSON:API's attributes:
 *   every field present, null when empty (`zip: null`), nothing else;
 * - `Address.jsonld-<groups>`: the same with the `@type` JSON-LD writes (no `@id`: no identity);
 * - `Address-<groups>` (`Address.input-<groups>` when an output holds that name): the object as
 *   a client writes it in a POST or PUT body (zod's input side: its required fields).
 * A nullable property refers to it beside `null`. A merge patch keeps the object inline with no
 * field required (`{ "address": { "city": "Bergen" } }` changes one field).
 * @module
 */

type Properties = Record<string, JsonSchema>;
/** Adds a component once (the first definition of a name wins). */
export type PutSchema = (name: string, schema: JsonSchema) => void;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
/** The keywords of an inline value object's schema that describe its shape (the rest are annotations). */
const SHAPE = new Set(['type', 'properties', 'required', 'additionalProperties', 'anyOf', 'oneOf', 'x-embeddable']);

const hasType = (schema: JsonSchema, type: string): boolean =>
  schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));

/** The object branch of a property's schema (`type: ["object", "null"]` or `anyOf: [object, null]`). */
function objectOf(schema: JsonSchema): JsonSchema | undefined {
  if (hasType(schema, 'object')) {
    return { ...schema, type: 'object' };
  }
  return ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).map(objectOf).find((s) => s !== undefined);
}

function acceptsNull(schema: JsonSchema): boolean {
  return hasType(schema, 'null') || ((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).some(acceptsNull);
}

/** The value object's own schema: its fields, without the owner's annotations. */
function fieldsOf(object: JsonSchema): JsonSchema {
  return Object.fromEntries(Object.entries(object).filter(([k]) => k === 'type' || k === 'properties'
    || k === 'required' || k === 'additionalProperties'));
}

/** The owner's annotations on the property (description, readOnly, x-groups…). */
const annotationsOf = (schema: JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(schema).filter(([k]) => !SHAPE.has(k)));

/** The property's schema as a `$ref` to `component` (beside `null` when it takes null), its annotations kept. */
function referring(schema: JsonSchema, component: string): JsonSchema {
  return acceptsNull(schema) ? { ...annotationsOf(schema), anyOf: [ref(component), { type: 'null' }] }
    : { ...annotationsOf(schema), ...ref(component) };
}

/** The embedded properties a schema holds, with their inline object. */
function inline(properties: readonly PropertyMetadata[], schema: JsonSchema) {
  const props = (schema.properties ?? {}) as Properties;
  return properties.flatMap((p) => {
    const own = props[p.name];
    const object = p.embeddable === undefined || own === undefined ? undefined : objectOf(own);
    return object === undefined ? [] : [{ p, name: p.embeddable!.name, own, object }];
  });
}

/** The schema with some of its properties replaced. */
function withProperties(schema: JsonSchema, replaced: Properties): JsonSchema {
  return Object.keys(replaced).length === 0 ? schema
    : { ...schema, properties: { ...(schema.properties as Properties), ...replaced } };
}

/** The object as the API sends it: every field present, one its schema does not always fill nullable. */
function asSent(object: JsonSchema, name: string): JsonSchema {
  const fields = (object.properties ?? {}) as Properties;
  const filled = new Set((object.required ?? []) as string[]);
  const properties = Object.fromEntries(Object.entries(fields).map(([n, s]) => [n,
    filled.has(n) || acceptsNull(s) ? s : toOpenApiDialect({ anyOf: [s, { type: 'null' }] })]));
  return {
    type: 'object',
    description: `${name}, an embeddable value object (no identifier: it lives inside its owner).`,
    properties,
    required: Object.keys(fields),
    additionalProperties: false,
  };
}

/**
 * The output schemas with each embedded property a `$ref` to its value object's component,
 * defined through `put` (`Address-<groups>`, `Address.jsonld-<groups>`).
 * @param properties - the resource's (its embedded ones are moved)
 * @param s - the resource's output schemas under the groups, value objects inline
 * @param groups - the normalization groups (in the components' names)
 * @param put - adds a component (the first definition of a name wins)
 * @returns the schemas with the `$ref`s; `s` itself when it holds no value object
 */
export function embedOutputs(
  properties: readonly PropertyMetadata[], s: OutputSchemas, groups: ReadonlySet<string> | undefined, put: PutSchema,
): OutputSchemas {
  const found = inline(properties, s.output);
  if (found.length === 0) return s;
  const plain: Properties = {};
  const jsonld: Properties = {};
  for (const { p, name, own, object } of found) {
    const sent = asSent(object, name);
    const names = { plain: definitionName(name, undefined, groups), jsonld: definitionName(name, 'jsonld', groups) };
    put(names.plain, sent);
    put(names.jsonld, {
      ...sent,
      properties: { '@type': { type: 'string', const: name, readOnly: true }, ...(sent.properties as Properties) },
      required: ['@type', ...(sent.required as string[])],
    });
    plain[p.name] = referring(own, names.plain);
    jsonld[p.name] = referring(own, names.jsonld);
  }
  return {
    output: withProperties(s.output, plain),
    flat: withProperties(s.flat, pick(plain, s.flat)),
    jsonhal: withProperties(s.jsonhal, pick(plain, s.jsonhal)),
    jsonld: withProperties(s.jsonld, pick(jsonld, s.jsonld)),
  };
}

/** The replacements for the properties a schema holds. */
function pick(replaced: Properties, schema: JsonSchema): Properties {
  const has = (schema.properties ?? {}) as Properties;
  return Object.fromEntries(Object.entries(replaced).filter(([n]) => n in has));
}

/**
 * The body schemas with each embedded property of a POST or PUT body a `$ref` to its value
 * object as written (`Address-<groups>`, or `Address.input-<groups>` when `taken`), defined
 * through `put`; a merge patch's inline object with no field required.
 * @param properties - the resource's
 * @param s - the resource's body schemas under the groups, value objects inline
 * @param groups - the denormalization groups
 * @param put - adds a component (the first definition of a name wins)
 * @param taken - whether a component of that name exists (an output's)
 * @returns the schemas with the `$ref`s; `s` itself when it holds no value object
 */
export function embedInputs(
  properties: readonly PropertyMetadata[], s: InputSchemas, groups: ReadonlySet<string> | undefined,
  put: PutSchema, taken: (name: string) => boolean,
): InputSchemas {
  const written: Properties = {};
  for (const { name, p, own, object } of inline(properties, s.input)) {
    const plain = definitionName(name, undefined, groups);
    const component = taken(plain) ? definitionName(name, 'input', groups) : plain;
    put(component, { ...fieldsOf(object), description: `${name} as a client writes it.` });
    written[p.name] = referring(own, component);
  }
  const patched: Properties = {};
  for (const { p, own, object } of inline(properties, s.patch)) {
    const { required: _required, ...any } = fieldsOf(object);
    patched[p.name] = {
      ...annotationsOf(own), ...(acceptsNull(own) ? toOpenApiDialect({ anyOf: [any, { type: 'null' }] }) : any),
    };
  }
  return { input: withProperties(s.input, written), patch: withProperties(s.patch, patched) };
}
