import { HttpError } from '../../http/errors';
import { isValidationError } from '../http/ApiErrors';
import { parsePhpQuery } from '../query/phpQuery';
import type { Resource } from '../resource/defineResource';
import { iriRoot, resourceIriRoot } from '../serializer/ApiContext';
import { idFromIri, itemIri } from '../serializer/iri';
import { parseItemId } from '../state/identifier';
import type { StoredItem } from '../state/types';
import type { FormatContext, Format, FormatDocsContext } from './Format';
import { jsonObject } from './json';
import { ERROR_PROBLEM_TYPE, ERROR_TITLE } from './problemDetails';

/** JSON:API's media type (jsonapi.org 1.1). */
export const JSONAPI_TYPE = 'application/vnd.api+json';

type Doc = Record<string, unknown>;

/** `include` and `fields[type]` of the request (JSON:API's inclusion and sparse fieldsets). */
interface Selection {
  readonly include: ReadonlySet<string>;
  /** Fields by type or relationship name; undefined when the client sent no `fields`. */
  readonly fields: ReadonlyMap<string, ReadonlySet<string>> | undefined;
}

function selectionOf(c: FormatContext): Selection {
  const raw = c.request.kernel?.uri?.queryString ?? '';
  const params = parsePhpQuery(raw, []);
  const split = (list: string): string[] => list.split(',').map((f) => f.trim()).filter((f) => f !== '');
  const include = new Set(typeof params.get('include') === 'string' ? split(params.get('include') as string) : []);
  const fields = new Map<string, Set<string>>();
  const asked = params.get('fields');
  for (const { key, value } of Array.isArray(asked) ? asked : []) {
    if (key !== null) fields.set(key, new Set(split(value)));
  }
  return { include, fields: fields.size > 0 ? fields : undefined };
}

/**
 * A resource object (`{ id, type, attributes, relationships }`), the id an IRI as API Platform 3.4
 * writes it: the document's own item's (`top`: `ItemContext.itemIri`), else its own IRI under its
 * resource's `urlGenerationStrategy`.
 */
function resourceObject(
  c: FormatContext, resource: Resource, item: StoredItem, wanted: ReadonlySet<string> | undefined, top?: string,
): Doc {
  const normalized = c.normalize(item, {}, resource);
  const relations = new Map(resource.metadata.properties.filter((p) => p.kind === 'relation')
    .map((p) => [p.name, p.relation ?? '']));
  const attributes: Doc = {};
  const relationships: Doc = {};
  for (const [name, value] of Object.entries(normalized)) {
    const target = relations.get(name);
    if (target !== undefined) {
      relationships[name] = { data: typeof value === 'string' ? { type: target, id: value } : null };
      continue;
    }
    // `id` is reserved in a resource object: API Platform's ReservedAttributeNameConverter writes `_id`
    const key = name === 'id' ? '_id' : name;
    if (wanted === undefined || wanted.has(name) || wanted.has(key)) attributes[key] = value;
  }
  const iri = top ?? itemIri(c.paths.prefixes[resource.shortName] ?? resource.routePrefix, item.id,
    resourceIriRoot(c.paths, c.base, resource.shortName));
  return {
    id: iri,
    type: resource.shortName,
    ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
    ...(Object.keys(relationships).length > 0 ? { relationships } : {}),
  };
}

/** The fields asked for the main resource: `fields[<type>]`, or none when `fields` names only others. */
function mainFields(s: Selection, resource: Resource): ReadonlySet<string> | undefined {
  if (s.fields === undefined) return undefined;
  return s.fields.get(resource.shortName) ?? new Set();
}

/**
 * The `included` resources: for each relationship the client names in `include`, the related
 * items the page's resources point to, once each, read through the related resource's provider.
 * Relationships not named, unknown names and missing items are left out (API Platform).
 */
async function included(c: FormatContext, items: readonly StoredItem[], s: Selection): Promise<Doc[]> {
  const out: Doc[] = [];
  const seen = new Set<string>();
  for (const name of s.include) {
    const property = c.resource.metadata.properties.find((p) => p.name === name && p.kind === 'relation');
    const target = property?.relation === undefined ? undefined : c.paths.resources.get(property.relation);
    const provider = target?.operations.find((op) => op.kind === 'Get')?.provider ?? target?.provider;
    if (property === undefined || target === undefined || provider === undefined) continue;
    const wanted = s.fields?.get(name) ?? s.fields?.get(target.shortName);
    for (const item of items) {
      const id = item.data[name];
      if ((typeof id !== 'number' && typeof id !== 'string') || seen.has(`${target.shortName}/${id}`)) continue;
      // a relation the client may not read (its property's `security`) includes nothing
      if (!(name in c.normalize(item, {}, c.resource))) continue;
      seen.add(`${target.shortName}/${id}`);
      const read = await c.readItem(target, id);
      if (read !== null) out.push(resourceObject({ ...c, resource: target }, target, read, wanted));
    }
  }
  return out;
}

const IRI_SCHEMA = { type: 'string', format: 'iri-reference' };

/** `included`: resource objects of any type (`?include=`), as `resourceObject` writes them. */
const INCLUDED_SCHEMA = {
  type: 'array',
  description: 'The related resources the "include" query parameter asks for.',
  items: {
    type: 'object',
    properties: {
      id: IRI_SCHEMA, type: { type: 'string' }, attributes: { type: 'object' }, relationships: { type: 'object' },
    },
    required: ['id', 'type'],
  },
  readOnly: true,
};

type Properties = Record<string, Doc>;

/** A relationship's linkage: `{ data: { type, id } | null }` (to-one relations only, as `resourceObject`). */
function linkageSchema(target: string, id: Doc, nullable: boolean): Doc {
  const identifier = {
    type: 'object', properties: { type: { type: 'string', const: target }, id }, required: ['type', 'id'],
  };
  return {
    type: 'object',
    properties: { data: nullable ? { anyOf: [identifier, { type: 'null' }] } : identifier },
    required: ['data'],
  };
}

/** The to-one relations of the flat schema (relationships); everything else is an attribute. */
function split(c: FormatDocsContext, schema: Doc): { attributes: Properties; relationships: Properties } {
  const attributes: Properties = {};
  const relationships: Properties = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Properties)) {
    const relation = c.relations[name];
    if (relation !== undefined && !relation.many) relationships[name] = { target: relation.target, property };
    else attributes[name === 'id' ? '_id' : name] = property;
  }
  return { attributes, relationships };
}

const acceptsNull = (s: Doc): boolean => (Array.isArray(s.type) && s.type.includes('null'))
  || ((s.anyOf ?? []) as Doc[]).some((b) => b.type === 'null');

/**
 * A resource object as `resourceObject` writes it under the operation's groups: `id` (its IRI),
 * `type`, `attributes` (the identifier as `_id`; sparse fieldsets may leave any out, so none is
 * required), `relationships` (`{ data: { type, id } | null }` per to-one relation).
 */
function resourceObjectSchema(c: FormatDocsContext): Doc {
  const { attributes, relationships } = split(c, c.flat.output);
  return {
    type: 'object',
    properties: {
      id: IRI_SCHEMA,
      type: { type: 'string', const: c.shortName },
      attributes: { type: 'object', properties: attributes, additionalProperties: false },
      relationships: {
        type: 'object',
        properties: Object.fromEntries(Object.entries(relationships).map(([name, r]) =>
          [name, linkageSchema(r.target as string, IRI_SCHEMA, true)])),
        additionalProperties: false,
      },
    },
    required: ['id', 'type'],
    additionalProperties: false,
  };
}

/**
 * A request body (`decode`): `{ data: { type, attributes, relationships } }`, the attributes a
 * POST or PUT must carry required (a merge patch: none), a relationship's `id` an IRI or the
 * identifier alone.
 */
function bodySchema(c: FormatDocsContext, body: Doc): Doc {
  const { attributes, relationships } = split(c, body);
  const names = new Set(Object.keys(relationships));
  const required = ((body.required ?? []) as string[]);
  const must = required.filter((n) => !names.has(n));
  return {
    type: 'object',
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { type: 'string', const: c.shortName },
          attributes: { type: 'object', properties: attributes, ...(must.length > 0 ? { required: must } : {}) },
          relationships: {
            type: 'object',
            properties: Object.fromEntries(Object.entries(relationships).map(([name, r]) =>
              [name, linkageSchema(r.target as string, { type: 'string' }, acceptsNull(r.property as Doc))])),
            ...(required.some((n) => names.has(n)) ? { required: required.filter((n) => names.has(n)) } : {}),
          },
        },
        ...(must.length > 0 ? { required: ['attributes'] } : {}),
      },
    },
    required: ['data'],
  };
}

/**
 * JSON:API (`application/vnd.api+json`, API Platform's `jsonapi`): an item is `{ data: { id
 * (its IRI), type, attributes (the identifier as `_id`), relationships ({ data: { type, id } }) } }`;
 * `?include=author` adds the related resources under `included`; `?fields[Book]=title,price`
 * (and `fields[author]=name` for an included one) keeps only those attributes; a collection has
 * `links` (self, first, last, prev, next), `meta` (totalItems, itemsPerPage, currentPage) and
 * `data`; errors are JSON:API error objects (a 422's one per violation, with a `source.pointer`).
 * A body is `{ data: { type, attributes, relationships } }`.
 */
export const jsonapi: Format = {
  name: 'jsonapi',
  mimeTypes: [JSONAPI_TYPE],
  item: async (c) => {
    const s = selectionOf(c);
    const doc: Doc = { data: resourceObject(c, c.resource, c.item, mainFields(s, c.resource), c.itemIri) };
    const more = await included(c, [c.item], s);
    if (more.length > 0) doc.included = more;
    return JSON.stringify(doc);
  },
  collection: async (c) => {
    const s = selectionOf(c);
    const links: Doc = { self: c.links.self };
    if (c.links.first !== undefined) links.first = c.links.first;
    if (c.links.last !== undefined) links.last = c.links.last;
    if (c.links.previous !== undefined) links.prev = c.links.previous;
    if (c.links.next !== undefined) links.next = c.links.next;
    const meta: Doc = {};
    if (c.page.totalItems !== undefined) meta.totalItems = c.page.totalItems;
    if (c.itemsPerPage !== undefined) {
      meta.itemsPerPage = c.itemsPerPage;
      meta.currentPage = c.currentPage;
    }
    const doc: Doc = {
      links,
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
      data: c.items.map((item) => resourceObject(c, c.resource, item, mainFields(s, c.resource))),
    };
    const more = await included(c, c.items, s);
    if (more.length > 0) doc.included = more;
    return JSON.stringify(doc);
  },
  entrypoint: (c) => JSON.stringify({
    links: { self: `${iriRoot(c.base)}${c.paths.entrypoint}`, ...c.collections },
  }),
  error: (c) => {
    const status = c.parts.status;
    if (isValidationError(c.error)) {
      const resource = c.request.api?.resource;
      const relations = new Set(resource?.metadata.properties.filter((p) => p.kind === 'relation').map((p) => p.name));
      const errors = c.error.violations.map((v) => ({
        detail: v.message,
        source: {
          pointer: v.propertyPath === '' ? 'data'
            : `data/${relations.has(v.propertyPath) ? 'relationships' : 'attributes'}/${v.propertyPath}`,
        },
      }));
      return { contentType: `${JSONAPI_TYPE}; charset=utf-8`, body: JSON.stringify({ errors }) };
    }
    const id = `${ERROR_PROBLEM_TYPE}/${status}`;
    const error: Doc = { id, title: ERROR_TITLE, detail: c.parts.detail, status, type: id };
    return { contentType: `${JSONAPI_TYPE}; charset=utf-8`, body: JSON.stringify({ errors: [error] }) };
  },
  decode: (body, c) => {
    const doc = jsonObject(body);
    const data = doc.data;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      const what = 'Expected a JSON:API document: { "data": { "type", "attributes" } }.';
      throw new HttpError('ERR_HTTP_BAD_REQUEST', what);
    }
    const { attributes = {}, relationships = {} } = data as { attributes?: unknown; relationships?: unknown };
    if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)
      || typeof relationships !== 'object' || relationships === null || Array.isArray(relationships)) {
      throw new HttpError('ERR_HTTP_BAD_REQUEST', 'Expected "attributes" and "relationships" to be objects.');
    }
    const out: Record<string, unknown> = { ...(attributes as Doc) };
    delete out._id;
    for (const [name, link] of Object.entries(relationships as Doc)) {
      const linked = (link as { data?: unknown } | null)?.data;
      if (linked === null) { out[name] = null; continue; }
      const ref = linked as { type?: unknown; id?: unknown };
      if (typeof ref !== 'object' || typeof ref.id !== 'string') {
        const what = `Expected relationships.${name}.data to be { "type", "id" } or null.`;
        throw new HttpError('ERR_HTTP_BAD_REQUEST', what);
      }
      const property = c.resource.metadata.properties.find((p) => p.name === name);
      const prefix = property?.relation === undefined ? undefined : c.paths.prefixes[property.relation];
      // an id is an IRI (what the API writes) or the identifier alone ("1", as JSON:API clients send)
      const type = c.paths.resources.get(property?.relation ?? '')?.metadata.identifier;
      out[name] = prefix !== undefined && idFromIri(ref.id, prefix, c.base.baseUrl, type) === null
        && parseItemId(type, ref.id) !== null ? itemIri(prefix, parseItemId(type, ref.id)!, c.base.baseUrl) : ref.id;
    }
    return out;
  },
  docs: {
    item: (c) => c.define(c.name('jsonapi'), () => ({
      type: 'object',
      description: `A ${c.shortName} as a JSON:API document.`,
      properties: { data: resourceObjectSchema(c), included: INCLUDED_SCHEMA },
      required: ['data'],
    })),
    collection: (c) => ({
      type: 'object',
      properties: {
        links: {
          type: 'object',
          properties: Object.fromEntries(['self', 'first', 'last', 'prev', 'next'].map((k) => [k, IRI_SCHEMA])),
          required: ['self'],
        },
        meta: {
          type: 'object',
          properties: {
            totalItems: { type: 'integer', minimum: 0, description: 'Absent in partial pagination.' },
            itemsPerPage: { type: 'integer', minimum: 0 },
            currentPage: { type: 'integer', minimum: 1 },
          },
        },
        data: { type: 'array', items: resourceObjectSchema(c) },
        included: INCLUDED_SCHEMA,
      },
      required: ['links', 'data'],
    }),
    input: (c) => bodySchema(c, c.flat.input),
    patch: (c) => bodySchema(c, c.flat.patch),
  },
};
