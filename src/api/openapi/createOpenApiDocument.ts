import type { ApiDescription, DtoDescription, OperationDescription, ResourceDescription } from '../describeApi';
import type { FormatDocsContext } from '../format/Format';
import { ID_REQUIREMENTS, type IdentifierType } from '../state/identifier';
import { ERROR_DESCRIPTIONS, ERROR_SCHEMAS, errorSchemas, PROBLEM } from './errorSchemas';
import { kindDefinition } from '../property/propertyKinds';
import { definitionName } from './definitionName';
import { resourceSchemas, type JsonSchema, type ResourceSchemaNames } from './resourceSchemas';
import { createSchemaCatalog, schemaRef, type OperationSchemas, type SchemaCatalog } from './schemaCatalog';

/** The security schemes the document can name (OpenAPI 3.1 §4.8.27, RFC 7617 and RFC 6750). */
export type SecuritySchemeName = 'basicAuth' | 'bearerAuth';

/** Options of {@link createOpenApiDocument}. All optional. */
export interface OpenApiOptions {
  /** `info.title`. @default 'API' */
  readonly title?: string;
  /** `info.version`: the API's own version, not OpenAPI's. @default '1.0.0' */
  readonly version?: string;
  /** `info.description` (CommonMark). */
  readonly description?: string;
  /**
   * The authentication schemes clients may use: HTTP Basic (RFC 7617) and bearer tokens
   * (RFC 6750). @default ['basicAuth', 'bearerAuth']
   */
  readonly securitySchemes?: readonly SecuritySchemeName[];
}

/** An OpenAPI 3.1 document (the parts this module writes). */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { title: string; version: string; description?: string };
  /**
   * `[{ url: <entrypoint> }]` (e.g. `/api`) with paths relative to it (`/books/{id}`) when every
   * operation lives under the entrypoint, else `[{ url: '/' }]` with the routes' full paths.
   */
  readonly servers: Array<{ url: string }>;
  readonly paths: Record<string, Record<string, unknown>>;
  readonly components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
  readonly security: Array<Record<string, string[]>>;
  readonly tags: Array<{ name: string; description: string }>;
}

const SCHEMES: Readonly<Record<SecuritySchemeName, object>> = {
  basicAuth: { type: 'http', scheme: 'basic', description: 'HTTP Basic authentication (RFC 7617).' },
  bearerAuth: { type: 'http', scheme: 'bearer', description: 'A bearer token (RFC 6750).' },
};

const ref = schemaRef;

/** What a format's `docs` are given for one operation of a resource. */
function docsContext(resource: ResourceDescription, own: OperationSchemas, catalog: SchemaCatalog): FormatDocsContext {
  const relations = Object.fromEntries(resource.metadata.properties
    .filter((p) => kindDefinition(p.kind).link && p.relation !== undefined)
    .map((p) => [p.name, { target: p.relation!, many: p.kind === 'relations' }]));
  return {
    names: own.names,
    ref,
    shortName: resource.shortName,
    flat: { output: own.flatOutput, input: own.flatInput, patch: own.flatPatch },
    relations,
    name: (variant) => definitionName(resource.shortName, variant, own.normalizationGroups),
    define: catalog.define,
  };
}

/** The schema of an item or a collection in the format of a media type (a string when it documents none). */
function outputSchema(api: ApiDescription, type: string, docs: FormatDocsContext, collection: boolean): JsonSchema {
  const format = api.formatsByType.get(type)?.docs;
  if (format === undefined) return { type: 'string' };
  return collection ? format.collection(docs) : format.item(docs);
}

/** The collection in each of the operation's formats (JSON-LD's Hydra collection, HAL's, a plain array…). */
function collectionContent(api: ApiDescription, docs: FormatDocsContext, formats: readonly string[]) {
  return Object.fromEntries(formats.map((f) => [f, { schema: outputSchema(api, f, docs, true) }]));
}

/** One item in each of the operation's formats. */
function itemContent(api: ApiDescription, docs: FormatDocsContext, formats: readonly string[]) {
  return Object.fromEntries(formats.map((f) => [f, { schema: outputSchema(api, f, docs, false) }]));
}

/**
 * What the router can answer before the operation runs, for an id its requirement refuses: a
 * 404 when no route matches the path, a 405 when another operation's route on the same path
 * (with a looser requirement) matches it, both rendered by the kernel (problem details for a
 * client that accepts them, else its HTML page), as for any unrouted request.
 */
interface RouterAnswers {
  readonly refusesIds: boolean;
  readonly otherMethodsMatch: boolean;
}

/** The 4xx statuses an operation can answer. */
function errorStatuses(op: OperationDescription, withSecurity: boolean, router: RouterAnswers): number[] {
  const statuses = new Set<number>([406]);
  if (router.otherMethodsMatch) statuses.add(405);
  // wrong credentials are a 401 on any route the firewall covers
  if (withSecurity) statuses.add(401);
  if (op.secured || op.securedPostDenormalize || op.securedPostValidation) statuses.add(403);
  if (op.kind === 'GetCollection') statuses.add(400);
  if (op.item) statuses.add(404);
  if (op.input) for (const s of [400, 413, 415, 422]) statuses.add(s);
  if (op.kind === 'Put' || op.kind === 'Patch' || op.kind === 'Delete') statuses.add(412);
  // a Put that creates, beaten by another client's create (without If-None-Match)
  if (op.kind === 'Delete' || op.allowCreate) statuses.add(409);
  return [...statuses].sort((a, b) => a - b);
}

function errorResponse(status: number, router: RouterAnswers): object {
  const violations = status === 422;
  if (status === 405) {
    return {
      description: 'Method not allowed: the id is not one this operation accepts, but the route of another '
        + 'method matches it (the `Allow` header lists them).',
      content: { [PROBLEM]: { schema: ref(ERROR_SCHEMAS.error) }, 'text/html': { schema: { type: 'string' } } },
    };
  }
  return {
    description: ERROR_DESCRIPTIONS[status] ?? 'Error.',
    content: {
      // every format's errors, JSON-LD's with its Hydra keys (API Platform 3.4's default)
      [PROBLEM]: { schema: ref(violations ? ERROR_SCHEMAS.violations : ERROR_SCHEMAS.error) },
      // the HTTP Basic challenge (Symfony's BasicAuthenticationEntryPoint): an empty text/html body
      ...(status === 401 ? { 'text/html': { schema: { type: 'string', maxLength: 0 } } } : {}),
      // an id the route's requirement refuses matches no route: the router's 404, an HTML page for
      // a client that accepts no problem details (as for any unrouted request)
      ...(status === 404 && router.refusesIds ? { 'text/html': { schema: { type: 'string' } } } : {}),
    },
  };
}

const ETAG = { description: 'The item\'s strong entity tag (RFC 9110 §8.8.3).', schema: { type: 'string' } };

function successResponses(
  op: OperationDescription, docs: FormatDocsContext, api: ApiDescription,
): Record<string, unknown> {
  const formats = op.formats;
  switch (op.kind) {
    case 'GetCollection':
      return {
        200: {
          description: 'A page of the collection.',
          headers: {
            Link: { description: 'RFC 8288 links to the other pages (plain JSON).', schema: { type: 'string' } },
          },
          content: collectionContent(api, docs, formats),
        },
      };
    case 'Get':
      return {
        200: { description: 'The item.', headers: { ETag: ETAG }, content: itemContent(api, docs, formats) },
        304: { description: 'Not modified: the If-None-Match tag is the item\'s current ETag.' },
      };
    case 'Post':
      return {
        201: {
          description: 'Created.',
          headers: {
            Location: { description: 'The new item\'s IRI.', schema: { type: 'string' } },
            'Content-Location': { description: 'The new item\'s IRI.', schema: { type: 'string' } },
            ETag: ETAG,
          },
          content: itemContent(api, docs, formats),
        },
      };
    case 'Put':
    case 'Patch':
      return {
        200: { description: 'The item, changed.', headers: { ETag: ETAG }, content: itemContent(api, docs, formats) },
        ...(op.allowCreate ? {
          201: {
            description: 'Created: no item had this id (`allowCreate`).',
            headers: { Location: { description: 'The new item\'s IRI.', schema: { type: 'string' } }, ETag: ETAG },
            content: itemContent(api, docs, formats),
          },
        } : {}),
      };
    case 'Delete':
      return { 204: { description: 'Deleted.' } };
  }
}

/**
 * The server URL the paths are relative to: the API's entrypoint (`/api`) when every operation's
 * path starts with it, else `''` (the routes' full paths, under `servers: [{ url: '/' }]`).
 * API Platform's OpenApiFactory always writes `/` and full paths; clients that build a resource's
 * URL from `servers[0].url` and the path (api-doc-parser, behind API Platform Admin) then find no
 * list or create operation behind a prefix, so the entrypoint becomes the server here.
 */
function serverBase(api: ApiDescription): string {
  const prefix = api.entrypoint.replace(/\/+$/, '');
  if (prefix === '') return '';
  const all = api.resources.flatMap((r) => r.operations);
  return all.length > 0 && all.every((op) => op.path.startsWith(`${prefix}/`)) ? prefix : '';
}

/**
 * The schema of the `id` path parameter, one for every operation on the path (a generated client
 * types the id once per resource, not once per method): the identifier's type (`id` in the output
 * schema), an integer from 0 for integer ids; a composite id's parts as its description
 * (`name=<name>;year=<year>`); for string ids, the route requirement when every operation on the
 * path has the same one, and `format: uuid` for UUIDs (as the `id` property has it). An operation
 * whose route requirement is looser than the schema (`PUT /api/books/abc` when only GET says
 * `\d+`) still answers such an id, with a 404.
 */
function idSchema(resource: ResourceDescription, path: string, idType: unknown): JsonSchema {
  if (idType === 'integer') return { type: 'integer', minimum: 0 };
  // a composite identifier: its parts, as API Platform's CompositeIdentifierParser reads them
  const parts = resource.metadata.compositeKey;
  if (parts !== undefined) return { type: 'string', description: parts.map((p) => `${p}=<${p}>`).join(';') };
  const requirements = new Set(resource.operations.filter((o) => o.path === path).map((o) => o.requirements.id));
  const [only] = [...requirements];
  return stringIdSchema(resource.metadata.identifier, requirements.size === 1 ? only : undefined);
}

/** A string id's schema: `format: uuid` for a UUID, the route requirement as its pattern when there is one. */
function stringIdSchema(type: IdentifierType | undefined, requirement: string | undefined): JsonSchema {
  return {
    type: 'string',
    ...(type === 'uuid' ? { format: 'uuid' } : {}),
    ...(requirement !== undefined ? { pattern: `^(?:${requirement})$` } : {}),
  };
}

/**
 * The schema of a link's variable (`authorId` of `/authors/{authorId}/books`): an id of the linked
 * resource (`linkTypes`), as its own `{id}` is: an integer from 0 under the default requirement,
 * else a string (`format: uuid` for a UUID) with the route requirement as its pattern.
 */
function linkSchema(type: IdentifierType | undefined, requirement: string | undefined): JsonSchema {
  if (type === 'integer' && requirement === ID_REQUIREMENTS.integer) return { type: 'integer', minimum: 0 };
  return stringIdSchema(type, requirement);
}

function parametersOf(op: OperationDescription, id: JsonSchema): unknown[] {
  const parameters: unknown[] = [];
  if (op.item) {
    parameters.push({ name: 'id', in: 'path', required: true, description: 'The item\'s identifier.', schema: id });
  }
  // a subresource's link variables (`/authors/{authorId}/books`): each path template variable is a
  // path parameter (OpenAPI 3.1 §4.8.12.1), matched by its route requirement when it has one
  for (const [, name] of op.path.matchAll(/\{([^}]+)\}/g)) {
    if (op.item && name === 'id') continue;
    parameters.push({
      name, in: 'path', required: true, description: `The identifier of the item \`${name}\` names.`,
      schema: linkSchema(op.linkTypes[name], op.requirements[name]),
    });
  }
  for (const p of op.parameters) {
    const array = p.schema.type === 'array';
    parameters.push({
      name: p.name,
      in: 'query',
      required: false,
      description: p.description,
      schema: p.schema,
      ...(array ? { style: 'form', explode: true } : {}),
    });
  }
  return parameters;
}

function conditionalHeaders(op: OperationDescription): unknown[] {
  const header = (name: string, description: string): object => ({
    name, in: 'header', required: false, description, schema: { type: 'string' },
  });
  if (op.kind === 'Get') {
    return [header('If-None-Match', 'A 304 when the item\'s ETag is one of these (RFC 9110 §13.1.2).')];
  }
  if (op.kind === 'Put' || op.kind === 'Patch' || op.kind === 'Delete') {
    return [
      header('If-Match', 'Change nothing (412) unless the item\'s ETag is one of these (RFC 9110 §13.1.1).'),
      header('If-None-Match', op.allowCreate
        ? 'With `*`: create only; change nothing (412) when the item exists (RFC 9110 §13.1.2).'
        : 'Change nothing (412) when `*` or the item\'s ETag is one of these (RFC 9110 §13.1.2).'),
    ];
  }
  return [];
}

/** The component names of an operation's input and output DTOs (API Platform names them after the class). */
interface DtoNames {
  readonly input?: ResourceSchemaNames;
  readonly output?: ResourceSchemaNames;
}

/**
 * The schemas of an operation's input and output DTOs, added to `schemas` under
 * `<shortName>.<operation name>.input` (`.patch` for a Patch) and `.output` (with its `.jsonld`,
 * `.jsonhal`… variants; an output's `@type` is the resource's).
 */
function dtoSchemas(
  op: OperationDescription, resource: ResourceDescription, schemas: Record<string, JsonSchema>,
): DtoNames {
  const of = (dto: DtoDescription | undefined, name: string, only?: 'input'): ResourceSchemaNames | undefined => {
    if (dto === undefined) return undefined;
    const own = resourceSchemas({ ...resource, ...dto, securedProperties: [] }, name);
    // an input DTO: its body schemas alone (`<name>.input`, `<name>.patch`)
    const kept = only === undefined ? Object.keys(own.components) : [own.names.input, own.names.patch];
    for (const k of kept) schemas[k] = own.components[k];
    return own.names;
  };
  const input = of(op.inputDto, `${resource.shortName}.${op.name}`, 'input');
  const output = of(op.outputDto, `${resource.shortName}.${op.name}.output`);
  return { ...(input !== undefined ? { input } : {}), ...(output !== undefined ? { output } : {}) };
}

/** The docs contexts of an operation's DTOs: the resource's, with the DTOs' names and plain schemas, no relations. */
interface DtoDocs {
  readonly input?: FormatDocsContext;
  readonly output?: FormatDocsContext;
}

function dtoDocs(docs: FormatDocsContext, names: DtoNames, schemas: Record<string, JsonSchema>): DtoDocs {
  const of = (own: ResourceSchemaNames | undefined): FormatDocsContext | undefined => (own === undefined ? undefined : {
    ...docs,
    names: own,
    flat: {
      output: schemas[own.output] ?? {},
      input: schemas[own.input] ?? schemas[own.output] ?? {},
      patch: schemas[own.patch] ?? {},
    },
    relations: {},
    name: (variant) => definitionName(own.output, variant),
  });
  const input = of(names.input);
  const output = of(names.output);
  return { ...(input !== undefined ? { input } : {}), ...(output !== undefined ? { output } : {}) };
}

function operationObject(
  op: OperationDescription, resource: ResourceDescription, docs: FormatDocsContext, api: ApiDescription,
  operationId: string, schemes: readonly SecuritySchemeName[], id: JsonSchema, dto: DtoDocs,
): Record<string, unknown> {
  const requirement = op.requirements.id;
  const router: RouterAnswers = {
    // without a requirement, symfony/routing's default `[^/]+` still refuses an id holding a `/`
    refusesIds: op.item,
    otherMethodsMatch: op.item && requirement !== undefined && api.resources.some((r) => r.operations
      .some((other) => other.path === op.path && other.method !== op.method && other.requirements.id !== requirement)),
  };
  const responses: Record<string, unknown> = successResponses(op, dto.output ?? docs, api);
  if (!op.output) {
    // `output: false`: the success answers have no body
    for (const [status, response] of Object.entries(responses)) {
      if (status.startsWith('2')) {
        const { content: _none, ...rest } = response as Record<string, unknown>;
        responses[status] = { ...rest, description: `${String(rest.description)} No body.` };
      }
    }
  }
  for (const status of errorStatuses(op, schemes.length > 0, router)) responses[status] = errorResponse(status, router);
  const operation: Record<string, unknown> = {
    operationId,
    tags: [resource.shortName],
    summary: op.summary,
    ...(op.role !== undefined ? { description: `Needs ${op.role}.` } : {}),
    parameters: [...parametersOf(op, id), ...conditionalHeaders(op)],
    responses,
  };
  if (op.input) {
    const patch = op.kind === 'Patch';
    const body = (type: string): JsonSchema | undefined => {
      const format = api.formatsByType.get(type)?.docs;
      const own = dto.input ?? docs;
      return patch ? format?.patch?.(own) : format?.input?.(own);
    };
    operation.requestBody = {
      required: true,
      description: op.kind === 'Patch'
        ? 'The properties to change (RFC 7386 merge patch).'
        : `The ${resource.shortName}.`,
      content: Object.fromEntries(op.inputTypes.map((t) => [t, { schema: body(t) ?? { type: 'string' } }])),
    };
  }
  if (op.secured && schemes.length > 0) operation.security = schemes.map((s) => ({ [s]: [] }));
  return operation;
}

/**
 * The OpenAPI 3.1 document of an API (API Platform's `OpenApiFactory`): every resource's
 * operations with their parameters (the id, `page`, `itemsPerPage`, `partial`, each filter's
 * parameters such as `title[]`, `order[title]`, `price[between]`, `exists[author]`), request
 * bodies (`application/ld+json` and `application/json`; `application/merge-patch+json` for
 * PATCH), success responses in every format (JSON-LD/Hydra, HAL, JSON), the 4xx problem details
 * (RFC 9457) an operation can answer (422 with `violations`), and the HTTP Basic and bearer
 * security schemes. Schemas come from each resource's zod schema (`z.toJSONSchema`).
 * @param api - from `describeApi(resources)`
 * @param options - title, version, description, security schemes
 * @returns a plain object, ready for `JSON.stringify`
 */
export function createOpenApiDocument(api: ApiDescription, options: OpenApiOptions = {}): OpenApiDocument {
  const schemes = options.securitySchemes ?? ['basicAuth', 'bearerAuth'];
  const schemas: Record<string, JsonSchema> = { ...errorSchemas() };
  const catalog = createSchemaCatalog(api, schemas);
  catalog.prepare();
  const paths: Record<string, Record<string, unknown>> = {};
  const names = new Map<string, number>();
  const base = serverBase(api);
  for (const r of api.resources) for (const op of r.operations) names.set(op.name, (names.get(op.name) ?? 0) + 1);
  for (const resource of api.resources) {
    for (const op of resource.operations) {
      const own = catalog.operation(resource, op);
      const idType = ((own.flatOutput.properties ?? {}) as Record<string, JsonSchema>).id?.type;
      const operationId = (names.get(op.name) ?? 0) > 1 ? `${op.name}_${op.method.toLowerCase()}` : op.name;
      const item = (paths[op.path.slice(base.length)] ??= {});
      const id = idSchema(resource, op.path, idType);
      const docs = docsContext(resource, own, catalog);
      const dto = dtoDocs(docs, dtoSchemas(op, resource, schemas), schemas);
      item[op.method.toLowerCase()] = operationObject(op, resource, docs, api, operationId, schemes, id, dto);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: options.title ?? 'API',
      version: options.version ?? '1.0.0',
      ...(options.description !== undefined ? { description: options.description } : {}),
    },
    servers: [{ url: base === '' ? '/' : base }],
    paths,
    components: { schemas, securitySchemes: Object.fromEntries(schemes.map((s) => [s, SCHEMES[s]])) },
    // reads are open to anonymous clients unless an operation says otherwise
    security: [{}, ...schemes.map((s) => ({ [s]: [] }))],
    tags: api.resources.map((r) => ({ name: r.shortName, description: r.description })),
  };
}
