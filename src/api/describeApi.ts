import type { z } from 'zod';
import type { QueryParameter } from './resource/filters';
import type { ResolvedFilter } from './resource/filterResolution';
import type { ResolvedOperation, ResolvedPagination, Resource } from './resource/defineResource';
import type { ResourceMetadata } from './state/types';

/**
 * One operation, as the documentation shows it: its route (kind, name, method, path,
 * requirements, whether it is about one item, as {@link ResolvedOperation} has them), plus what
 * the documentation tells of its security, body and parameters.
 */
export interface OperationDescription
  extends Pick<ResolvedOperation, 'kind' | 'name' | 'method' | 'path' | 'requirements' | 'item'> {
  /** A `security` rule applies (401/403 possible). */
  readonly secured: boolean;
  /** The `security` rule when it is a role or attribute (`'ROLE_USER'`), for the documentation. */
  readonly role?: string;
  /** A `securityPostDenormalize` rule applies (403 possible after the body is read). */
  readonly securedPostDenormalize: boolean;
  /** Reads a request body (Post, Put, Patch). */
  readonly input: boolean;
  /** The request body's media types (Patch: `application/merge-patch+json` only). */
  readonly inputTypes: readonly string[];
  readonly summary: string;
  /** Query parameters (GetCollection: pagination and filters). */
  readonly parameters: readonly QueryParameter[];
}

/** One resource, as the documentation shows it. */
export interface ResourceDescription {
  readonly shortName: string;
  readonly description: string;
  readonly metadata: ResourceMetadata;
  /** The zod schema as declared (`z.toJSONSchema(schema, { io: 'input' | 'output' })`). */
  readonly schema: z.ZodObject;
  /** The collection path (`/api/books`). */
  readonly routePrefix: string;
  readonly operations: readonly OperationDescription[];
  readonly filters: readonly ResolvedFilter[];
  readonly pagination: ResolvedPagination;
}

/** What `describeApi` returns. */
export interface ApiDescription {
  /** The entrypoint path, e.g. `/api`. */
  readonly entrypoint: string;
  /** The media types the resources are served in, the default first. */
  readonly formats: readonly string[];
  readonly resources: readonly ResourceDescription[];
}

/** The media types of the three formats, the default first. */
export const API_FORMATS: readonly string[] = ['application/ld+json', 'application/hal+json', 'application/json'];

/** The media types a write accepts (POST and PUT); PATCH accepts only merge-patch. */
export const INPUT_TYPES: readonly string[] = ['application/ld+json', 'application/json'];
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';

/** The pagination query parameters of a resource's collection. */
export function paginationParameters(p: ResolvedPagination): QueryParameter[] {
  if (!p.enabled) return [];
  const out: QueryParameter[] = [
    {
      name: 'page', filter: 'pagination', schema: { type: 'integer', minimum: 1, default: 1 },
      description: 'The page, from 1.',
    },
  ];
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

/**
 * Lists resources with their metadata, operations, filters and pagination, for documentation
 * generators (OpenAPI, Hydra): API Platform's resource metadata collection.
 * @param resources - what `defineResource` returned
 * @param options - `entrypoint`: the entrypoint path (default `/api`)
 */
export function describeApi(resources: readonly Resource[], options: { entrypoint?: string } = {}): ApiDescription {
  return Object.freeze({
    entrypoint: options.entrypoint ?? '/api',
    formats: API_FORMATS,
    resources: Object.freeze(resources.map((r) => Object.freeze({
      shortName: r.shortName,
      description: r.description,
      metadata: r.metadata,
      schema: r.schema,
      routePrefix: r.routePrefix,
      filters: r.filters,
      pagination: r.pagination,
      operations: Object.freeze(r.operations.map((op) => {
        const input = op.kind === 'Post' || op.kind === 'Put' || op.kind === 'Patch';
        const parameters = op.kind === 'GetCollection'
          ? [...paginationParameters(r.pagination), ...r.filters.flatMap((f) => f.parameters)]
          : [];
        return Object.freeze({
          kind: op.kind,
          name: op.name,
          method: op.method,
          path: op.path,
          requirements: op.requirements,
          item: op.item,
          secured: op.security !== undefined,
          ...(typeof op.security === 'string' ? { role: op.security } : {}),
          securedPostDenormalize: op.securityPostDenormalize !== undefined,
          input,
          inputTypes: input ? (op.kind === 'Patch' ? [MERGE_PATCH_TYPE] : INPUT_TYPES) : [],
          summary: op.summary,
          parameters: Object.freeze(parameters),
        });
      })),
    }))),
  });
}
