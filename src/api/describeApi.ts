import { completeFilters } from './resource/completeFilters';
import { completeLinks } from './resource/completeLinks';
import type { z } from 'zod';
import type { QueryParameter } from './resource/filters';
import type { ResolvedFilter } from './resource/filterResolution';
import type { ResolvedOperation, ResolvedPagination, Resource } from './resource/defineResource';
import type { IdentifierType } from './state/identifier';
import type { ResourceMetadata } from './state/types';
import { type ApiFormats, MERGE_PATCH, resolveFormats } from './format/apiFormats';
import type { Format } from './format/Format';
import { FormatRegistry } from './format/FormatRegistry';
import { operationFormats } from './format/operationFormats';

/**
 * One operation, as the documentation shows it: its route (kind, name, method, path,
 * requirements, whether it is about one item, as {@link ResolvedOperation} has them), plus what
 * the documentation tells of its security, body and parameters.
 */
export interface OperationDescription
  extends Pick<ResolvedOperation, 'kind' | 'name' | 'method' | 'path' | 'requirements' | 'item'> {
  /**
   * The identifier type of the item each `uriVariables` link's variable names (its `fromClass`'s):
   * `{ authorId: 'uuid' }` for `/authors/{authorId}/books` when authors have UUIDs; empty without links.
   */
  readonly linkTypes: Readonly<Record<string, IdentifierType>>;
  /** A `security` rule applies (401/403 possible). */
  readonly secured: boolean;
  /** The `security` rule when it is a role or attribute (`'ROLE_USER'`), for the documentation. */
  readonly role?: string;
  /** A `securityPostDenormalize` rule applies (403 possible after the body is read). */
  readonly securedPostDenormalize: boolean;
  /** A `securityPostValidation` rule applies (403 possible after the body is validated). */
  readonly securedPostValidation: boolean;
  /** Reads a request body (Post, Put, Patch; not with `input: false`). */
  readonly input: boolean;
  /** A Put that creates the item when its id names none (`allowCreate`: 201). */
  readonly allowCreate: boolean;
  /** The input DTO its body is read as (the operation's `input`); absent: the resource's schema. */
  readonly inputDto?: DtoDescription;
  /** Answers with a body (false with `output: false`). */
  readonly output: boolean;
  /** The output DTO its answers are written as (the operation's `output`); absent: the resource's schema. */
  readonly outputDto?: DtoDescription;
  /**
   * The request body's media types: the formats that read bodies and document them (Patch: the
   * API's `patchFormats`, `application/merge-patch+json` by default).
   */
  readonly inputTypes: readonly string[];
  /** The media types of its responses, the default first. */
  readonly formats: readonly string[];
  readonly summary: string;
  /** Query parameters (GetCollection: pagination and filters). */
  readonly parameters: readonly QueryParameter[];
  /** Its `normalizationContext` groups (the operation's, else the resource's); absent: none. */
  readonly normalizationGroups?: readonly string[];
  /** Its `denormalizationContext` groups (the operation's, else the resource's); absent: none. */
  readonly denormalizationGroups?: readonly string[];
}

/** An input or output DTO, as the documentation shows it. */
export interface DtoDescription {
  /** Its zod object as declared. */
  readonly schema: z.ZodObject;
  /** Its properties, as a resource's. */
  readonly metadata: ResourceMetadata;
}

/** The description of an operation's `input` or `output` DTO, if it has one. */
function dtoOf(dto: Resource | false | undefined): DtoDescription | undefined {
  return dto === undefined || dto === false ? undefined : Object.freeze({ schema: dto.schema, metadata: dto.metadata });
}

/** One resource, as the documentation shows it. */
export interface ResourceDescription {
  readonly shortName: string;
  /** The resource's `types` (its RDF classes): the JSON-LD `@type` of its items; absent: the short name. */
  readonly types?: readonly string[];
  readonly description: string;
  readonly metadata: ResourceMetadata;
  /** The zod schema as declared (`z.toJSONSchema(schema, { io: 'input' | 'output' })`). */
  readonly schema: z.ZodObject;
  /** The collection path (`/api/books`). */
  readonly routePrefix: string;
  readonly operations: readonly OperationDescription[];
  readonly filters: readonly ResolvedFilter[];
  readonly pagination: ResolvedPagination;
  /**
   * The properties with a `security` rule: documented as the others are (API Platform does not
   * hide them), but not required in the items sent, since a client the rule denies does not get them.
   */
  readonly securedProperties: readonly string[];
}

/** What `describeApi` returns. */
export interface ApiDescription {
  /** The entrypoint path, e.g. `/api`. */
  readonly entrypoint: string;
  /** The media types the resources are served in, the default first. */
  readonly formats: readonly string[];
  /** The format of each media type the API writes or reads (for each format's `docs`). */
  readonly formatsByType: ReadonlyMap<string, Format>;
  readonly resources: readonly ResourceDescription[];
}

/** RFC 7386's media type, of PATCH bodies by default. */
export const MERGE_PATCH_TYPE = MERGE_PATCH;

/**
 * The pagination query parameters of a collection operation (its `pagination`): `pagination`
 * when clients may turn it on or off, `page`, `itemsPerPage` and `partial` when it is on or
 * clients may turn it on; with a cursor no `page` (its pages are range filters).
 */
export function paginationParameters(p: ResolvedPagination): QueryParameter[] {
  const toggle: QueryParameter[] = p.clientEnabled ? [{
    name: 'pagination', filter: 'pagination', schema: { type: 'boolean', default: p.enabled },
    description: 'Enable or disable pagination; without it the response holds every matching item.',
  }] : [];
  if (!p.enabled && !p.clientEnabled) return [];
  const out: QueryParameter[] = [...toggle];
  if (p.viaCursor.length === 0) {
    out.push({
      name: 'page', filter: 'pagination', schema: { type: 'integer', minimum: 1, default: 1 },
      description: 'The page, from 1.',
    });
  }
  if (p.clientItemsPerPage) {
    out.push({
      name: 'itemsPerPage',
      filter: 'pagination',
      schema: { type: 'integer', minimum: 0, maximum: p.maximumItemsPerPage, default: p.itemsPerPage },
      description: `Items per page, at most ${p.maximumItemsPerPage} (more is clamped); 0 gives the count alone.`,
    });
  }
  if (p.clientPartial) {
    out.push({
      name: 'partial', filter: 'pagination', schema: { type: 'boolean', default: p.partial },
      description: 'Partial pagination: no totalItems and no last page.',
    });
  }
  return out;
}

/** `{ [key]: groups }` as a frozen array, or nothing without groups. */
function groupsOf<K extends string>(
  key: K, groups: ReadonlySet<string> | undefined,
): Partial<Record<K, readonly string[]>> {
  return groups === undefined ? {} : { [key]: Object.freeze([...groups]) } as Record<K, readonly string[]>;
}

/** Options of {@link describeApi}. */
export interface DescribeApiOptions {
  /** The entrypoint path. @default '/api' */
  readonly entrypoint?: string;
  /** The API's formats, as `apiRoutes` takes them. @default ['jsonld', 'jsonhal', 'json'] */
  readonly formats?: FormatRegistry | ApiFormats;
}

/**
 * An operation's media types as documented: its output formats' first types (the default first),
 * and its request body's (POST, PUT: its input formats that read and document bodies; PATCH: the
 * API's `patchFormats` among them), per its `formats`, `inputFormats` and `outputFormats`.
 */
function operationTypes(
  formats: ApiFormats, resource: Resource, op: ResolvedOperation, input: boolean,
): { formats: readonly string[]; inputTypes: readonly string[] } {
  const own = operationFormats(formats, resource, op);
  const bodies = own.inputTypes.filter((t) => formats.registry.byMimeType(t)?.docs?.input !== undefined);
  return {
    formats: own.outputs.flatMap((f) => f.mimeTypes.slice(0, 1)),
    inputTypes: input ? (op.kind === 'Patch' ? own.patchTypes : bodies) : [],
  };
}

/**
 * Lists resources with their metadata, operations, filters and pagination, for documentation
 * generators (OpenAPI, Hydra): API Platform's resource metadata collection.
 * @param declared - what `defineResource` returned (filters on dotted paths are resolved here)
 * @param options - the entrypoint path and the API's formats
 */
export function describeApi(declared: readonly Resource[], options: DescribeApiOptions = {}): ApiDescription {
  const resources = completeLinks(completeFilters(declared));
  const formats = options.formats === undefined || options.formats instanceof FormatRegistry
    ? resolveFormats(options.formats) : options.formats;
  const outputs = formats.all.flatMap((f) => f.mimeTypes.slice(0, 1));
  const byType = new Map<string, Format>();
  for (const f of formats.all) for (const t of f.mimeTypes) byType.set(t, f);
  for (const [t, f] of formats.patch) byType.set(t, f);
  return Object.freeze({
    entrypoint: options.entrypoint ?? '/api',
    formats: Object.freeze(outputs),
    formatsByType: byType,
    resources: Object.freeze(resources.map((r) => Object.freeze({
      shortName: r.shortName,
      ...(r.types !== undefined ? { types: r.types } : {}),
      description: r.description,
      metadata: r.metadata,
      schema: r.schema,
      routePrefix: r.routePrefix,
      filters: r.filters,
      pagination: r.pagination,
      securedProperties: Object.freeze(Object.keys(r.propertySecurity)
        .filter((name) => r.propertySecurity[name].security !== undefined)),
      operations: Object.freeze(r.operations.map((op) => {
        const input = (op.kind === 'Post' || op.kind === 'Put' || op.kind === 'Patch') && op.input !== false;
        const inputDto = dtoOf(op.input);
        const outputDto = dtoOf(op.output);
        const parameters = op.kind === 'GetCollection'
          ? [...paginationParameters(op.pagination), ...r.filters.flatMap((f) => f.parameters)]
          : [];
        return Object.freeze({
          kind: op.kind,
          name: op.name,
          method: op.method,
          path: op.path,
          requirements: op.requirements,
          item: op.item,
          linkTypes: Object.freeze(Object.fromEntries(op.links
            .map((l) => [l.parameter, l.from?.identifier ?? 'integer']))),
          secured: op.security !== undefined,
          ...(typeof op.security === 'string' ? { role: op.security } : {}),
          securedPostDenormalize: op.securityPostDenormalize !== undefined,
          securedPostValidation: op.securityPostValidation !== undefined,
          input,
          allowCreate: op.allowCreate,
          ...(inputDto !== undefined ? { inputDto } : {}),
          output: op.output !== false,
          ...(outputDto !== undefined ? { outputDto } : {}),
          ...operationTypes(formats, r, op, input),
          summary: op.summary,
          parameters: Object.freeze(parameters),
          ...groupsOf('normalizationGroups', op.normalizationContext.groups),
          ...groupsOf('denormalizationGroups', op.denormalizationContext.groups),
        });
      })),
    }))),
  });
}
