import type { Request } from 'express';
import type { ErrorBodyParts } from '../../http/ErrorRenderer';
import type { JsonSchema, ResourceSchemaNames } from '../openapi/resourceSchemas';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import type { ApiPaths, RequestBase } from '../serializer/ApiContext';
import type { PageLinks } from '../serializer/pagination';
import type { CollectionPage, ItemId, StoredItem } from '../state/types';

/**
 * What every encoder and decoder of a format is given: the resource, the API's paths, the
 * request and its base URL, and the plain normalization of an item (API Platform's
 * `ObjectNormalizer` output, to which a format adds its own keys).
 */
export interface FormatContext {
  readonly resource: Resource;
  readonly paths: ApiPaths;
  readonly base: RequestBase;
  readonly request: Request;
  /**
   * The item as plain data: `id`, then every readable property, relations as IRIs.
   * @param into - an object whose keys come first (e.g. JSON-LD's `@id`, `@type`); a new one by default
   * @param resource - the item's resource (an included one's); the context's by default
   */
  readonly normalize: (item: StoredItem, into?: Record<string, unknown>, resource?: Resource) =>
    Record<string, unknown>;
  /** The IRI of an item of the resource (`/api/books/3`, base URL included). */
  readonly iri: (item: StoredItem) => string;
  /** Appends a response header (e.g. the JSON format's `Link` to the other pages). */
  readonly header: (name: string, value: string) => void;
  /**
   * Reads an item of a resource of the API through its Get operation's provider (JSON:API's
   * `include`), or null when there is none.
   */
  readonly readItem: (resource: Resource, id: ItemId) => Promise<StoredItem | null>;
}

/** An item as a document of its own (GET, and the answer of a write). */
export interface ItemContext extends FormatContext {
  readonly item: StoredItem;
  /**
   * The item's IRI as the document names it (JSON-LD `@id`, HAL `self`, JSON:API `id`), under
   * the operation's `urlGenerationStrategy`: its own (`/api/authors/3`), or, read through a
   * subresource `Get` (`uriVariables`), that operation's path (`/api/books/1/author`), as API
   * Platform 3.4 writes it (features/main/sub_resource.feature).
   */
  readonly itemIri: string;
}

/** A page of a collection (GetCollection). */
export interface CollectionContext extends FormatContext {
  readonly items: readonly StoredItem[];
  readonly page: CollectionPage;
  /** The links to this page and the others (`first`, `last`, `previous`, `next`). */
  readonly links: PageLinks;
  /** The collection's path as the client sees it (base URL included, no query). */
  readonly path: string;
  /** The page size, or undefined when the resource is not paginated. */
  readonly itemsPerPage: number | undefined;
  /** The page number, from 1. */
  readonly currentPage: number;
}

/** The entrypoint (`GET /api`). */
export interface EntrypointContext {
  readonly paths: ApiPaths;
  readonly base: RequestBase;
  readonly request: Request;
  /** The collection path of each resource with a GetCollection, by the entrypoint's key (`book`). */
  readonly collections: Readonly<Record<string, string>>;
}

/** An error to write (the route error renderer's). */
export interface ErrorContext {
  readonly error: unknown;
  /** The status, detail, debug flag and profiler token the kernel resolved. */
  readonly parts: ErrorBodyParts;
  readonly paths: ApiPaths;
  readonly request: Request;
  /** RFC 9457 problem details as API Platform 3.4 writes them (`type`, `title`, `detail`, `status`, `violations`). */
  readonly problem: () => Record<string, unknown>;
}

/** What an error encoder returns: the body and its `Content-Type`, and headers to append. */
export interface EncodedError {
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a decoder is given: the operation and the stored item it writes to (null for a creation). */
export interface DecodeContext {
  readonly resource: Resource;
  readonly operation: ResolvedOperation;
  readonly paths: ApiPaths;
  readonly base: RequestBase;
  readonly request: Request;
  /** The item's current representation (PUT, PATCH, a Post on an item), or null. */
  readonly previous: Readonly<Record<string, unknown>> | null;
}

/** What the OpenAPI document asks a format for, for one operation of a resource. */
export interface FormatDocsContext {
  /**
   * The component names of the operation's schemas (`Book`, `Book.input`, `Book.jsonld`…; under
   * serialization groups `Book-book.read`, `Book.jsonld-book.read`, `Book-book.write`).
   */
  readonly names: ResourceSchemaNames;
  /** A `$ref` to a component. */
  readonly ref: (name: string) => JsonSchema;
  /** The resource's short name (`Book`). */
  readonly shortName: string;
  /**
   * The operation's schemas with every relation an IRI (for a format that never embeds, JSON:API):
   * `output` under its normalization groups (`id` and the readable properties), `input` and
   * `patch` under its denormalization groups (`{}` for an operation without a body).
   */
  readonly flat: { readonly output: JsonSchema; readonly input: JsonSchema; readonly patch: JsonSchema };
  /** The resource's relations by property name: the target's short name, and whether it is to-many. */
  readonly relations: Readonly<Record<string, { readonly target: string; readonly many: boolean }>>;
  /**
   * A component name of the format's own (API Platform's definition name): `name('jsonapi')` is
   * `Book.jsonapi`, `Book.jsonapi-book.read` under the operation's normalization groups.
   */
  readonly name: (variant: string) => string;
  /** Adds a component once (the first definition of a name wins) and returns a `$ref` to it. */
  readonly define: (name: string, schema: () => JsonSchema) => JsonSchema;
}

/**
 * One format (API Platform's encoder and normalizers for one entry of its `formats` config),
 * in one module: its name, its media types, how it writes items, collections and errors, how it
 * reads request bodies, and what the OpenAPI document says of it. Register it once in a
 * {@link FormatRegistry}; negotiation, the endpoints, the error renderer and the documentation
 * consult the registry, so a new format needs no other change.
 */
export interface Format {
  /**
   * The format's name (API Platform's key: `jsonld`, `jsonhal`, `json`, `jsonapi`, `csv`, `xml`):
   * what resources and operations list in `formats`, and the `.{_format}` suffix (`/api/books/1.json`).
   * Lowercase letters and digits.
   */
  readonly name: string;
  /** Its media types; the first is the `Content-Type` of its responses (with `; charset=utf-8`). */
  readonly mimeTypes: readonly string[];
  /**
   * Media types a client may `Accept` to get this format's errors alone (e.g. plain JSON's
   * `application/problem+json`): negotiation falls back on them when nothing else matches.
   */
  readonly errorMimeTypes?: readonly string[];
  /**
   * The keys a nested document starts with, when the operation's normalization groups embed a
   * relation (API Platform's readable links): JSON-LD's `@id` and `@type`, `{}` for plain JSON and
   * HAL (which moves it to `_embedded`, finding its resource under `EMBEDDED_RESOURCE`). Without
   * it, the format never embeds: relations stay IRIs (JSON:API, which has `include`).
   */
  readonly embeddedHead?: (resource: Resource, item: StoredItem, paths: ApiPaths, base: RequestBase) =>
    Record<string, unknown>;
  /** An item, as the text of the response body. */
  readonly item: (context: ItemContext) => string | Promise<string>;
  /**
   * A page of a collection, as the text of the response body.
   * @throws HttpError (e.g. 406) when the format cannot write this collection
   */
  readonly collection: (context: CollectionContext) => string | Promise<string>;
  /** The entrypoint; without it, the entrypoint answers in plain JSON. */
  readonly entrypoint?: (context: EntrypointContext) => string;
  /**
   * An error; without it, errors are RFC 9457 problem details (`application/problem+json`).
   */
  readonly error?: (context: ErrorContext) => EncodedError;
  /**
   * Reads a request body of one of {@link Format.mimeTypes} (POST, PUT; PATCH when the API's
   * `patchFormats` name the format) into the object to denormalize: property names to values,
   * relations as IRIs, as the plain JSON format has them. Without it, the format is output only
   * (a body in it is a 415).
   * @param body - the parsed JSON (for a `+json` or `application/json` type), else the raw text
   * @throws HttpError 400 for a body the format cannot read
   */
  readonly decode?: (body: unknown, context: DecodeContext) => Record<string, unknown>;
  /**
   * The key by which a nested document in a decoded body names an existing item (API Platform's
   * JSON-LD `ItemNormalizer`: `@id`; its plain `ItemNormalizer`: `id`, an IRI or the identifier):
   * the format takes nested documents for writable embedded relations (a relation whose target
   * has a property in the operation's denormalization groups). Without it, such a nested document
   * is a 400 that says the format takes IRIs only (API Platform's HAL is read-only, its JSON:API
   * takes resource linkage only).
   */
  readonly nestedDocumentId?: string;
  /**
   * What the OpenAPI document says of the format: the schemas of its items and collections
   * (without `docs`, `{ type: 'string' }`), and of its request bodies: `input` for POST and PUT,
   * `patch` for PATCH (when the API's `patchFormats` name it); a body schema left out is not
   * documented.
   */
  readonly docs?: {
    readonly item: (context: FormatDocsContext) => JsonSchema;
    readonly collection: (context: FormatDocsContext) => JsonSchema;
    readonly input?: (context: FormatDocsContext) => JsonSchema;
    readonly patch?: (context: FormatDocsContext) => JsonSchema;
  };
}
