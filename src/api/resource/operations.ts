import { z } from 'zod';
import type { PostDenormalizeContext, SecurityCheck, SecurityContext } from '../../security/RouteSecurity';
import type { CacheHeaders } from '../httpCache/cacheHeaders';
import type {
  DenormalizationContextOptions, NormalizationContextOptions,
} from '../serializer/serializationContext';
import type { Processor, ProcessorFunction } from '../state/Processor';
import type { Provider, ProviderFunction } from '../state/Provider';
import type { StateProcessor, StateProvider } from '../state/types';
import type { Link } from './Link';
import type { UrlGenerationStrategy } from './urlGenerationStrategy';
import type { ValidationContextOptions } from '../write/validationGroups';
import type { DtoOption } from './operationDto';

/**
 * The operations a resource exposes (API Platform's `GetCollection`, `Get`, `Post`, `Put`,
 * `Patch`, `Delete` attributes). Each factory returns a plain declaration; `defineResource`
 * resolves the defaults (route name, path, method) and `apiRoutes` turns them into routes.
 * @module
 */

/** The six operation kinds. */
export type OperationKind = 'GetCollection' | 'Get' | 'Post' | 'Put' | 'Patch' | 'Delete';

/** The HTTP method of each kind. */
export const OPERATION_METHODS: Readonly<Record<OperationKind, string>> = Object.freeze({
  GetCollection: 'GET', Get: 'GET', Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE',
});

/** Kinds about one item (`/api/books/{id}`); the others are about the collection. */
export const ITEM_KINDS: readonly OperationKind[] = ['Get', 'Put', 'Patch', 'Delete'];

/**
 * An access rule: a role or attribute given to `isGranted` (`'ROLE_USER'`, `'IS_AUTHENTICATED'`,
 * `'PUBLIC_ACCESS'`), or a function (API Platform's `security` expression). False denies: a 401
 * with the firewall's challenge for an anonymous client, else a 403.
 */
export type SecurityRule<C> = string | SecurityCheck<C>;

/** What an operation's `securityPostValidation` sees: the valid new object and the stored one. */
export interface PostValidationContext extends PostDenormalizeContext {
  /** The new object, as validated (property names to values as the client wrote them). */
  readonly object: Readonly<Record<string, unknown>>;
  /** The stored item before the change (writeOnly properties too), or null on a create. */
  readonly previousObject: Readonly<Record<string, unknown>> | null;
}

/** The message of an option that is no {@link SecurityRule}. */
export const RULE = 'expected a role such as "ROLE_USER" or a function (context) => boolean';

/** The option schema of an access rule ({@link SecurityRule}): a non-empty string or a function. */
export function ruleSchema<C>(): z.ZodCustom<SecurityRule<C>, SecurityRule<C>> {
  return z.custom<SecurityRule<C>>(
    (v) => typeof v === 'function' || (typeof v === 'string' && v !== ''), { error: RULE },
  );
}

/** What every operation may declare. All optional. */
export interface OperationOptions {
  /**
   * The route name, e.g. `book_show`. Two item operations of one resource with the same name and
   * path (e.g. `Put` and `Patch` named `book_update`) share one route (methods `PUT|PATCH`).
   * @default `<resource>_<kind>` in snake case, e.g. `book_get_collection`, `book_patch`
   */
  name?: string;
  /**
   * The route path (symfony/routing syntax), in full. Item operations must have an `{id}`
   * placeholder. Ending with `{._format}`, it also answers with a format's name appended
   * (`/api/books/{id}/cover{._format}`: `…/cover.json`). Not with `uriTemplate`.
   * @default the resource's `routePrefix` (`/api/books`), plus `/{id}` for item operations; both
   *   take the format suffix (`/api/books.csv`, `/api/books/1.jsonld`)
   */
  path?: string;
  /**
   * API Platform's `uriTemplate`: the path under the API's prefix (the resource's `routePrefix`
   * without its last segment, `/api` by default), e.g. `/books/{id}/publish` for
   * `/api/books/{id}/publish`. With an `{id}` placeholder the operation is about one item: its
   * provider reads it first (a 404 when there is none) and a `Post` receives it as
   * `previousData`. Ending with `{._format}` (API Platform's RFC 6570 label), the route also
   * answers with a format's name appended (`/books/{id}/publish.json`); without it, it does not.
   * Not with `path`.
   * @example Post({ uriTemplate: '/books/{id}/publish', processor: publish, deserialize: false, status: 200 })
   */
  uriTemplate?: string;
  /**
   * The links of the URI's variables to other resources (API Platform `uriVariables`): a
   * subresource. `{ authorId: link({ fromClass: 'Author', toProperty: 'author' }) }` on a
   * `GetCollection` at `/authors/{authorId}/books` lists that author's books (paged and filtered
   * as the collection is); `{ id: link({ fromClass: 'Book', fromProperty: 'author' }) }` on a
   * `Get` at `/books/{id}/author` reads the book's author (a 404 when there is none). With the
   * store provider only (another provider reads the variables itself).
   */
  uriVariables?: Record<string, Link>;
  /**
   * Reads the operation's state (API Platform `provider`): a {@link Provider}, a function, or a
   * store (wrapped by `storeProvider`).
   * @default the resource's `provider`
   */
  provider?: Provider | ProviderFunction | StateProvider;
  /**
   * Writes the operation's state (API Platform `processor`): a {@link Processor}, a function, or
   * a store (wrapped by `storeProcessor`). Only on `Post`, `Put`, `Patch` and `Delete`.
   * @default the resource's `processor`
   */
  processor?: Processor | ProcessorFunction | StateProcessor;
  /**
   * Whether the body is read (API Platform `deserialize`). `false`: no body is read and the
   * processor receives the stored item's properties (an action such as `publish`), or `{}` on a
   * collection. Only on `Post`, `Put` and `Patch`.
   * @default true
   */
  deserialize?: boolean;
  /**
   * The status of a successful answer with a body (API Platform `status`), 200 to 299.
   * @default 201 for `Post`, else 200 (204 when the processor returns nothing)
   */
  status?: number;
  /**
   * Requirements of the route's placeholders (regexes without delimiters).
   * @default `{ id: '\\d+' }` for item operations (a UUID's pattern for a `uuid` identifier, `[^/]+` for a
   *   `string` one: `ID_REQUIREMENTS`), none for collection operations; each `uriVariables` link's
   *   variable not given here: the pattern of its `fromClass`'s identifier type (`\\d+`, a UUID's, `[^/]+`)
   * @example { id: '\\d+' }
   */
  requirements?: Record<string, string>;
  /**
   * Checked once the route matched, before the body is read (API Platform `security`), with the
   * stored item (item operations) as `object`.
   * @default the resource's `security`, else every client is granted
   */
  security?: SecurityRule<SecurityContext>;
  /** The 403's message when `security` denies. @default 'Access Denied.' */
  securityMessage?: string;
  /**
   * Checked on the denormalized (new, unpersisted) object and the stored one
   * (`previousObject`), after the body was read and before validation (API Platform
   * `securityPostDenormalize`). Only on `Post`, `Put` and `Patch`.
   */
  securityPostDenormalize?: SecurityRule<PostDenormalizeContext>;
  /** The 403's message when `securityPostDenormalize` denies. @default 'Access Denied.' */
  securityPostDenormalizeMessage?: string;
  /**
   * Checked once the body was validated, before the processor writes (API Platform
   * `securityPostValidation`): `object` is the new, valid object, `previousObject` the stored one
   * (null on a create). False denies: a 401 for an anonymous client, else a 403 with
   * `securityPostValidationMessage`; nothing is written. A write that retries after another
   * client's change checks it again. Only on `Post`, `Put` and `Patch`.
   */
  securityPostValidation?: SecurityRule<PostValidationContext>;
  /** The 403's message when `securityPostValidation` denies. @default 'Access Denied.' */
  securityPostValidationMessage?: string;
  /** A sentence for the documentation (Hydra `hydra:title`, OpenAPI `summary`). */
  summary?: string;
  /**
   * `Put` only (API Platform 3.4's `allowCreate`, RFC 9110 §9.3.4): a PUT to an id that names no
   * item creates it with that id, whatever the identifier's type (an integer one moves the store's
   * counter past it, so later POSTs never reuse it): 201 Created with `Location`. `security` sees
   * `object` null and `securityPostDenormalize` / `securityPostValidation` `previousObject` null.
   * `If-Match` on such an id is a 412, and `If-None-Match: *` makes the PUT create only (a 412
   * when the item exists). Without it, a PUT to an unknown id is a 404.
   * @default false
   * @example Put({ allowCreate: true })
   */
  allowCreate?: boolean;
  /**
   * `GetCollection` only (API Platform 3.4's operation option of the same name): a query
   * parameter that is unknown, given twice, or whose value a filter cannot read is a 400 naming
   * it, and so is an `itemsPerPage` above the maximum. Without it, as API Platform does by
   * default, such parameters are ignored and `itemsPerPage` is clamped to the maximum.
   * @default false
   */
  strictQueryParameterValidation?: boolean;
  /**
   * GET operations: the `Cache-Control` and `Vary` of their successful responses (API Platform's
   * `cacheHeaders`); replaces the resource's `cacheHeaders`, each key left out falls back to the
   * API's (`apiRoutes({ cacheHeaders })`).
   * @default the resource's
   * @example { max_age: 60, shared_max_age: 3600, public: true }
   */
  cacheHeaders?: CacheHeaders;
  /**
   * What the operation's responses write (API Platform's `normalizationContext`): `groups` and
   * `enable_max_depth`; replaces the resource's.
   * @default the resource's
   * @example { groups: ['book:read', 'author:read'] }
   */
  normalizationContext?: NormalizationContextOptions;
  /**
   * What the operation's body may write (API Platform's `denormalizationContext`): `groups`;
   * replaces the resource's.
   * @default the resource's
   * @example { groups: ['book:write'] }
   */
  denormalizationContext?: DenormalizationContextOptions;
  /**
   * The formats the operation reads and writes (API Platform's `formats`), by name among the
   * API's (`apiRoutes({ formats })`), in order of preference; replaces the resource's. Another
   * `Accept` is a 406, another body a 415, each listing the allowed media types.
   * @default the resource's `formats`, else the API's
   * @example GetCollection({ formats: ['jsonld', 'json', 'csv'] })
   */
  formats?: readonly string[];
  /**
   * What the body is read as (API Platform's `input` class): a zod object, the input DTO. The body
   * is decoded by its format, validated against it (a 400 for a wrong type, a 422 for a broken
   * constraint, `validationContext` applying) and handed to the processor as `data` (relations as
   * ids, dates as ISO strings, as for the resource's own properties); the processor returns the
   * item to answer with. `false`: no body is read (as `deserialize: false`), the processor
   * receives the stored item's properties. Only on `Post`, `Put` and `Patch`. As API Platform 3.4
   * reads an input class: the operation's denormalization groups select among the DTO's own
   * properties (their `groups()`; one outside them is ignored; none in them is refused at
   * start-up), and the resource's `properties` rules (`security`, `securityPostDenormalize`) do
   * not apply to the DTO, even to a property of the same name.
   * @default the resource's schema
   * @example Post({ uriTemplate: '/books/quick', input: z.object({ name: z.string().min(1) }), processor })
   */
  input?: DtoOption;
  /**
   * What the answer is written as (API Platform's `output` class): a zod object, the output DTO.
   * The provider (reads) or processor (writes) returns items whose `data` has its properties; they
   * are written with the resource's `@type` and the item's IRI as `@id`. `false`: the answer has
   * no body (the operation's `status`, else 201 for `Post`, 204 for `Delete`, 200 otherwise).
   * @default the resource's schema
   * @example Get({ uriTemplate: '/books/{id}/card', output: z.object({ label: z.string() }), provider })
   */
  output?: DtoOption;
  /**
   * The validation groups of the body (API Platform's `validationContext`): only the constraints
   * of properties in one of `groups` are checked (`validationGroups()` puts a property's
   * constraints in groups; the others are in `Default`); outside them a property's type alone is.
   * A `GroupSequence` validates its steps in order, reporting the first one that fails; a function
   * of the object chooses the groups per write. Replaces the resource's. Only on `Post`, `Put`
   * and `Patch`.
   * @default the resource's, else `{ groups: ['Default'] }`
   * @example Post({ uriTemplate: '/books/{id}/publish', validationContext: { groups: ['Default', 'publish'] } })
   */
  validationContext?: ValidationContextOptions;
  /** The formats of request bodies alone (API Platform's `inputFormats`). @default `formats` */
  inputFormats?: readonly string[];
  /** The formats of responses alone (API Platform's `outputFormats`). @default `formats` */
  outputFormats?: readonly string[];
  /**
   * How the operation's responses write their own IRIs (API Platform's `urlGenerationStrategy`):
   * an item's `@id` (HAL `self`, JSON:API `id`), a collection's `@id` and page links, `@context`,
   * `Location` and `Content-Location`; a Get's also names its resource's items wherever they
   * appear (relations, collection members). See {@link UrlGenerationStrategy}.
   * @default the resource's, else the API's, else `ReferenceType.ABSOLUTE_PATH`
   * @example Get({ urlGenerationStrategy: ReferenceType.ABSOLUTE_URL })
   */
  urlGenerationStrategy?: UrlGenerationStrategy;
  /**
   * GetCollection only: API Platform's operation pagination attributes, each replacing one key
   * of the resource's `pagination` (see `PaginationOptions`): `paginationEnabled` (`enabled`),
   * `paginationClientEnabled` (`clientEnabled`: the `pagination=false|true` parameter),
   * `paginationItemsPerPage`, `paginationMaximumItemsPerPage`, `paginationClientItemsPerPage`,
   * `paginationPartial`, `paginationClientPartial`, `paginationViaCursor` (`viaCursor`).
   * @default the resource's `pagination`
   * @example GetCollection({ paginationClientEnabled: true, paginationItemsPerPage: 10 })
   */
  paginationEnabled?: boolean;
  /** See `paginationEnabled`. @default the resource's `pagination.clientEnabled` (false) */
  paginationClientEnabled?: boolean;
  /** See `paginationEnabled`; an integer from 1 to the maximum. @default the resource's (30) */
  paginationItemsPerPage?: number;
  /** See `paginationEnabled`; an integer from 1. @default the resource's (100) */
  paginationMaximumItemsPerPage?: number;
  /** See `paginationEnabled`. @default the resource's (true) */
  paginationClientItemsPerPage?: boolean;
  /** See `paginationEnabled`. @default the resource's (false; true with a cursor) */
  paginationPartial?: boolean;
  /** See `paginationEnabled`. @default the resource's (true) */
  paginationClientPartial?: boolean;
  /**
   * See `paginationEnabled` and `PaginationOptions.viaCursor`.
   * @example [{ field: 'id', direction: 'DESC' }]
   */
  paginationViaCursor?: ReadonlyArray<{ readonly field: string; readonly direction: string }>;
}

/** One operation as declared. */
export interface OperationDeclaration extends OperationOptions {
  readonly kind: OperationKind;
}

function declare(kind: OperationKind, options: OperationOptions): OperationDeclaration {
  return Object.freeze({ ...options, kind });
}

/** A page of the collection (`GET /api/books`; API Platform `GetCollection`). */
export function GetCollection(options: OperationOptions = {}): OperationDeclaration {
  return declare('GetCollection', options);
}

/** One item (`GET /api/books/{id}`); an id that names nothing is a 404. */
export function Get(options: OperationOptions = {}): OperationDeclaration {
  return declare('Get', options);
}

/** Creates an item (`POST /api/books`): 201 with `Location` and `Content-Location`. */
export function Post(options: OperationOptions = {}): OperationDeclaration {
  return declare('Post', options);
}

/**
 * Replaces an item (`PUT /api/books/{id}`); an unknown id is a 404, unless `allowCreate` makes
 * the PUT create it (201).
 */
export function Put(options: OperationOptions = {}): OperationDeclaration {
  return declare('Put', options);
}

/** Merges into an item (`PATCH`, `application/merge-patch+json` only, RFC 7386). */
export function Patch(options: OperationOptions = {}): OperationDeclaration {
  return declare('Patch', options);
}

/** Deletes an item (`DELETE /api/books/{id}`): 204. */
export function Delete(options: OperationOptions = {}): OperationDeclaration {
  return declare('Delete', options);
}
