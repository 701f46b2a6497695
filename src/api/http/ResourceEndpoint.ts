import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { bodyReader, hasBody, isJsonRequest } from '../../http/body/JsonBodyReader';
import { AccessDeniedHttpError } from '../../http/errors';
import { denyAccess } from '../../security/ExceptionListener';
import {
  baseContext, recordDecision, type PostDenormalizeContext, type SecurityContext,
} from '../../security/RouteSecurity';
import { parseCollectionQuery } from '../query/collectionQuery';
import { cursorRead } from '../query/cursorPagination';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import { type ApiPaths, iriRoot, type RequestBase, requestBase } from '../serializer/ApiContext';
import type { ApiFormats } from '../format/apiFormats';
import type { CollectionContext, DecodeContext, Format, FormatContext } from '../format/Format';
import { HTML } from '../format/FormatRegistry';
import { operationFormats } from '../format/operationFormats';
import { idFromIri, itemIri } from '../serializer/iri';
import { normalizeItem, type NormalizeOptions } from '../serializer/normalize';
import { loadRelated } from '../serializer/embedding';
import { inGroups } from '../serializer/serializationContext';
import { pageLinks } from '../serializer/pagination';
import type { ItemId, QueryLogEntry, StateContext, StoredItem } from '../state/types';
import type { ProcessorData } from '../state/Processor';
import type { UriVariables } from '../state/Provider';
import { providedItem, providedPage } from '../state/providedState';
import { RelationNotFoundError } from '../state/storeProcessor';
import type { SecurityUser } from '../../security/SecurityUser';
import { mergePatch } from '../write/mergePatch';
import { toStoredDataWithEmbedded } from '../write/embeddedData';
import { toStoredData } from '../write/inputData';
import { allEmbeddedWrites } from '../state/embeddedWrite';
import { clientId } from '../write/clientId';
import { compositePartsFromText } from '../resource/compositeIdentifier';
import { idFromPath } from '../resource/identifierSchema';
import { denormalizationError, itemNotFoundForIri } from '../write/denormalizationError';
import { ConflictError, ItemNotFoundError, PreconditionFailedError } from './ApiErrors';
import type { ApiRequestState } from './ApiRequestState';
import './ApiRequestState';
import { etagOf, ifMatch, notModified } from './etag';
import { formatSuffix, negotiateFormat } from './negotiation';
import { apiResponseHeaders, contentTypeOf, sendText } from './respond';
import { HttpError } from '../../http/errors';
import { fullRepresentation, granted, PropertyAccess } from './PropertyAccess';
import { NestedDocuments, withoutNestedDocuments } from './NestedDocuments';
import type { HttpCache } from '../httpCache/HttpCache';

/**
 * How many times a write without `If-Match` re-reads and retries after a concurrent change. Each
 * conflict means another writer's change was stored, so N clients writing one item at once all
 * get through within N attempts: 16 covers 16 at once (on PostgreSQL six concurrent PATCHes
 * exhausted 4); more than that is a 409 asking the client to try again.
 */
export const WRITE_ATTEMPTS = 16;

const NOT_LOGGED: StateContext = Object.freeze({});

/** The most ids one read of embedded items names (SQLite binds at most 32766 parameters, PostgreSQL 65535). */
const EMBED_READ_CHUNK = 1000;

/** The largest body in a format that is not JSON (CSV, XML, yours), in bytes: the JSON reader's default. */
export const TEXT_BODY_LIMIT = 100 * 1024;
const readText = bodyReader(express.text({ type: () => true, limit: TEXT_BODY_LIMIT }), TEXT_BODY_LIMIT, () => true);

/**
 * The preconditions of a write that found no item (a Put that creates): `If-Match` (any value,
 * `*` too) fails, as no current representation matches (RFC 9110 §13.1.1): a 412.
 * @returns whether the client asked to create only (`If-None-Match`): losing a race to another
 *   client's create is then a 412, not a 409
 */
function absentPrecondition(req: Request): boolean {
  if (req.headers['if-match'] !== undefined) throw PreconditionFailedError.onCreate(undefined);
  return req.headers['if-none-match'] !== undefined;
}

function unsupported(type: string | undefined, expected: readonly string[]): HttpError {
  return new HttpError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
    `Unsupported Media Type: expected ${expected.join(' or ')}, got "${(type ?? 'none').slice(0, 100)}".`);
}

/**
 * The body without the properties of `resource` (the operation's resource, or its input DTO)
 * outside the operation's denormalization groups (symfony ignores them, as it ignores unknown
 * attributes); on an item (PUT, a Post on `{id}`) they keep their stored values, on a creation
 * they are absent (their defaults apply).
 */
function inDenormalizationGroups(
  resource: Resource, operation: ResolvedOperation, body: Record<string, unknown>, previous: object | null,
): Record<string, unknown> {
  const context = operation.denormalizationContext;
  if (context.groups === undefined) return body;
  const stored = previous as Readonly<Record<string, unknown>> | null;
  for (const p of resource.metadata.properties) {
    if (inGroups(p, context)) continue;
    delete body[p.name];
    if (stored !== null && operation.kind !== 'Patch') body[p.name] = stored[p.name];
  }
  return body;
}

/**
 * One resource's operations on one route (API Platform's read → security → deserialize (with
 * the properties' `security` and `securityPostDenormalize`) → securityPostDenormalize → validate →
 * securityPostValidation → write → serialize (with the properties' `security`) chain), split into
 * the kernel's route options: `provider` (negotiation and read), `security`, `denormalize`,
 * `securityPostDenormalize` and the controller.
 */
export class ResourceEndpoint {
  /**
   * The `Accept-Patch` of the item responses (API Platform's operation `acceptPatch`: the PATCH
   * input formats, on every operation but the collection's), when the resource has a Patch.
   */
  private readonly acceptPatch: string | undefined;

  constructor(
    private readonly resource: Resource,
    private readonly operations: readonly ResolvedOperation[],
    private readonly paths: ApiPaths,
    private readonly documentationPage: RequestHandler,
    private readonly formats: ApiFormats,
    private readonly context?: (req: Request) => StateContext,
    private readonly httpCache?: HttpCache,
  ) {
    // the operations' formats are checked now: an unknown name is a start-up error
    for (const op of operations) operationFormats(formats, resource, op);
    const patchOp = resource.operations.find((op) => op.kind === 'Patch');
    const patchTypes = patchOp === undefined ? [] : operationFormats(formats, resource, patchOp).patchTypes;
    this.acceptPatch = patchTypes.length > 0 ? patchTypes.join(', ') : undefined;
  }

  /** The operation the request's method selects (HEAD is GET). */
  operationOf(req: Request): ResolvedOperation {
    const method = req.kernel?.method ?? req.method;
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.operations.find((op) => op.method === wanted) ?? this.operations[0];
  }

  /**
   * The request's base URL and origin, with the operation's `urlGenerationStrategy` (its own,
   * else its resource's, else the API's): how the document's own IRIs are written.
   */
  private requestBase(req: Request): RequestBase {
    const operation = req.api?.operation ?? this.operationOf(req);
    return requestBase(req, operation.urlGenerationStrategy ?? this.paths.urlGenerationStrategy);
  }

  /**
   * The per-call state context: the statements a store runs are kept for the profiler (in
   * `req.api.queries`, and passed to the `stateContext` option's). A request the kernel does not
   * profile (`req.stopwatch` not enabled) keeps none of its own: the option's context is used as it is.
   */
  stateContext(req: Request): StateContext {
    const queries = req.api?.queries;
    const outer = this.context?.(req);
    if (queries === undefined) return outer ?? NOT_LOGGED;
    const log = outer?.logQuery;
    return {
      logQuery: (entry: QueryLogEntry) => {
        queries.push(entry);
        log?.(entry);
      },
    };
  }

  /**
   * The route's placeholders as the operation's URI variables: `id` of the resource's identifier
   * type (`idFromPath`: null when the value cannot be one, so no item has it: a 404, as API
   * Platform's `UriVariablesConverter` failing is), the others strings.
   */
  uriVariables(req: Request): UriVariables | null {
    const out: Record<string, string | number> = {};
    // a link's `{id}` (`/books/{id}/author`) names an item of its `fromClass`, read by the provider
    const linked = new Set(this.operationOf(req).links.map((l) => l.parameter));
    for (const [name, value] of Object.entries(req.params as Record<string, string | undefined>)) {
      // the format suffix is not a variable of the URI template (API Platform leaves `_format` out)
      if (value === undefined || value === null || name === '_format') continue;
      if (name !== 'id' || linked.has(name)) {
        out[name] = value;
        continue;
      }
      const id = idFromPath(this.resource.identifier, value);
      if (id === null) return null;
      out.id = id;
    }
    return out;
  }

  /** The provider's and processor's context: the request, the user, where statements are logged. */
  private contextOf(req: Request): { request: Request; user: SecurityUser | null } & StateContext {
    return { ...this.stateContext(req), request: req, user: req.security?.user ?? null };
  }

  /**
   * The `provider` route option: negotiates the format (406 first, before anything is read),
   * then, for item operations, reads the item with the operation's provider (404 when it
   * provides none, or the id cannot be one).
   * @returns the item's representation (what `security` sees as `object`), or null
   */
  readonly provide = async (req: Request): Promise<object | null> => {
    // every answer of the route depends on Accept, the firewall's 401 included
    if (req.res !== undefined) apiResponseHeaders(req, req.res, this.paths);
    const operation = this.operationOf(req);
    const state: ApiRequestState = req.stopwatch?.enabled === false
      ? { resource: this.resource, operation }
      : { resource: this.resource, operation, queries: [] };
    req.api = state;
    const offered = operationFormats(this.formats, this.resource, operation).outputs;
    state.format = negotiateFormat(req, offered, operation.method === 'GET');
    // a browser gets the documentation page for an item that exists, and a 404 for one that
    // does not (API Platform's SwaggerUiProvider reads the item first)
    if (!operation.item) return null;
    const variables = this.uriVariables(req);
    const provided = variables === null ? null
      : await operation.provider!.provide(operation, variables, this.contextOf(req));
    const item = providedItem(provided, operation, 'provider');
    // a Put that creates (API Platform's ReadProvider: no 404 for `allowCreate`): `object` is null
    if (item === null && variables !== null && operation.allowCreate) return null;
    if (item === null) throw new ItemNotFoundError(this.resource.shortName, String(req.params.id ?? ''));
    state.item = item;
    return this.representation(item, this.requestBase(req));
  };

  /** The item with every property, writeOnly ones too (what security checks see as `object`). */
  representation(item: StoredItem, base: RequestBase): Record<string, unknown> {
    return fullRepresentation(this.resource, item, this.paths, base);
  }

  /**
   * The `security` route option, when one of the route's operations has a rule or a link with
   * one: each link's `security` first, on the linked item (a 404 when the variable names none;
   * denied: a 403 with the link's `securityMessage`, a 401 for an anonymous client), then the
   * operation's.
   */
  security(): ((context: SecurityContext) => Promise<boolean>) | undefined {
    if (!this.operations.some((op) => op.security !== undefined || op.links.some((l) => l.security !== undefined))) {
      return undefined;
    }
    return async (context) => {
      const operation = this.operationOf(context.request);
      for (const l of operation.links) {
        if (l.security === undefined) continue;
        const value = String(context.request.params[l.parameter] ?? '');
        const object = await this.linkedItem(context.request, l.fromClass, value);
        if (await granted(l.security, { ...context, object })) continue;
        if (context.user === null) return false; // the firewall's challenge: a 401
        throw new AccessDeniedHttpError(l.securityMessage);
      }
      const rule = operation.security;
      return rule === undefined ? true : granted(rule, context);
    };
  }

  /**
   * The item a link's variable names, as its resource's `Get` provides it, in the client's
   * representation (what a link's `security` sees as `object`).
   * @throws ItemNotFoundError (404) when there is none
   */
  private async linkedItem(req: Request, shortName: string, value: string | undefined): Promise<object> {
    const resource = this.paths.resources.get(shortName);
    const get = resource?.operations.find((op) => op.kind === 'Get');
    const id = value === undefined || resource === undefined ? null : idFromPath(resource.identifier, value);
    const item = id === null || get?.provider === undefined ? null
      : providedItem(await get.provider.provide(get, { id }, this.contextOf(req)), get, 'provider');
    if (item === null || resource === undefined) throw new ItemNotFoundError(shortName, value ?? '');
    return fullRepresentation(resource, item, this.paths, this.requestBase(req));
  }

  /** The `securityPostDenormalize` route option, when one of the route's operations has a rule. */
  securityPostDenormalize(): ((context: PostDenormalizeContext) => Promise<boolean>) | undefined {
    if (!this.operations.some((op) => op.securityPostDenormalize !== undefined)) return undefined;
    return async (context) => {
      const rule = this.operationOf(context.request).securityPostDenormalize;
      return rule === undefined ? true : granted(rule, context);
    };
  }

  /**
   * The `denormalize` route option: the new object from the body, read by the format its
   * `Content-Type` names. POST and PUT take the formats that read bodies (`application/ld+json`,
   * `application/json`…; 415 otherwise) and replace every property; PATCH takes the API's
   * `patchFormats` (`application/merge-patch+json`, RFC 7386), merged into the stored item.
   * @throws HttpError 415 for another media type, 400 for a body the format cannot read (not a
   *   JSON object) or that the resource cannot read (`denormalizationError`: a wrong type, a bad
   *   IRI; a JSON-LD POST with an `@id`)
   */
  readonly denormalize = async (req: Request, previous: object | null): Promise<object> => {
    const operation = this.operationOf(req);
    if (!operation.deserialize) return { ...(previous ?? {}) };
    const patch = operation.kind === 'Patch';
    const format = this.bodyFormat(req, operation, patch);
    const base = this.requestBase(req);
    const context: DecodeContext = {
      resource: this.resource, operation, paths: this.paths, base, request: req,
      previous: previous as Readonly<Record<string, unknown>> | null,
    };
    const input = operation.input;
    if (input !== undefined && input !== false) return this.inputObject(req, input, operation, format, context);
    const decoded = format.decode!(await this.bodyOf(req), context);
    const body = inDenormalizationGroups(this.resource, operation, decoded, previous);
    // a Post on an item (a custom operation on {id}) populates it, as API Platform's object_to_populate
    const object = patch ? mergePatch(previous ?? {}, body) as Record<string, unknown>
      : operation.kind === 'Post' && previous !== null ? { ...previous, ...body }
        : { ...body };
    this.keepCompositeParts(req, operation, object, previous);
    // the properties' rules: a value the client may not write is ignored, before its type is read
    const access = new PropertyAccess(req, this.paths);
    const stored = previous as Readonly<Record<string, unknown>> | null;
    await access.ignoreDenied(this.resource, object, stored);
    // nested documents of writable embedded relations, each read as its own resource reads a body
    const nested = new NestedDocuments(req, this.paths, base, operation.denormalizationContext, format,
      (resource, id) => this.readItem(req, resource, id));
    await nested.accept(this.resource, object);
    const { prefixes, identifiers } = this.paths;
    const plain = withoutNestedDocuments(object);
    const error = denormalizationError(this.resource, plain, prefixes, base.baseUrl, identifiers);
    if (error !== undefined) throw error;
    await access.revertDenied(this.resource, object, stored, Object.keys(body));
    if (patch) return object;
    if (previous !== null) object.id = (previous as { id?: unknown }).id;
    // a Put that creates: the URL's id (Doctrine's PersistProcessor sets it from the URI variables)
    else if (operation.kind === 'Put') object.id = this.uriVariables(req)?.id;
    // a Post's own id, where the client may choose it (`clientId` reads it)
    else if (!this.resource.identifier.writable || operation.kind !== 'Post' || this.resource.identifier.parts) {
      delete object.id;
    }
    return object;
  };

  /**
   * The body read as the operation's input DTO (API Platform's `input` class): decoded by its
   * format as a body of the DTO, each property's type checked; the properties' constraints are
   * validated later, with the operation's groups ({@link dataOf}). As API Platform 3.4's
   * `AbstractItemNormalizer::denormalize` reads an input (its `resource_class` becomes the DTO's
   * class, which is no resource): the operation's denormalization groups apply to the DTO's own
   * properties (their `groups()`; a property outside them is ignored), and the resource's
   * property rules (`properties.<name>.security`, `securityPostDenormalize`) do not apply, even to
   * a DTO property of the same name: the processor decides what the DTO may change.
   * @throws HttpError 400 for a body of the wrong shape (`denormalizationError`)
   */
  private async inputObject(
    req: Request, input: Resource, operation: ResolvedOperation, format: Format, context: DecodeContext,
  ): Promise<Record<string, unknown>> {
    const decoded = format.decode!(await this.bodyOf(req), { ...context, resource: input, previous: null });
    const object = { ...inDenormalizationGroups(input, operation, { ...decoded }, null) };
    delete object.id;
    const { prefixes, identifiers } = this.paths;
    const error = denormalizationError(input, object, prefixes, context.base.baseUrl, identifiers);
    if (error !== undefined) throw error;
    return object;
  }


  /**
   * The request body: what the kernel parsed (JSON, `application/*+json`), else its text (UTF-8
   * or the `charset` the `Content-Type` names), read once; undefined without a body.
   * @throws HttpError 413 over {@link TEXT_BODY_LIMIT}, 415 for an unsupported charset
   */
  private async bodyOf(req: Request): Promise<unknown> {
    if (req.body !== undefined || isJsonRequest(req) || !hasBody(req) || req.res === undefined) return req.body;
    await readText(req, req.res);
    return req.body;
  }

  /**
   * The format that reads the request's body, by its `Content-Type`.
   * @throws HttpError 415 when none does
   */
  private bodyFormat(req: Request, operation: ResolvedOperation, patch: boolean): Format {
    const own = operationFormats(this.formats, this.resource, operation);
    const types = patch ? own.patchTypes : own.inputTypes;
    const matched = types.length === 0 ? false : req.is([...types]);
    const format = typeof matched === 'string'
      ? (patch ? own.patch.get(matched) : this.formats.registry.byMimeType(matched))
      : undefined;
    if (format === undefined) throw unsupported(req.headers['content-type'], types);
    return format;
  }

  /** The controller: runs the operation and writes the response. */
  readonly controller = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const state = req.api!;
    if (state.format === HTML) return this.documentationPage(req, res, next) as void;
    const format = state.format ?? this.formats.all[0];
    const operation = state.operation!;
    if (operation.kind === 'GetCollection') return this.getCollection(req, res, format);
    if (operation.method === 'GET') return this.getItem(req, res, format);
    return this.write(req, res, next, format);
  };

  /**
   * What every encoder of the format is given for this request: its `normalize` follows the
   * operation's normalization context (groups, embedded relations, max depth), the related items
   * the format embeds read first, in batches ({@link readItems}); `access` leaves out of each item
   * (embedded ones too) the properties the client may not read.
   * @param items - the items the response writes
   */
  private async formatContext(
    req: Request, res: Response, access: PropertyAccess, format: Format, items: readonly StoredItem[],
  ): Promise<FormatContext> {
    const base = this.requestBase(req);
    const operation = req.api?.operation ?? this.operations[0];
    const resource = this.writtenAs(operation);
    const context = operation.normalizationContext;
    const embeddedHead = format.embeddedHead;
    const options: NormalizeOptions | undefined = context.groups === undefined ? undefined : {
      context,
      resources: this.paths.resources,
      related: embeddedHead === undefined ? new Map<string, Map<number, StoredItem>>()
        : await loadRelated(resource, items, context, this.paths.resources, (r, ids) =>
          this.readItems(req, r, ids)),
      ...(embeddedHead !== undefined
        ? { head: (r: Resource, i: StoredItem) => embeddedHead(r, i, this.paths, base) } : {}),
      strip: (r, i, normalized) => access.strip(r, i, normalized),
    };
    if (options !== undefined) {
      for (const [name, read] of options.related) {
        await access.prepare(this.paths.resources.get(name)!, [...read.values()]);
      }
    }
    return {
      resource,
      paths: this.paths,
      base,
      request: req,
      normalize: (item, into, of = resource) =>
        access.strip(of, item, normalizeItem(of, item, this.paths, base, into, options)),
      iri: (item) => itemIri(this.resource.routePrefix, item.id, iriRoot(base)),
      header: (name, value) => {
        res.append(name, value);
      },
      readItem: async (resource, id) => {
        const read = await this.readItem(req, resource, id);
        if (read !== null) await access.prepare(resource, [read]);
        return read;
      },
    };
  }

  /** What the operation's answers are written as: its output DTO, else the resource. */
  private writtenAs(operation: ResolvedOperation): Resource {
    return operation.output === undefined || operation.output === false ? this.resource : operation.output;
  }

  /** An item of a resource of the API through its Get operation's provider, or null when there is none. */
  private async readItem(req: Request, resource: Resource, id: ItemId): Promise<StoredItem | null> {
    const get = resource.operations.find((op) => op.kind === 'Get');
    if (get?.provider === undefined) return null;
    return providedItem(await get.provider.provide(get, { id }, this.contextOf(req)), get, 'provider');
  }

  /**
   * Items of a resource by id, for embedding: from its store in one read per
   * {@link EMBED_READ_CHUNK} ids (`id` IN the list, as the back office reads related items), else
   * one by one through its Get operation's provider (a resource with a custom provider).
   */
  private async readItems(req: Request, resource: Resource, ids: readonly ItemId[]): Promise<StoredItem[]> {
    const out: StoredItem[] = [];
    const store = resource.provider;
    if (store === undefined) {
      for (const id of ids) {
        const item = await this.readItem(req, resource, id);
        if (item !== null) out.push(item);
      }
      return out;
    }
    for (let i = 0; i < ids.length; i += EMBED_READ_CHUNK) {
      const chunk = ids.slice(i, i + EMBED_READ_CHUNK);
      const page = await store.provideCollection(resource.metadata, {
        conditions: [{ type: 'search', property: 'id', strategy: 'exact', values: chunk }],
        order: [], page: 1, itemsPerPage: chunk.length, partial: true,
      }, this.stateContext(req));
      out.push(...page.items);
    }
    return out;
  }

  private async sendItem(
    req: Request, res: Response, format: Format, item: StoredItem, status: number, etag = etagOf(item),
  ): Promise<void> {
    const base = this.requestBase(req);
    res.setHeader('ETag', etag);
    // API Platform's RespondProcessor: the item's IRI on every response that carries an item
    res.setHeader('Content-Location', itemIri(this.resource.routePrefix, item.id, iriRoot(base)));
    if (this.acceptPatch !== undefined) res.setHeader('Accept-Patch', this.acceptPatch);
    const operation = req.api!.operation!;
    if (operation.output === false) {
      res.status(status).vary('Accept').end();
      return;
    }
    const access = new PropertyAccess(req, this.paths);
    await access.prepare(this.writtenAs(operation), [item]);
    // a subresource's item is named by the path that read it (API Platform's sub_resource.feature)
    const iri = operation.method === 'GET' && operation.links.length > 0 ? this.operationIri(req, operation)
      : itemIri(this.resource.routePrefix, item.id, iriRoot(base));
    const context = await this.formatContext(req, res, access, format, [item]);
    const text = await format.item({ ...context, item, itemIri: iri });
    sendText(res, contentTypeOf(format), status, text);
  }

  private async getCollection(req: Request, res: Response, format: Format): Promise<void> {
    const raw = req.kernel?.uri?.queryString ?? '';
    const operation = req.api!.operation!;
    const parsed = parseCollectionQuery(raw, this.resource, {
      prefixes: this.paths.prefixes, identifiers: this.paths.identifiers,
      strict: operation.strictQueryParameterValidation, pagination: operation.pagination,
    });
    const { query, backward } = cursorRead(parsed, operation.pagination.viaCursor);
    const provided = await operation.provider!.provide(operation, this.uriVariables(req) ?? {}, {
      ...this.contextOf(req), query,
    });
    const read = providedPage(provided, operation, query, query.paginated !== false);
    // a cursor's previous page, read in the opposite order, turned back
    const page = backward ? { ...read, items: [...read.items].reverse() } : read;
    req.api!.items = page.items;
    if (operation.output === false) {
      res.status(200).vary('Accept').end();
      return;
    }
    const access = new PropertyAccess(req, this.paths);
    await access.prepare(this.writtenAs(operation), page.items);
    const path = this.operationIri(req, operation);
    // the collection's IRI never has the suffix; its pages' links are the request's URI, suffix
    // included (API Platform's PartialCollectionViewNormalizer builds them from the request URI)
    const suffix = formatSuffix(req);
    const context: CollectionContext = {
      ...await this.formatContext(req, res, access, format, page.items),
      items: page.items,
      page,
      links: pageLinks(
        suffix === undefined ? path : `${path}.${suffix}`, raw, query, page, operation.pagination.viaCursor,
      ),
      path,
      itemsPerPage: query.paginated !== false ? query.itemsPerPage : undefined,
      currentPage: query.page,
    };
    sendText(res, contentTypeOf(format), 200, await format.collection(context));
  }

  /**
   * The operation's path with the request's URI variables, under its `urlGenerationStrategy`:
   * a collection's IRI (`/api/authors/1/books`), a subresource item's (`/api/books/1/author`).
   */
  private operationIri(req: Request, operation: ResolvedOperation): string {
    return `${iriRoot(this.requestBase(req))}${operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(req.params[name] ?? '')))}`;
  }

  private async getItem(req: Request, res: Response, format: Format): Promise<void> {
    const item = req.api!.item!;
    const etag = etagOf(item);
    if (notModified(req, etag)) {
      res.status(304).vary('Accept').setHeader('ETag', etag);
      res.end();
      return;
    }
    await this.sendItem(req, res, format, item, 200, etag);
  }


  /**
   * What the processor receives ({@link ProcessorData}): the validated body in the store's shapes;
   * for Delete the stored item's properties, for an operation that reads no body its writable ones.
   */
  private dataOf(
    req: Request, operation: ResolvedOperation, object: Record<string, unknown>, previous: StoredItem | undefined,
  ): ProcessorData {
    if (operation.kind === 'Delete') return previous?.data ?? {};
    if (!operation.deserialize) {
      const data: Record<string, unknown> = {};
      for (const p of this.resource.metadata.properties) {
        if (!p.readOnly) data[p.name] = previous?.data[p.name] ?? null;
      }
      return previous === undefined ? {} : data;
    }
    if (operation.input !== undefined && operation.input !== false) {
      // an input DTO: the body read and validated as it, handed to the processor as it is
      return toStoredData(operation.input, object, this.paths.prefixes, this.requestBase(req).baseUrl, req.locale,
        this.paths.identifiers, operation.validationContext);
    }
    const data = toStoredDataWithEmbedded(
      this.resource, object, this.paths.prefixes, this.requestBase(req).baseUrl, req.locale, this.paths.identifiers,
      '', operation.validationContext,
    );
    const { parts } = this.resource.identifier;
    if (previous === undefined && operation.kind === 'Post' && this.resource.identifier.writable) {
      // a composite id is made of the (validated) parts' values
      const id = clientId(this.resource, parts === undefined ? object : data, req.locale);
      if (id !== undefined) data.id = id;
    }
    return data;
  }

  /**
   * An item operation's composite identifier parts are its URL's, as its id is: the item's own, or
   * for a Put that creates, the URL's (a body cannot move an item, nor need to repeat them).
   */
  private keepCompositeParts(
    req: Request, operation: ResolvedOperation, object: Record<string, unknown>, previous: object | null,
  ): void {
    const { parts } = this.resource.identifier;
    if (parts === undefined || !operation.item) return;
    const own = previous !== null ? previous as Readonly<Record<string, unknown>>
      : compositePartsFromText(parts, String(this.uriVariables(req)?.id ?? ''));
    for (const p of parts) if (own?.[p.name] !== undefined) object[p.name] = own[p.name];
  }

  /**
   * A write operation (Post, Put, Patch, Delete, a custom one): the processor with the data, the
   * URI variables and the item read (`previousData`). When the store finds that another client
   * wrote the item first (a 412 with the current item) and the client sent no `If-Match`, the
   * operation's checks run again on the current version and the processor is called again.
   */
  private async write(req: Request, res: Response, next: NextFunction, format: Format): Promise<void> {
    const operation = req.api!.operation!;
    let previous = req.api!.item;
    const strict = previous === undefined ? absentPrecondition(req) : this.expectedVersion(req, previous);
    let object = (req.denormalized?.object ?? {}) as Record<string, unknown>;
    const variables = this.uriVariables(req) ?? {};
    for (let attempt = 1; ; attempt++) {
      const data = this.dataOf(req, operation, object, previous);
      if (!(await this.postValidationGranted(req, operation, object, previous))) {
        return denyAccess(req, res, next, operation.securityPostValidationMessage);
      }
      const context = { ...this.contextOf(req), ...(previous !== undefined ? { previousData: previous } : {}) };
      let result: unknown;
      try {
        result = await operation.processor!.process(data, operation, variables, context);
      } catch (error) {
        if (error instanceof RelationNotFoundError) throw itemNotFoundForIri(this.sentIri(req, object, error));
        // a create only (`If-None-Match: *`) that another client's create beat
        if (error instanceof ConflictError && previous === undefined && strict) {
          throw PreconditionFailedError.onCreate('');
        }
        const current = error instanceof PreconditionFailedError ? error.current : undefined;
        if (current === undefined || previous === undefined || strict) throw error;
        if (attempt >= WRITE_ATTEMPTS) {
          const verb = operation.kind === 'Delete' ? 'deleted' : 'written';
          throw new ConflictError(`Conflict: the item kept changing while it was ${verb}; try again.`);
        }
        // Another client wrote first: redo the change on its version (PUT and PATCH rebuild the
        // object from the body, and the checks see the new stored object), never overwrite it blindly.
        previous = current;
        object = await this.recheck(req, operation, current, this.requestBase(req));
        continue;
      }
      const written = providedItem(result, operation, 'processor');
      await this.httpCache?.invalidate(req, this.resource, previous ?? null, written);
      for (const w of allEmbeddedWrites(data)) {
        const resource = this.paths.resources.get(w.shortName);
        if (resource !== undefined && w.written !== undefined) {
          await this.httpCache?.invalidate(req, resource, w.previous ?? null, w.written);
        }
      }
      return await this.answer(req, res, format, operation, written, previous === undefined);
    }
  }

  /** The IRI the client sent for the related item a store did not find (one of a to-many relation's). */
  private sentIri(req: Request, object: Record<string, unknown>, error: RelationNotFoundError): unknown {
    const sent = object[error.property];
    if (!Array.isArray(sent)) return sent;
    const target = this.resource.metadata.properties.find((p) => p.name === error.property)?.relation ?? '';
    const prefix = this.paths.prefixes[target] ?? '';
    const baseUrl = this.requestBase(req).baseUrl;
    const type = this.paths.identifiers[target];
    return (sent as unknown[])
      .find((iri) => typeof iri === 'string' && idFromIri(iri, prefix, baseUrl, type) === error.id)
      ?? sent.join(', ');
  }

  /**
   * The operation's `securityPostValidation` (API Platform's post-validation access check), on the
   * object that passed validation and the stored item as `previousObject` (null on a create); the
   * decision is recorded for the profiler.
   * @returns true when the operation has no such rule or it grants access
   */
  private async postValidationGranted(
    req: Request, operation: ResolvedOperation, object: Record<string, unknown>, previous: StoredItem | undefined,
  ): Promise<boolean> {
    const rule = operation.securityPostValidation;
    if (rule === undefined) return true;
    const previousObject = previous === undefined ? null : this.representation(previous, this.requestBase(req));
    const ok = await granted(rule, { ...baseContext(req), object: { ...object }, previousObject });
    recordDecision(req, 'security_post_validation', ok);
    return ok;
  }

  /**
   * The answer of a write: the item (201 with `Location` for a Post and a Put that created, else
   * 200, or the operation's status), else 204.
   * @param created - whether no item was read before (a Put that creates: 201, RFC 9110 §9.3.4)
   */
  private async answer(
    req: Request, res: Response, format: Format, operation: ResolvedOperation, item: StoredItem | null,
    created: boolean,
  ): Promise<void> {
    if (item === null) {
      // API Platform's RespondProcessor sets Accept-Patch on every operation but the collection's
      if (this.acceptPatch !== undefined) res.setHeader('Accept-Patch', this.acceptPatch);
      // no output: the method's status (API Platform's RespondProcessor), else nothing to answer with
      const empty = operation.output === false ? operation.status ?? (operation.kind === 'Post' ? 201 : 204) : 204;
      res.status(empty).vary('Accept').end();
      return;
    }
    const status = operation.status ?? (operation.kind === 'Post' || (operation.kind === 'Put' && created) ? 201 : 200);
    if (status === 201) {
      const location = itemIri(this.resource.routePrefix, item.id, iriRoot(this.requestBase(req)));
      res.setHeader('Location', location);
    }
    await this.sendItem(req, res, format, item, status);
  }

  /**
   * 412 when `If-Match` names another version, or `If-None-Match` names this one or is `*`
   * (RFC 9110 §13.1.2: on a write, the condition fails when the item exists).
   * @returns whether the client sent `If-Match` (a write that finds another version is then a 412, not a retry)
   */
  private expectedVersion(req: Request, item: StoredItem): boolean {
    const etag = etagOf(item);
    const match = ifMatch(req, etag);
    if (match === false) throw new PreconditionFailedError(etag);
    if (notModified(req, etag)) throw PreconditionFailedError.onCreate(etag);
    return match === true;
  }

  /**
   * Before a retry on the version another client stored: the operation's checks again, as on the
   * first attempt (API Platform's read → security → deserialize → securityPostDenormalize), so a
   * change that the new version no longer allows is refused. `security` sees the new version as
   * `object`; for PUT and PATCH the new object is rebuilt from the body ({@link denormalize}) and
   * `securityPostDenormalize` sees it, with the new version as `previousObject`.
   * @returns the object to write (PUT, PATCH; an empty object for DELETE)
   * @throws AccessDeniedHttpError (403, the operation's message) when a check now denies
   */
  private async recheck(
    req: Request, operation: ResolvedOperation, item: StoredItem, base: RequestBase,
  ): Promise<Record<string, unknown>> {
    const stored = this.representation(item, base);
    const { security, securityPostDenormalize } = operation;
    if (security !== undefined && !(await granted(security, { ...baseContext(req), object: { ...stored } }))) {
      throw new AccessDeniedHttpError(operation.securityMessage);
    }
    if (operation.kind === 'Delete') return {};
    const object = await this.denormalize(req, { ...stored }) as Record<string, unknown>;
    const previousObject = { ...stored };
    if (securityPostDenormalize !== undefined
      && !(await granted(securityPostDenormalize, { ...baseContext(req), object, previousObject }))) {
      throw new AccessDeniedHttpError(operation.securityPostDenormalizeMessage);
    }
    return object;
  }
}
