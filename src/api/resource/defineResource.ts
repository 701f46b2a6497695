import { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { integerFrom, nonEmptyString, objectWith, optionsObject } from '../../config/optionSchemas';
import { parseOptions } from '../../config/parseOptions';
import type { PostDenormalizeContext, SecurityContext } from '../../security/RouteSecurity';
import type { ResourceMetadata, StateProcessor, StateProvider } from '../state/types';
import { propertiesOf } from '../schema/metadata';
import { cacheHeadersSchema, type CacheHeaders } from '../httpCache/cacheHeaders';
import type { FilterDeclaration } from './filters';
import { resolveFilters, type ResolvedFilter } from './filterResolution';
import {
  Delete, Get, GetCollection, ITEM_KINDS, OPERATION_METHODS, Patch, Post, Put,
  type OperationKind, type SecurityRule,
} from './operations';

const RULE = 'expected a role such as "ROLE_USER" or a function (context) => boolean';

/** An access rule ({@link SecurityRule}): a non-empty string or a function. */
function ruleSchema<C>(): z.ZodCustom<SecurityRule<C>, SecurityRule<C>> {
  return z.custom<SecurityRule<C>>(
    (v) => typeof v === 'function' || (typeof v === 'string' && v !== ''), { error: RULE },
  );
}

/** The schema of {@link PaginationOptions} (API Platform's `pagination_*` options). */
export const paginationOptionsSchema = optionsObject({
  /** Paginate collections. @default true */
  enabled: z.boolean().optional(),
  /** Items per page when the client does not say; at most `maximumItemsPerPage`. @default 30 */
  itemsPerPage: integerFrom(1).optional(),
  /**
   * The most a client may ask for with `itemsPerPage`; more is clamped to it (a 400 with the
   * operation's `strictQueryParameterValidation`). @default 100
   */
  maximumItemsPerPage: integerFrom(1).optional(),
  /** Clients may choose `itemsPerPage`. @default true */
  clientItemsPerPage: z.boolean().optional(),
  /** Partial pagination by default: no count, no `last`, only `next`. @default false */
  partial: z.boolean().optional(),
  /** Clients may ask for partial pagination with `partial=true`. @default true */
  clientPartial: z.boolean().optional(),
});

/** Pagination settings of a resource (API Platform's `pagination_*` options). All optional. */
export type PaginationOptions = z.input<typeof paginationOptionsSchema>;

/** {@link PaginationOptions} resolved. */
export type ResolvedPagination = Readonly<Required<PaginationOptions>>;

/**
 * The schema of one operation as declared (`Get()`, `Post({...})`; see `OperationOptions`
 * in operations.ts for each field's meaning).
 */
const operationSchema = optionsObject({
  kind: z.enum(Object.keys(OPERATION_METHODS) as [OperationKind, ...OperationKind[]], {
    error: 'expected GetCollection, Get, Post, Put, Patch or Delete',
  }),
  name: nonEmptyString.optional(),
  path: nonEmptyString.optional(),
  requirements: z.record(z.string(), z.string({ error: 'expected a regex (a string)' })).optional(),
  security: ruleSchema<SecurityContext>().optional(),
  securityMessage: z.string().optional(),
  securityPostDenormalize: ruleSchema<PostDenormalizeContext>().optional(),
  securityPostDenormalizeMessage: z.string().optional(),
  summary: z.string().optional(),
  strictQueryParameterValidation: z.boolean().optional(),
  cacheHeaders: cacheHeadersSchema.optional(),
});

/**
 * The schema of {@link ResourceOptions}, validated once by {@link defineResource}; the checks
 * that need several options (paths of item operations, a processor for writes, route names,
 * filters against the schema's properties) follow the parse.
 */
export const resourceOptionsSchema = optionsObject({
  /** API Platform's short name, e.g. `Book`: the JSON-LD `@type`, the name in IRIs and documentation. */
  shortName: z.string({ error: 'expected a PascalCase name such as "Book"' })
    .regex(/^[A-Z][A-Za-z0-9]*$/, { error: 'expected a PascalCase name such as "Book"' }),
  /**
   * The item's properties as a zod object (zod 4). `id` may be listed (an integer, read-only) or
   * left out; the store chooses it. See `relation()`, `readOnly()`, `writeOnly()`.
   */
  schema: z.custom<z.ZodObject>((v) => v instanceof z.ZodObject, { error: 'expected a zod object (z.object({...}))' }),
  /** @default every operation: GetCollection, Get, Post, Put, Patch, Delete */
  operations: z.array(operationSchema).readonly().optional(),
  /** Reads items. */
  provider: objectWith<StateProvider>(
    ['provideCollection', 'provideItem'], 'a StateProvider (provideCollection, provideItem)',
  ),
  /** Writes items; required when a write operation is declared. */
  processor: objectWith<StateProcessor>(['create', 'replace', 'remove'], 'a StateProcessor (create, replace, remove)')
    .optional(),
  /** @default every filter off */
  filters: z.array(z.custom<FilterDeclaration>()).readonly().optional(),
  /** Pagination of the collection. @default {@link PaginationOptions}' defaults */
  pagination: paginationOptionsSchema.optional(),
  /** The default `security` of every operation (an operation's own replaces it). */
  security: ruleSchema<SecurityContext>().optional(),
  /** The default `securityMessage`. */
  securityMessage: z.string().optional(),
  /** The collection's path; item paths add `/{id}`. @default `/api/<plural of shortName, snake case>` */
  routePrefix: nonEmptyString.optional(),
  /** The table name stores use. @default the plural, snake case: `books`, `book_reviews` */
  table: z.string({ error: 'expected a snake_case table name' })
    .regex(/^[a-z_][a-z0-9_]*$/, { error: 'expected a snake_case table name' }).optional(),
  /**
   * A sentence for the documentation (Hydra `hydra:description`, OpenAPI tag).
   * @default the schema's `.describe()`, else `<shortName> resources.`
   */
  description: z.string().optional(),
  /**
   * The `Cache-Control` and `Vary` of the resource's successful GETs (API Platform's
   * `cacheHeaders`); an operation's own replaces it, each key left out falls back to the API's.
   * @default none: the API's (`apiRoutes({ cacheHeaders })`)
   */
  cacheHeaders: cacheHeadersSchema.optional(),
});

/** Options of {@link defineResource}: {@link resourceOptionsSchema}'s input, with the schema's own type. */
export type ResourceOptions<S extends z.ZodObject = z.ZodObject> =
  Omit<z.input<typeof resourceOptionsSchema>, 'schema'> & {
    /**
     * The item's properties as a zod object (zod 4). `id` may be listed (an integer, read-only) or
     * left out; the store chooses it. See `relation()`, `readOnly()`, `writeOnly()`.
     */
    schema: S;
  };

type ParsedOptions = z.output<typeof resourceOptionsSchema>;
type ParsedOperation = z.output<typeof operationSchema>;

/** An operation with every default resolved. */
export interface ResolvedOperation {
  readonly kind: OperationKind;
  /** The route name. */
  readonly name: string;
  /** The HTTP method (GET also answers HEAD). */
  readonly method: string;
  /** The route path, e.g. `/api/books/{id}`. */
  readonly path: string;
  readonly requirements: Readonly<Record<string, string>>;
  /** True for Get, Put, Patch, Delete. */
  readonly item: boolean;
  readonly security?: SecurityRule<SecurityContext>;
  readonly securityMessage?: string;
  readonly securityPostDenormalize?: SecurityRule<PostDenormalizeContext>;
  readonly securityPostDenormalizeMessage?: string;
  readonly summary: string;
  /** GetCollection: unknown and unreadable query parameters are 400s (see `OperationOptions`). */
  readonly strictQueryParameterValidation: boolean;
  /** The operation's `cacheHeaders`, else the resource's; undefined: the API's. */
  readonly cacheHeaders?: Readonly<CacheHeaders>;
}

/** A resource, validated and resolved (what `apiRoutes` and `describeApi` read). */
export interface Resource<S extends z.ZodObject = z.ZodObject> {
  readonly shortName: string;
  readonly schema: S;
  /** What the stores know: table, properties (kinds, nullable, readOnly, writeOnly, relations). */
  readonly metadata: ResourceMetadata;
  readonly operations: readonly ResolvedOperation[];
  readonly provider: StateProvider;
  readonly processor?: StateProcessor;
  readonly filters: readonly ResolvedFilter[];
  readonly pagination: ResolvedPagination;
  /** The collection path, e.g. `/api/books`; an item's IRI is `<routePrefix>/<id>`. */
  readonly routePrefix: string;
  readonly description: string;
}

/** `BookReview` → `book_review`. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/** English plural of a snake-case name, as API Platform's inflector does for the usual cases. */
export function plural(name: string): string {
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

function resolvePagination(p: PaginationOptions, option: string): ResolvedPagination {
  const maximumItemsPerPage = p.maximumItemsPerPage ?? 100;
  const itemsPerPage = p.itemsPerPage ?? Math.min(30, maximumItemsPerPage);
  if (itemsPerPage > maximumItemsPerPage) {
    const what = `expected at most maximumItemsPerPage (${maximumItemsPerPage})`;
    throw invalidOption(`${option}.itemsPerPage`, what, itemsPerPage);
  }
  return Object.freeze({
    enabled: p.enabled ?? true,
    itemsPerPage,
    maximumItemsPerPage,
    clientItemsPerPage: p.clientItemsPerPage ?? true,
    partial: p.partial ?? false,
    clientPartial: p.clientPartial ?? true,
  });
}

function resolveOperation(
  declared: ParsedOperation, index: number, o: ParsedOptions, prefix: string, option: string,
): ResolvedOperation {
  const at = `${option}.operations[${index}]`;
  const item = ITEM_KINDS.includes(declared.kind);
  const path = declared.path ?? (item ? `${prefix}/{id}` : prefix);
  if (item && !path.includes('{id}')) {
    throw invalidOption(`${at}.path`, 'expected a path with an {id} placeholder', path);
  }
  const requirements = declared.requirements ?? (item && declared.path === undefined ? { id: '\\d+' } : {});
  if (declared.strictQueryParameterValidation !== undefined && declared.kind !== 'GetCollection') {
    const what = 'only GetCollection reads query parameters';
    throw invalidOption(`${at}.strictQueryParameterValidation`, what, declared.strictQueryParameterValidation);
  }
  if (declared.securityPostDenormalize !== undefined && !['Post', 'Put', 'Patch'].includes(declared.kind)) {
    const what = 'only Post, Put and Patch read a body';
    throw invalidOption(`${at}.securityPostDenormalize`, what, undefined, { got: 'a rule' });
  }
  const name = declared.name ?? `${snakeCase(o.shortName)}_${snakeCase(declared.kind)}`;
  const security = declared.security ?? o.security;
  const cacheHeaders = declared.cacheHeaders ?? o.cacheHeaders;
  return Object.freeze({
    kind: declared.kind,
    name,
    method: OPERATION_METHODS[declared.kind],
    path,
    requirements: Object.freeze({ ...requirements }),
    item,
    ...(security !== undefined ? { security } : {}),
    ...(declared.securityMessage ?? o.securityMessage) !== undefined
      ? { securityMessage: declared.securityMessage ?? o.securityMessage } : {},
    ...(declared.securityPostDenormalize !== undefined
      ? { securityPostDenormalize: declared.securityPostDenormalize } : {}),
    ...(declared.securityPostDenormalizeMessage !== undefined
      ? { securityPostDenormalizeMessage: declared.securityPostDenormalizeMessage } : {}),
    summary: declared.summary ?? defaultSummary(declared.kind, o.shortName),
    strictQueryParameterValidation: declared.strictQueryParameterValidation === true,
    ...(cacheHeaders !== undefined ? { cacheHeaders: Object.freeze({ ...cacheHeaders }) } : {}),
  });
}

/** The object schema's own description (`z.object({…}).describe('…')`), if it has one. */
function schemaDescription(schema: z.ZodObject): string | undefined {
  const description = schema.meta()?.description;
  return typeof description === 'string' ? description : undefined;
}

function defaultSummary(kind: OperationKind, shortName: string): string {
  switch (kind) {
    case 'GetCollection': return `Retrieves the collection of ${shortName} resources.`;
    case 'Get': return `Retrieves a ${shortName} resource.`;
    case 'Post': return `Creates a ${shortName} resource.`;
    case 'Put': return `Replaces the ${shortName} resource.`;
    case 'Patch': return `Updates the ${shortName} resource.`;
    case 'Delete': return `Removes the ${shortName} resource.`;
  }
}

/**
 * Declares a resource (API Platform's `#[ApiResource]`): its schema, operations, state
 * provider and processor, filters and pagination. Validated here, once.
 * @returns the resolved resource, frozen; give it to `apiRoutes()` (routes) and `describeApi()`
 * @throws KernelConfigError naming the option, e.g. `resources.Book.operations[2].path`, for an
 *   unknown option, a schema property of an unsupported type, a write operation without a
 *   processor, an unknown filter property or two operations with one route name and different paths
 * @example defineResource({ shortName: 'Book', schema: z.object({ title: z.string().min(1) }),
 *   provider: store, processor: store, operations: [GetCollection(), Get(), Post({ security: 'ROLE_USER' })] })
 */
export function defineResource<S extends z.ZodObject>(options: ResourceOptions<S>): Resource<S> {
  // the short name first: the other options' messages name the resource by it
  const named = z.looseObject({ shortName: resourceOptionsSchema.shape.shortName });
  const { shortName } = parseOptions(named, options, 'resource');
  const option = `resources.${shortName}`;
  const o = parseOptions(resourceOptionsSchema, options, option);
  const snake = snakeCase(shortName);
  const prefix = o.routePrefix ?? `/api/${plural(snake)}`;
  const table = o.table ?? plural(snake);
  const properties = propertiesOf(o.schema.shape, `${option}.schema`);
  const metadata: ResourceMetadata = Object.freeze({ shortName, table, properties: Object.freeze(properties) });
  const declared = o.operations ?? [GetCollection(), Get(), Post(), Put(), Patch(), Delete()];
  const operations = declared.map((d, i) => resolveOperation(d, i, o, prefix, option));
  if (o.processor === undefined && operations.some((op) => op.method !== 'GET')) {
    const what = 'expected a StateProcessor (create, replace, remove) for the write operations';
    throw invalidOption(`${option}.processor`, what, undefined);
  }
  const byName = new Map<string, ResolvedOperation>();
  for (const op of operations) {
    const other = byName.get(op.name);
    if (other !== undefined && (other.path !== op.path || other.method === op.method || !other.item || !op.item)) {
      const what = `expected one route per name: "${op.name}" names two operations that cannot share a route`;
      throw invalidOption(`${option}.operations`, what, op.name);
    }
    byName.set(op.name, op);
  }
  return Object.freeze({
    shortName,
    schema: options.schema,
    metadata,
    operations: Object.freeze(operations),
    provider: o.provider,
    ...(o.processor !== undefined ? { processor: o.processor } : {}),
    filters: resolveFilters(o.filters ?? [], metadata, `${option}.filters`),
    pagination: resolvePagination(o.pagination ?? {}, `${option}.pagination`),
    routePrefix: prefix,
    description: o.description ?? schemaDescription(o.schema) ?? `${shortName} resources.`,
  });
}
