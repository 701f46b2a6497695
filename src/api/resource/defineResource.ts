import { z } from 'zod';
import { invalidOption } from '../../config/optionError';
import { integerFrom, nonEmptyString, optionsObject } from '../../config/optionSchemas';
import { parseOptions } from '../../config/parseOptions';
import type { PostDenormalizeContext, SecurityContext } from '../../security/RouteSecurity';
import type { ResourceMetadata, StateProcessor, StateProvider } from '../state/types';
import type { Processor, ProcessorFunction } from '../state/Processor';
import type { Provider, ProviderFunction } from '../state/Provider';
import { asProvider, isStateProvider } from '../state/storeProvider';
import { asProcessor, isStateProcessor } from '../state/storeProcessor';
import { propertiesOf } from '../schema/metadata';
import { cacheHeadersSchema, type CacheHeaders } from '../httpCache/cacheHeaders';
import {
  denormalizationContextSchema, normalizationContextSchema, resolveDenormalizationContext,
  inGroups, resolveNormalizationContext, type ResolvedNormalizationContext, type SerializationGroups,
} from '../serializer/serializationContext';
import type { FilterDeclaration } from './filters';
import { checkLinkRelation, type Link, type ResolvedLink } from './Link';
import { resolveFilters, type ResolvedFilter } from './filterResolution';
import { compositePartsOf } from './compositeIdentifier';
import { compositeIdentifierOf, identifierOf, type ResolvedIdentifier } from './identifierSchema';
import { ID_REQUIREMENTS } from '../state/identifier';
import {
  Delete, Get, RULE, GetCollection, ITEM_KINDS, OPERATION_METHODS, Patch, Post, Put,
  ruleSchema, type OperationKind, type PostValidationContext, type SecurityRule,
} from './operations';
import { urlGenerationStrategySchema, type UrlGenerationStrategy } from './urlGenerationStrategy';
import { dtoOptionSchema, dtoResource } from './operationDto';
import { validationContextSchema, type ValidationContextOptions } from '../write/validationGroups';
import { propertiesOptionSchema, resolvePropertySecurity, type PropertySecurityMap } from './propertySecurity';
import { iriListSchema, withVocabulary } from './rdfVocabulary';

const PROVIDER = 'a Provider (provide), a function (operation, uriVariables, context) or a store '
  + '(provideCollection, provideItem)';
const PROCESSOR = 'a Processor (process), a function (data, operation, uriVariables, context) or a store '
  + '(create, replace, remove)';

/** A `provider` option: a {@link Provider}, a function or a store. */
const providerSchema = z.custom<Provider | ProviderFunction | StateProvider>((v) => typeof v === 'function'
  || isStateProvider(v)
  || (typeof v === 'object' && v !== null && typeof (v as Partial<Provider>).provide === 'function'),
{ error: `expected ${PROVIDER}` });

/** A `processor` option: a {@link Processor}, a function or a store. */
const processorSchema = z.custom<Processor | ProcessorFunction | StateProcessor>((v) => typeof v === 'function'
  || isStateProcessor(v)
  || (typeof v === 'object' && v !== null && typeof (v as Partial<Processor>).process === 'function'),
{ error: `expected ${PROCESSOR}` });

/** One field of a cursor (API Platform's `paginationViaCursor` entries). */
const cursorFieldSchema = optionsObject({
  /** A property (or `id`) with a RangeFilter, e.g. `id`. */
  field: nonEmptyString,
  /** The order of the pages: `DESC` (newest first for ids) or `ASC`, in either case. */
  direction: z.string().regex(/^(asc|desc)$/i, { error: 'expected "ASC" or "DESC"' }),
});

/** The schema of `paginationViaCursor` / `pagination.viaCursor`: at least one field. */
const viaCursorSchema = z.array(cursorFieldSchema, {
  error: 'expected an array such as [{ field: "id", direction: "DESC" }]',
})
  .min(1, { error: 'expected at least one field, e.g. [{ field: "id", direction: "DESC" }]' }).readonly();

/** The schema of {@link PaginationOptions} (API Platform's `pagination_*` options). */
export const paginationOptionsSchema = optionsObject({
  /** Paginate collections. @default true */
  enabled: z.boolean().optional(),
  /**
   * Clients may turn pagination off (or on) with `pagination=false|true` (API Platform's
   * `pagination_client_enabled`, parameter `pagination`). Without pagination the response holds
   * every matching item, with no page links: as in API Platform there is no cap, so enable it
   * only where the collection stays small. @default false
   */
  clientEnabled: z.boolean().optional(),
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
  /**
   * Cursor pagination (API Platform's `paginationViaCursor`): the view's `hydra:next` and
   * `hydra:previous` are range filters on the fields (`id[lt]=<last id on the page>` for a
   * `DESC` field), never a page number; each field needs a RangeFilter. Makes `partial` default
   * to true (no count, no `last`), and orders the collection by the fields when the client gives
   * no order. `src/api/query/cursorPagination.ts` says how a page is read.
   * @default none: page numbers
   * @example [{ field: 'id', direction: 'DESC' }]
   */
  viaCursor: viaCursorSchema.optional(),
});

/** One field of a cursor, resolved: the direction in lower case. */
export interface CursorField {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

/** Pagination settings of a resource (API Platform's `pagination_*` options). All optional. */
export type PaginationOptions = z.input<typeof paginationOptionsSchema>;

/** {@link PaginationOptions} resolved; `viaCursor` empty without cursor pagination. */
export type ResolvedPagination = Readonly<Required<Omit<PaginationOptions, 'viaCursor'>>>
  & { readonly viaCursor: readonly CursorField[] };

/** An operation's `pagination*` options, by the {@link PaginationOptions} key each replaces. */
const OPERATION_PAGINATION = {
  paginationEnabled: 'enabled', paginationClientEnabled: 'clientEnabled', paginationItemsPerPage: 'itemsPerPage',
  paginationMaximumItemsPerPage: 'maximumItemsPerPage', paginationClientItemsPerPage: 'clientItemsPerPage',
  paginationPartial: 'partial', paginationClientPartial: 'clientPartial', paginationViaCursor: 'viaCursor',
} as const;

type OperationPaginationShape = {
  [K in keyof typeof OPERATION_PAGINATION]: (typeof paginationOptionsSchema.shape)[(typeof OPERATION_PAGINATION)[K]]
};

/** The operation options' `pagination*` schemas: each the resource's `pagination.<key>` schema. */
function operationPaginationShape(): OperationPaginationShape {
  const shape = paginationOptionsSchema.shape;
  return Object.fromEntries(Object.entries(OPERATION_PAGINATION).map(([name, key]) => [name, shape[key]])) as
    OperationPaginationShape;
}

/** Format names (`formats`, `inputFormats`, `outputFormats`), checked against the API's by `apiRoutes`. */
const formatNamesSchema = z.array(
  z.string().regex(/^[a-z][a-z0-9]{0,31}$/, { error: 'expected a format name such as "csv"' }),
  { error: 'expected an array of format names such as ["jsonld", "csv"]' },
).min(1, { error: 'expected at least one format' }).readonly();

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
  uriTemplate: z.string({ error: 'expected a path such as "/books/{id}/publish"' })
    .regex(/^\//, { error: 'expected a path such as "/books/{id}/publish"' }).optional(),
  uriVariables: z.record(z.string(), z.custom<Link>((v) => typeof v === 'object' && v !== null
    && typeof (v as Partial<Link>).fromClass === 'string', {
    error: 'expected link({ fromClass, toProperty }) or link({ fromClass, fromProperty })',
  })).optional(),
  provider: providerSchema.optional(),
  processor: processorSchema.optional(),
  deserialize: z.boolean().optional(),
  status: z.int({ error: 'expected an HTTP status from 200 to 299' })
    .min(200, { error: 'expected an HTTP status from 200 to 299' })
    .max(299, { error: 'expected an HTTP status from 200 to 299' }).optional(),
  requirements: z.record(z.string(), z.string({ error: 'expected a regex (a string)' })).optional(),
  security: ruleSchema<SecurityContext>().optional(),
  securityMessage: z.string().optional(),
  securityPostDenormalize: ruleSchema<PostDenormalizeContext>().optional(),
  securityPostDenormalizeMessage: z.string().optional(),
  securityPostValidation: ruleSchema<PostValidationContext>().optional(),
  securityPostValidationMessage: z.string().optional(),
  summary: z.string().optional(),
  strictQueryParameterValidation: z.boolean().optional(),
  allowCreate: z.boolean().optional(),
  cacheHeaders: cacheHeadersSchema.optional(),
  normalizationContext: normalizationContextSchema.optional(),
  denormalizationContext: denormalizationContextSchema.optional(),
  validationContext: validationContextSchema.optional(),
  input: dtoOptionSchema.optional(),
  output: dtoOptionSchema.optional(),
  formats: formatNamesSchema.optional(),
  inputFormats: formatNamesSchema.optional(),
  outputFormats: formatNamesSchema.optional(),
  urlGenerationStrategy: urlGenerationStrategySchema.optional(),
  ...operationPaginationShape(),
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
   * The item's properties as a zod object (zod 4). `id` is the identifier: left out (or an
   * integer, read-only) the store chooses an integer; `z.uuid()` makes it a UUID; another string
   * schema, a string the client chooses (`identifierSchema.ts`). See `relation()`, `readOnly()`,
   * `writeOnly()`.
   */
  schema: z.custom<z.ZodObject>((v) => v instanceof z.ZodObject, { error: 'expected a zod object (z.object({...}))' }),
  /** @default every operation: GetCollection, Get, Post, Put, Patch, Delete */
  operations: z.array(operationSchema).readonly().optional(),
  /**
   * Reads the state of every operation that has no `provider` of its own (API Platform
   * `provider`): a store (`MemoryState`, the SQL store: the default provider, `storeProvider`),
   * a `Provider` or a function. Required when an operation reads (GetCollection, Get, an operation
   * on `{id}`) without a provider of its own.
   */
  provider: providerSchema.optional(),
  /**
   * Writes the state of every write operation that has no `processor` of its own (API Platform
   * `processor`): a store (the default processor, `storeProcessor`), a `Processor` or a function.
   * Required when a write operation has no processor of its own.
   */
  processor: processorSchema.optional(),
  /** @default every filter off */
  filters: z.array(z.custom<FilterDeclaration>()).readonly().optional(),
  /** Pagination of the collection. @default {@link PaginationOptions}' defaults */
  pagination: paginationOptionsSchema.optional(),
  /** The default `security` of every operation (an operation's own replaces it). */
  security: ruleSchema<SecurityContext>().optional(),
  /** The default `securityMessage`. */
  securityMessage: z.string().optional(),
  /**
   * What API Platform's `#[ApiProperty]` says of each property, by property name (or its YAML
   * `properties:`): access rules (`security`, `securityPostDenormalize`; see
   * `PropertySecurityOptions`) and external vocabulary (`iris`, `types`; see `rdfVocabulary.ts`).
   * @default no property has rules or IRIs
   * @example { salary: { security: 'ROLE_ADMIN' }, name: { iris: ['https://schema.org/name'] },
   *   note: { security: ({ object, user }) => object === null || object.owner === user?.identifier } }
   */
  properties: propertiesOptionSchema.optional(),
  /**
   * The RDF classes of the resource (API Platform's `#[ApiResource(types: [...])]`): its items'
   * JSON-LD `@type` (one: a string; several: an array), its Hydra class's `@id` (the first), the
   * Hydra `range` of the relations to it. The short name stays the resource's name everywhere
   * else (routes, the context IRI `/api/contexts/Book`, OpenAPI component names, HAL, JSON:API).
   * @default none: `@type` is the short name, in the API's vocabulary (`/api/docs.jsonld#Book`)
   * @example ['https://schema.org/Book']
   */
  types: iriListSchema.optional(),
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
  /**
   * What the responses of every operation without its own write (API Platform's
   * `normalizationContext`): `groups` (with `groups()` on properties; relations to a resource
   * with a property in them are embedded) and `enable_max_depth` (`maxDepth()`).
   * @default no groups: every readable property, relations as IRIs
   * @example { groups: ['book:read'] }
   */
  normalizationContext: normalizationContextSchema.optional(),
  /**
   * What the bodies of every operation without its own may write (API Platform's
   * `denormalizationContext`): `groups`; a relation to a resource with a property in them takes
   * a nested document.
   * @default no groups: every writable property, relations as IRIs
   * @example { groups: ['book:write'] }
   */
  denormalizationContext: denormalizationContextSchema.optional(),
  /**
   * The validation groups of every write operation without its own (API Platform's
   * `validationContext`; see the operation option).
   * @default { groups: ['Default'] }
   */
  validationContext: validationContextSchema.optional(),
  /**
   * The formats of every operation that has none of its own (API Platform's resource `formats`),
   * by name among the API's, in order of preference.
   * @default the API's
   * @example ['jsonld', 'csv']
   */
  formats: formatNamesSchema.optional(),
  /** The default `inputFormats` of the operations. @default `formats` */
  inputFormats: formatNamesSchema.optional(),
  /** The default `outputFormats` of the operations. @default `formats` */
  outputFormats: formatNamesSchema.optional(),
  /**
   * How the IRIs of the resource's items and of its operations' responses are written (API
   * Platform's `urlGenerationStrategy`): `ReferenceType.ABSOLUTE_PATH` (`/api/books/3`),
   * `ABSOLUTE_URL` (`https://example.com/api/books/3`, the request's scheme and host) or
   * `NETWORK_PATH` (`//example.com/api/books/3`), from `express-kernel/routing`. An operation's
   * own replaces it. IRIs sent in bodies and filters are read in every form.
   * @default the API's (`apiRoutes({ urlGenerationStrategy })`), else `ABSOLUTE_PATH`
   * @example ReferenceType.ABSOLUTE_URL
   */
  urlGenerationStrategy: urlGenerationStrategySchema.optional(),
  /**
   * A composite identifier (API Platform's `#[ApiProperty(identifier: true)]` on several
   * properties, `compositeIdentifier: true`): the properties that identify an item together, each
   * a string or an integer; the schema then has no `id`. An item's URL carries them as
   * `name=Bar;year=2017` (`compositeIdentifier.ts`); the SQL stores' primary key is those columns.
   * @example ['name', 'year']
   */
  identifiers: z.array(z.string()).optional(),
});

/** Options of {@link defineResource}: {@link resourceOptionsSchema}'s input, with the schema's own type. */
export type ResourceOptions<S extends z.ZodObject = z.ZodObject> =
  Omit<z.input<typeof resourceOptionsSchema>, 'schema'> & {
    /**
     * The item's properties as a zod object (zod 4). `id` is the identifier: left out (or an
     * integer, read-only) the store chooses an integer; `z.uuid()` makes it a UUID (the store's v7
     * unless the client sends one); another string schema (`z.string().regex(…)`), a string the
     * client chooses. See `relation()`, `readOnly()`, `writeOnly()`.
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
  /** The route path without the format suffix, e.g. `/api/books/{id}` (IRIs and the OpenAPI paths use it). */
  readonly path: string;
  /**
   * Whether the route also answers the path with a format's name appended (`/api/books/1.json`,
   * symfony's optional `.{_format}`): the default paths do, a `path` or `uriTemplate` that ends
   * with `{._format}` does (API Platform's uriTemplate).
   */
  readonly formatSuffix: boolean;
  readonly requirements: Readonly<Record<string, string>>;
  /** True for Get, Put, Patch, Delete. */
  readonly item: boolean;
  readonly security?: SecurityRule<SecurityContext>;
  readonly securityMessage?: string;
  readonly securityPostDenormalize?: SecurityRule<PostDenormalizeContext>;
  readonly securityPostDenormalizeMessage?: string;
  /** Checked after validation (see `OperationOptions.securityPostValidation`). */
  readonly securityPostValidation?: SecurityRule<PostValidationContext>;
  readonly securityPostValidationMessage?: string;
  readonly summary: string;
  /** GetCollection: unknown and unreadable query parameters are 400s (see `OperationOptions`). */
  readonly strictQueryParameterValidation: boolean;
  /** Put: a PUT to an unknown id creates the item (see `OperationOptions.allowCreate`). */
  readonly allowCreate: boolean;
  /** The operation's `cacheHeaders`, else the resource's; undefined: the API's. */
  readonly cacheHeaders?: Readonly<CacheHeaders>;
  /**
   * The names of the formats of its request bodies (its `inputFormats`, else `formats`, else the
   * resource's); undefined: the API's.
   */
  readonly inputFormats?: readonly string[];
  /** The names of the formats of its responses, as `inputFormats`; undefined: the API's. */
  readonly outputFormats?: readonly string[];
  /** The resource's short name, e.g. `Book` (API Platform `Operation::getShortName`). */
  readonly shortName: string;
  /** What a store knows of the resource (API Platform `Operation::getClass`): table and properties. */
  readonly metadata: ResourceMetadata;
  /** Reads the state: the operation's own provider, else the resource's; absent when nothing reads. */
  readonly provider?: Provider;
  /** Writes the state (write operations): the operation's own processor, else the resource's. */
  readonly processor?: Processor;
  /** Whether the body is read (Post, Put, Patch; see `OperationOptions.deserialize`). */
  readonly deserialize: boolean;
  /** The status of a successful answer with a body, when declared. */
  readonly status?: number;
  /** The operation's `normalizationContext`, else the resource's (groups, `enable_max_depth`). */
  readonly normalizationContext: ResolvedNormalizationContext;
  /** The operation's `denormalizationContext`, else the resource's (groups). */
  readonly denormalizationContext: SerializationGroups;
  /**
   * The input DTO the body is read as (see `OperationOptions.input`): absent, the resource itself;
   * false, no body is read.
   */
  readonly input?: Resource | false;
  /** The output DTO the answer is written as (see `OperationOptions.output`); false, no body. */
  readonly output?: Resource | false;
  /** The operation's `validationContext`, else the resource's; absent: `Default` alone. */
  readonly validationContext?: ValidationContextOptions;
  /** The links of `uriVariables` (a subresource), in declaration order; none for most operations. */
  readonly links: readonly ResolvedLink[];
  /** The operation's `urlGenerationStrategy`, else the resource's; undefined: the API's. */
  readonly urlGenerationStrategy?: UrlGenerationStrategy;
  /**
   * The pagination of its collection: the resource's `pagination`, each key replaced by the
   * operation's `pagination*` option (GetCollection only), as API Platform's operation attributes.
   */
  readonly pagination: ResolvedPagination;
}

/** A resource, validated and resolved (what `apiRoutes` and `describeApi` read). */
export interface Resource<S extends z.ZodObject = z.ZodObject> {
  readonly shortName: string;
  /** The resource's `types` (its RDF classes, `rdfVocabulary.ts`); absent: its short name is its `@type`. */
  readonly types?: readonly string[];
  readonly schema: S;
  /** What the stores know: table, properties (kinds, nullable, readOnly, writeOnly, relations). */
  readonly metadata: ResourceMetadata;
  readonly operations: readonly ResolvedOperation[];
  /** The store the resource's `provider` names, if it is one (the back office reads it). */
  readonly provider?: StateProvider;
  /** The store the resource's `processor` names, if it is one (the back office writes to it). */
  readonly processor?: StateProcessor;
  /**
   * The filters, resolved. Those on a dotted path (`author.name`) are here once `apiRoutes` or
   * `describeApi` has resolved them against the other resources (`completeFilters`).
   */
  readonly filters: readonly ResolvedFilter[];
  /** The filters as declared (`filters`), for `completeFilters`. */
  readonly filterDeclarations: readonly FilterDeclaration[];
  readonly pagination: ResolvedPagination;
  /** The identifier: its type, whether clients choose it, a string id's schema (`identifierSchema.ts`). */
  readonly identifier: ResolvedIdentifier;
  /** The collection path, e.g. `/api/books`; an item's IRI is `<routePrefix>/<id>`. */
  readonly routePrefix: string;
  readonly description: string;
  /** The access rules of the properties that have some (the `properties` option), by name. */
  readonly propertySecurity: PropertySecurityMap;
  /** The resource's `urlGenerationStrategy`; undefined: the API's. */
  readonly urlGenerationStrategy?: UrlGenerationStrategy;
  /**
   * The resource's own `normalizationContext` (an operation without one has it; the Hydra
   * documentation's `hydra:readable` reads it, as API Platform's DocumentationNormalizer).
   */
  readonly normalizationContext?: ResolvedNormalizationContext;
  /** The resource's own `denormalizationContext` (`hydra:writeable`). */
  readonly denormalizationContext?: SerializationGroups;
}

/**
 * A short name in snake case, as the resource's table and route names are written (API
 * Platform's `Inflector::tableize`).
 * @param name - a short name, e.g. `BookReview`
 * @returns e.g. `book_review`
 */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * The English plural of a snake-case name, as API Platform's inflector writes a collection's
 * path for the usual cases (`-s`, `-es` after s/x/z/ch/sh, `-ies` after a consonant and y).
 * @param name - e.g. `book_review`, `category`, `box`
 * @returns e.g. `book_reviews`, `categories`, `boxes`
 */
export function plural(name: string): string {
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

function resolvePagination(
  p: PaginationOptions, option: string, itemsOption = `${option}.itemsPerPage`,
): ResolvedPagination {
  const maximumItemsPerPage = p.maximumItemsPerPage ?? 100;
  const itemsPerPage = p.itemsPerPage ?? Math.min(30, maximumItemsPerPage);
  if (itemsPerPage > maximumItemsPerPage) {
    const what = `expected at most maximumItemsPerPage (${maximumItemsPerPage})`;
    throw invalidOption(itemsOption, what, itemsPerPage);
  }
  const viaCursor = (p.viaCursor ?? []).map((c) => Object.freeze({
    field: c.field, direction: c.direction.toLowerCase() as 'asc' | 'desc',
  }));
  return Object.freeze({
    enabled: p.enabled ?? true,
    clientEnabled: p.clientEnabled ?? false,
    itemsPerPage,
    maximumItemsPerPage,
    clientItemsPerPage: p.clientItemsPerPage ?? true,
    partial: p.partial ?? viaCursor.length > 0,
    clientPartial: p.clientPartial ?? true,
    viaCursor: Object.freeze(viaCursor),
  });
}

/**
 * An operation's pagination: the resource's options with the operation's `pagination*` ones
 * over them (GetCollection only).
 * @throws KernelConfigError for a `pagination*` option on another operation, an itemsPerPage
 *   above the maximum
 */
function operationPagination(declared: ParsedOperation, o: ParsedOptions, at: string): ResolvedPagination {
  const own: PaginationOptions = {};
  for (const [key, to] of Object.entries(OPERATION_PAGINATION) as Array<[keyof typeof OPERATION_PAGINATION, string]>) {
    const value = declared[key];
    if (value === undefined) continue;
    if (declared.kind !== 'GetCollection') throw invalidOption(`${at}.${key}`, 'only GetCollection paginates', value);
    (own as Record<string, unknown>)[to] = value;
  }
  const option = o.pagination === undefined ? at : `resources.${o.shortName}.pagination`;
  return resolvePagination({ ...o.pagination, ...own }, option,
    own.itemsPerPage !== undefined ? `${at}.paginationItemsPerPage` : `${option}.itemsPerPage`);
}

/** What resolving an operation needs of its resource. */
interface OperationScope {
  readonly o: ParsedOptions;
  readonly prefix: string;
  readonly option: string;
  readonly metadata: ResourceMetadata;
  readonly provider?: Provider;
  readonly processor?: Processor;
  readonly identifier: ResolvedIdentifier;
  /** The resource without its operations: what an input or output DTO shares with it. */
  readonly owner: Omit<Resource, 'operations' | 'provider' | 'processor'>;
}

const WRITE_KINDS: readonly OperationKind[] = ['Post', 'Put', 'Patch', 'Delete'];
const BODY_KINDS: readonly OperationKind[] = ['Post', 'Put', 'Patch'];

/**
 * API Platform's format suffix in a `uriTemplate` (RFC 6570's label expansion), which its route
 * loader turns into symfony's optional `.{_format}`; only at the end of a path.
 */
const FORMAT_SUFFIX = '{._format}';

/**
 * The route path of an operation (`path`, or `uriTemplate` under the API's prefix, or the
 * default) without {@link FORMAT_SUFFIX}, and whether it takes one: the default paths do (API
 * Platform's generated `/books/{id}{._format}`), a declared one when it ends with it.
 */
function operationPath(
  declared: ParsedOperation, item: boolean, prefix: string, at: string,
): { path: string; formatSuffix: boolean } {
  if (declared.path !== undefined && declared.uriTemplate !== undefined) {
    throw invalidOption(`${at}.uriTemplate`, 'expected path or uriTemplate, not both', declared.uriTemplate);
  }
  const key = declared.uriTemplate !== undefined ? 'uriTemplate' : 'path';
  const custom = declared.uriTemplate ?? declared.path;
  if (custom === undefined) return { path: item ? `${prefix}/{id}` : prefix, formatSuffix: true };
  const formatSuffix = custom.endsWith(FORMAT_SUFFIX);
  const bare = formatSuffix ? custom.slice(0, -FORMAT_SUFFIX.length) : custom;
  if (bare.includes('_format}') || bare === '') {
    const what = `expected the format suffix as ${FORMAT_SUFFIX} at the end of the path, after something `
      + `(e.g. "/books/{id}${FORMAT_SUFFIX}")`;
    throw invalidOption(`${at}.${key}`, what, custom);
  }
  return { path: declared.uriTemplate !== undefined ? `${prefix.slice(0, prefix.lastIndexOf('/'))}${bare}` : bare,
    formatSuffix };
}

function resolveOperation(declared: ParsedOperation, index: number, scope: OperationScope): ResolvedOperation {
  const { o, prefix, option } = scope;
  const at = `${option}.operations[${index}]`;
  const custom = declared.path ?? declared.uriTemplate;
  // a Post on a URI with {id} is about that item (API Platform reads it: its uriVariables)
  const item = ITEM_KINDS.includes(declared.kind) || (declared.kind === 'Post' && custom?.includes('{id}') === true);
  const { path, formatSuffix } = operationPath(declared, item, prefix, at);
  if (item && !path.includes('{id}')) {
    throw invalidOption(`${at}.${declared.uriTemplate !== undefined ? 'uriTemplate' : 'path'}`,
      'expected a path with an {id} placeholder', path);
  }
  const links = resolveLinks(declared.uriVariables ?? {}, path, scope.metadata, `${at}.uriVariables`);
  // a link's variable takes its requirement from the linked resource's identifier, which
  // completeLinks knows once every resource is (a uuid parent: a UUID's pattern)
  const requirements = declared.requirements
    ?? (item && custom === undefined ? { id: ID_REQUIREMENTS[scope.identifier.type] } : {});
  if (declared.strictQueryParameterValidation !== undefined && declared.kind !== 'GetCollection') {
    const what = 'only GetCollection reads query parameters';
    throw invalidOption(`${at}.strictQueryParameterValidation`, what, declared.strictQueryParameterValidation);
  }
  if (declared.allowCreate !== undefined && declared.kind !== 'Put') {
    throw invalidOption(`${at}.allowCreate`, 'only Put creates an item at its URL', declared.allowCreate);
  }
  for (const key of ['securityPostDenormalize', 'securityPostValidation', 'validationContext'] as const) {
    if (declared[key] !== undefined && !BODY_KINDS.includes(declared.kind)) {
      throw invalidOption(`${at}.${key}`, 'only Post, Put and Patch read a body', undefined, { got: 'an option' });
    }
  }
  const name = declared.name ?? `${snakeCase(o.shortName)}_${snakeCase(declared.kind)}`;
  const security = declared.security ?? o.security;
  const cacheHeaders = declared.cacheHeaders ?? o.cacheHeaders;
  const strategy = declared.urlGenerationStrategy ?? o.urlGenerationStrategy;
  const validationContext = BODY_KINDS.includes(declared.kind) ? declared.validationContext ?? o.validationContext
    : undefined;
  // API Platform: an operation's formats replace the resource's; inputFormats/outputFormats the formats
  const inputFormats = declared.inputFormats ?? declared.formats ?? o.inputFormats ?? o.formats;
  const outputFormats = declared.outputFormats ?? declared.formats ?? o.outputFormats ?? o.formats;
  const write = WRITE_KINDS.includes(declared.kind);
  if (declared.processor !== undefined && !write) {
    throw invalidOption(`${at}.processor`, 'only Post, Put, Patch and Delete write', undefined, { got: 'a processor' });
  }
  for (const key of ['deserialize', 'input'] as const) {
    const value = declared[key];
    if (value !== undefined && !BODY_KINDS.includes(declared.kind)) {
      // a boolean is shown as it is, a DTO schema by what it is
      throw invalidOption(`${at}.${key}`, 'only Post, Put and Patch read a body', value,
        typeof value === 'boolean' ? {} : { got: 'a schema' });
    }
  }
  if (declared.input === false && declared.deserialize === true) {
    throw invalidOption(`${at}.deserialize`, 'expected no deserialize with input: false (no body is read)', true);
  }
  const input = declared.input === undefined || declared.input === false ? declared.input
    : dtoResource(scope.owner, declared.input, `${at}.input`);
  const denormalizationContext = resolveDenormalizationContext(
    declared.denormalizationContext ?? o.denormalizationContext);
  const groups = denormalizationContext.groups;
  if (input && groups !== undefined && !input.metadata.properties.some((p) => inGroups(p, denormalizationContext))) {
    // symfony reads an input DTO's properties through the groups too: none in them, no body is ever read
    const names = [...groups].join(', ');
    const what = `no property of the input DTO is in the denormalization groups (${names}): give its properties `
      + 'groups() or the operation its own denormalizationContext';
    throw invalidOption(`${at}.input`, what, undefined, { got: 'a schema' });
  }
  const output = declared.output === undefined || declared.output === false ? declared.output
    : dtoResource(scope.owner, declared.output, `${at}.output`);
  if (declared.status !== undefined && !write) {
    throw invalidOption(`${at}.status`, 'only Post, Put, Patch and Delete take a status', declared.status);
  }
  const provider = declared.provider !== undefined ? asProvider(declared.provider) : scope.provider;
  const processor = declared.processor !== undefined ? asProcessor(declared.processor) : scope.processor;
  if (provider === undefined && (item || declared.kind === 'GetCollection')) {
    const what = 'expected a provider here or on the resource (a store, a Provider or a function): '
      + `${declared.kind} reads`;
    throw invalidOption(`${at}.provider`, what, undefined);
  }
  if (processor === undefined && write) {
    const what = 'expected a processor here or on the resource (a store, a Processor or a function): '
      + `${declared.kind} writes`;
    throw invalidOption(`${at}.processor`, what, undefined);
  }
  return Object.freeze({
    kind: declared.kind,
    name,
    method: OPERATION_METHODS[declared.kind],
    path,
    formatSuffix,
    requirements: Object.freeze({ ...requirements }),
    item,
    ...(security !== undefined ? { security } : {}),
    ...(declared.securityMessage ?? o.securityMessage) !== undefined
      ? { securityMessage: declared.securityMessage ?? o.securityMessage } : {},
    ...(declared.securityPostDenormalize !== undefined
      ? { securityPostDenormalize: declared.securityPostDenormalize } : {}),
    ...(declared.securityPostDenormalizeMessage !== undefined
      ? { securityPostDenormalizeMessage: declared.securityPostDenormalizeMessage } : {}),
    ...(declared.securityPostValidation !== undefined
      ? { securityPostValidation: declared.securityPostValidation } : {}),
    ...(declared.securityPostValidationMessage !== undefined
      ? { securityPostValidationMessage: declared.securityPostValidationMessage } : {}),
    summary: declared.summary ?? defaultSummary(declared.kind, o.shortName),
    strictQueryParameterValidation: declared.strictQueryParameterValidation === true,
    allowCreate: declared.allowCreate === true,
    ...(cacheHeaders !== undefined ? { cacheHeaders: Object.freeze({ ...cacheHeaders }) } : {}),
    ...(inputFormats !== undefined ? { inputFormats: Object.freeze([...inputFormats]) } : {}),
    ...(outputFormats !== undefined ? { outputFormats: Object.freeze([...outputFormats]) } : {}),
    shortName: o.shortName,
    metadata: scope.metadata,
    ...(provider !== undefined ? { provider } : {}),
    ...(write && processor !== undefined ? { processor } : {}),
    deserialize: declared.input !== false && (declared.deserialize ?? BODY_KINDS.includes(declared.kind)),
    ...(input !== undefined ? { input } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(declared.status !== undefined ? { status: declared.status } : {}),
    normalizationContext: resolveNormalizationContext(declared.normalizationContext ?? o.normalizationContext),
    denormalizationContext,
    ...(validationContext !== undefined ? { validationContext: Object.freeze({ ...validationContext }) } : {}),
    links,
    ...(strategy !== undefined ? { urlGenerationStrategy: strategy } : {}),
    pagination: operationPagination(declared, o, at),
  });
}

/**
 * An operation's `uriVariables` checked against its path and the resource's properties.
 * @throws KernelConfigError for a variable not in the path, a link with both or neither of
 *   `toProperty` and `fromProperty`, a `toProperty` that is no relation of this resource to
 *   `fromClass` (with a "did you mean"), a `security` that is no rule
 */
function resolveLinks(
  declared: Record<string, Link>, path: string, metadata: ResourceMetadata, option: string,
): readonly ResolvedLink[] {
  return Object.freeze(Object.entries(declared).map(([parameter, l]) => {
    const at = `${option}.${parameter}`;
    if (!path.includes(`{${parameter}}`)) {
      throw invalidOption(at, `expected a placeholder of the path ${path}`, parameter);
    }
    if ((l.toProperty === undefined) === (l.fromProperty === undefined)) {
      throw invalidOption(at, 'expected one of toProperty and fromProperty', undefined, { got: 'both or neither' });
    }
    if (l.security !== undefined && typeof l.security !== 'function' && (typeof l.security !== 'string'
      || l.security === '')) {
      throw invalidOption(`${at}.security`, RULE, l.security);
    }
    if (l.toProperty !== undefined) checkLinkRelation(metadata, l.toProperty, l.fromClass, `${at}.toProperty`);
    return Object.freeze({ ...l, parameter });
  }));
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
  const plain = propertiesOf(o.schema.shape, `${option}.schema`);
  const identifier = o.identifiers === undefined ? identifierOf(o.schema.shape, `${option}.schema`)
    : compositeIdentifierOf(compositePartsOf(o.identifiers, o.schema.shape, plain, `${option}.identifiers`));
  // the `properties` option's names are checked here, before its IRIs are read
  const propertySecurity = resolvePropertySecurity(o.properties ?? {}, { shortName, table, properties: plain },
    `${option}.properties`);
  const properties = withVocabulary(plain, o.properties ?? {});
  const metadata: ResourceMetadata = Object.freeze({
    shortName, table, properties: Object.freeze(properties),
    ...(identifier.type !== 'integer' ? { identifier: identifier.type } : {}),
    ...(identifier.parts !== undefined ? { compositeKey: Object.freeze(identifier.parts.map((p) => p.name)) } : {}),
  });
  const declared = o.operations ?? [GetCollection(), Get(), Post(), Put(), Patch(), Delete()];
  const owner: OperationScope['owner'] = {
    shortName,
    ...(o.types !== undefined ? { types: Object.freeze([...o.types]) } : {}),
    schema: options.schema,
    metadata,
    filters: resolveFilters(o.filters ?? [], metadata, `${option}.filters`),
    filterDeclarations: Object.freeze([...o.filters ?? []]),
    pagination: resolvePagination(o.pagination ?? {}, `${option}.pagination`),
    identifier,
    routePrefix: prefix,
    description: o.description ?? schemaDescription(o.schema) ?? `${shortName} resources.`,
    propertySecurity,
  };
  const scope: OperationScope = {
    o, prefix, option, metadata, identifier, owner,
    ...(o.provider !== undefined ? { provider: asProvider(o.provider) } : {}),
    ...(o.processor !== undefined ? { processor: asProcessor(o.processor) } : {}),
  };
  const operations = declared.map((d, i) => resolveOperation(d, i, scope));
  const byName = new Map<string, ResolvedOperation>();
  for (const op of operations) {
    const other = byName.get(op.name);
    if (other !== undefined && (other.path !== op.path || other.formatSuffix !== op.formatSuffix
      || other.method === op.method || !other.item || !op.item)) {
      const what = `expected one route per name: "${op.name}" names two operations that cannot share a route`;
      throw invalidOption(`${option}.operations`, what, op.name);
    }
    byName.set(op.name, op);
  }
  const filters = resolveFilters(o.filters ?? [], metadata, `${option}.filters`);
  operations.forEach((op, i) => {
    for (const c of op.pagination.viaCursor) {
      if (filters.some((f) => f.type === 'range' && f.property === c.field)) continue;
      const at = o.operations?.[i]?.paginationViaCursor !== undefined ? `${option}.operations[${i}].paginationViaCursor`
        : `${option}.pagination.viaCursor`;
      const what = `expected a field with a RangeFilter (its links are ${c.field}[lt] and ${c.field}[gt]): `
        + `add RangeFilter(['${c.field}'])`;
      throw invalidOption(at, what, c.field);
    }
  });
  return Object.freeze({
    ...owner,
    schema: options.schema,
    operations: Object.freeze(operations),
    ...(isStateProvider(o.provider) ? { provider: o.provider } : {}),
    ...(isStateProcessor(o.processor) ? { processor: o.processor } : {}),
    filters,
    filterDeclarations: Object.freeze([...o.filters ?? []]),
    pagination: resolvePagination(o.pagination ?? {}, `${option}.pagination`),
    identifier,
    routePrefix: prefix,
    description: o.description ?? schemaDescription(o.schema) ?? `${shortName} resources.`,
    propertySecurity,
    ...(o.urlGenerationStrategy !== undefined ? { urlGenerationStrategy: o.urlGenerationStrategy } : {}),
    normalizationContext: resolveNormalizationContext(o.normalizationContext),
    denormalizationContext: resolveDenormalizationContext(o.denormalizationContext),
  });
}
