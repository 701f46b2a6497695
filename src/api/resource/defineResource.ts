import { z } from 'zod';
import { invalid, knownKeys, objectOption, stringOption } from '../../config/optionValidation';
import type { PostDenormalizeContext, SecurityContext } from '../../security/RouteSecurity';
import type { ResourceMetadata, StateProcessor, StateProvider } from '../state/types';
import { propertiesOf } from '../schema/metadata';
import type { FilterDeclaration } from './filters';
import { resolveFilters, type ResolvedFilter } from './filterResolution';
import {
  Delete, Get, GetCollection, ITEM_KINDS, OPERATION_METHODS, Patch, Post, Put,
  type OperationDeclaration, type OperationKind, type SecurityRule,
} from './operations';

/** Pagination settings of a resource (API Platform's `pagination_*` options). All optional. */
export interface PaginationOptions {
  /** Paginate collections. @default true */
  enabled?: boolean;
  /** Items per page when the client does not say. @default 30 */
  itemsPerPage?: number;
  /** The most a client may ask for with `itemsPerPage`; more is a 400. @default 100 */
  maximumItemsPerPage?: number;
  /** Clients may choose `itemsPerPage`. @default true */
  clientItemsPerPage?: boolean;
  /** Partial pagination by default: no count, no `last`, only `next`. @default false */
  partial?: boolean;
  /** Clients may ask for partial pagination with `partial=true`. @default true */
  clientPartial?: boolean;
}

/** {@link PaginationOptions} resolved. */
export type ResolvedPagination = Readonly<Required<PaginationOptions>>;

/** Options of {@link defineResource}. */
export interface ResourceOptions<S extends z.ZodObject = z.ZodObject> {
  /** API Platform's short name, e.g. `Book`: the JSON-LD `@type`, the name in IRIs and documentation. */
  shortName: string;
  /**
   * The item's properties as a zod object (zod 4). `id` may be listed (an integer, read-only) or
   * left out; the store chooses it. See `relation()`, `readOnly()`, `writeOnly()`.
   */
  schema: S;
  /** @default every operation: GetCollection, Get, Post, Put, Patch, Delete */
  operations?: readonly OperationDeclaration[];
  /** Reads items. */
  provider: StateProvider;
  /** Writes items; required when a write operation is declared. */
  processor?: StateProcessor;
  /** @default every filter off */
  filters?: readonly FilterDeclaration[];
  pagination?: PaginationOptions;
  /** The default `security` of every operation (an operation's own replaces it). */
  security?: SecurityRule<SecurityContext>;
  /** The default `securityMessage`. */
  securityMessage?: string;
  /** The collection's path; item paths add `/{id}`. @default `/api/<plural of shortName, snake case>` */
  routePrefix?: string;
  /** The table name stores use. @default the plural, snake case: `books`, `book_reviews` */
  table?: string;
  /** A sentence for the documentation (Hydra `hydra:description`, OpenAPI tag). */
  description?: string;
}

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

const KNOWN = [
  'shortName', 'schema', 'operations', 'provider', 'processor', 'filters', 'pagination', 'security',
  'securityMessage', 'routePrefix', 'table', 'description',
];
const OPERATION_KEYS = [
  'kind', 'name', 'path', 'requirements', 'security', 'securityMessage', 'securityPostDenormalize',
  'securityPostDenormalizeMessage', 'summary',
];
const PAGINATION_KEYS = ['enabled', 'itemsPerPage', 'maximumItemsPerPage', 'clientItemsPerPage', 'partial', 'clientPartial'];

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

function ruleOption(value: unknown, option: string): void {
  if (value !== undefined && typeof value !== 'function' && (typeof value !== 'string' || value === '')) {
    throw invalid(option, 'expected a role such as "ROLE_USER" or a function (context) => boolean', value);
  }
}

function resolvePagination(value: unknown, option: string): ResolvedPagination {
  const p = objectOption(value ?? {}, option) as PaginationOptions;
  knownKeys(p, PAGINATION_KEYS, option);
  const int = (key: 'itemsPerPage' | 'maximumItemsPerPage', fallback: number): number => {
    const v = p[key] ?? fallback;
    if (!Number.isInteger(v) || v < 1) throw invalid(`${option}.${key}`, 'expected an integer from 1', v);
    return v;
  };
  const bool = (key: keyof PaginationOptions, fallback: boolean): boolean => {
    const v = p[key] ?? fallback;
    if (typeof v !== 'boolean') throw invalid(`${option}.${key}`, 'expected true or false', v);
    return v;
  };
  const maximumItemsPerPage = int('maximumItemsPerPage', 100);
  const itemsPerPage = int('itemsPerPage', Math.min(30, maximumItemsPerPage));
  if (itemsPerPage > maximumItemsPerPage) {
    throw invalid(`${option}.itemsPerPage`, `expected at most maximumItemsPerPage (${maximumItemsPerPage})`, itemsPerPage);
  }
  return Object.freeze({
    enabled: bool('enabled', true),
    itemsPerPage,
    maximumItemsPerPage,
    clientItemsPerPage: bool('clientItemsPerPage', true),
    partial: bool('partial', false),
    clientPartial: bool('clientPartial', true),
  });
}

function resolveOperation(
  declared: OperationDeclaration, index: number, o: ResourceOptions, prefix: string, option: string,
): ResolvedOperation {
  const at = `${option}.operations[${index}]`;
  objectOption(declared, at);
  knownKeys(declared, OPERATION_KEYS, at);
  if (!(declared.kind in OPERATION_METHODS)) {
    throw invalid(`${at}.kind`, 'expected GetCollection, Get, Post, Put, Patch or Delete', declared.kind);
  }
  const item = ITEM_KINDS.includes(declared.kind);
  const path = declared.path === undefined ? (item ? `${prefix}/{id}` : prefix) : stringOption(declared.path, `${at}.path`);
  if (item && !path.includes('{id}')) throw invalid(`${at}.path`, 'expected a path with an {id} placeholder', path);
  const requirements = declared.requirements ?? (item && declared.path === undefined ? { id: '\\d+' } : {});
  objectOption(requirements, `${at}.requirements`);
  ruleOption(declared.security, `${at}.security`);
  ruleOption(declared.securityPostDenormalize, `${at}.securityPostDenormalize`);
  if (declared.securityPostDenormalize !== undefined && !['Post', 'Put', 'Patch'].includes(declared.kind)) {
    throw invalid(`${at}.securityPostDenormalize`, 'only Post, Put and Patch read a body', 'a rule');
  }
  const snake = snakeCase(o.shortName);
  const name = declared.name === undefined
    ? `${snake}_${snakeCase(declared.kind)}`
    : stringOption(declared.name, `${at}.name`);
  const security = declared.security ?? o.security;
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
  });
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
  objectOption(options, 'resource');
  const shortName = stringOption(options.shortName, 'resource.shortName');
  if (!/^[A-Z][A-Za-z0-9]*$/.test(shortName)) throw invalid('resource.shortName', 'expected a PascalCase name such as "Book"', shortName);
  const option = `resources.${shortName}`;
  knownKeys(options, KNOWN, option);
  if (!(options.schema instanceof z.ZodObject)) throw invalid(`${option}.schema`, 'expected a zod object (z.object({...}))', options.schema);
  const snake = snakeCase(shortName);
  const prefix = options.routePrefix === undefined ? `/api/${plural(snake)}` : stringOption(options.routePrefix, `${option}.routePrefix`);
  const table = options.table === undefined ? plural(snake) : stringOption(options.table, `${option}.table`);
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw invalid(`${option}.table`, 'expected a snake_case table name', table);
  const properties = propertiesOf(options.schema.shape, `${option}.schema`);
  const metadata: ResourceMetadata = Object.freeze({ shortName, table, properties: Object.freeze(properties) });
  if (typeof options.provider?.provideItem !== 'function' || typeof options.provider.provideCollection !== 'function') {
    throw invalid(`${option}.provider`, 'expected a StateProvider (provideCollection, provideItem)', options.provider);
  }
  ruleOption(options.security, `${option}.security`);
  const declared = options.operations ?? [GetCollection(), Get(), Post(), Put(), Patch(), Delete()];
  const operations = declared.map((d, i) => resolveOperation(d, i, options, prefix, option));
  const writes = operations.some((op) => op.method !== 'GET');
  if (writes && (typeof options.processor?.create !== 'function' || typeof options.processor.replace !== 'function')) {
    throw invalid(`${option}.processor`, 'expected a StateProcessor (create, replace, remove) for the write operations', options.processor);
  }
  const byName = new Map<string, ResolvedOperation>();
  for (const op of operations) {
    const other = byName.get(op.name);
    if (other !== undefined && (other.path !== op.path || other.method === op.method || !other.item || !op.item)) {
      throw invalid(`${option}.operations`, `expected one route per name: "${op.name}" names two operations that cannot share a route`, op.name);
    }
    byName.set(op.name, op);
  }
  return Object.freeze({
    shortName,
    schema: options.schema,
    metadata,
    operations: Object.freeze(operations),
    provider: options.provider,
    ...(options.processor !== undefined ? { processor: options.processor } : {}),
    filters: resolveFilters(options.filters ?? [], metadata, `${option}.filters`),
    pagination: resolvePagination(options.pagination, `${option}.pagination`),
    routePrefix: prefix,
    description: options.description ?? `${shortName} resources.`,
  });
}
