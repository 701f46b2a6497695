import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AccessDeniedHttpError } from '../../http/errors';
import { baseContext, type PostDenormalizeContext, type SecurityContext } from '../../security/RouteSecurity';
import { parseCollectionQuery } from '../query/collectionQuery';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import type { SecurityRule } from '../resource/operations';
import { type ApiPaths, type RequestBase, requestBase } from '../serializer/ApiContext';
import { collectionHal, itemHal } from '../serializer/hal';
import { itemIri } from '../serializer/iri';
import { collectionJsonLd, itemJsonLdHead } from '../serializer/jsonld';
import { normalizeItem } from '../serializer/normalize';
import { linkHeader, pageLinks } from '../serializer/pagination';
import type { QueryLogEntry, StateContext, StoredItem } from '../state/types';
import type { ProcessorData } from '../state/Processor';
import type { UriVariables } from '../state/Provider';
import { providedItem, providedPage } from '../state/providedState';
import { RelationNotFoundError } from '../state/storeProcessor';
import type { SecurityUser } from '../../security/SecurityUser';
import { mergePatch } from '../write/mergePatch';
import { toStoredData } from '../write/inputData';
import { denormalizationError, itemNotFoundForIri, updateNotAllowed } from '../write/denormalizationError';
import { ConflictError, ItemNotFoundError, PreconditionFailedError } from './ApiErrors';
import type { ApiRequestState } from './ApiRequestState';
import './ApiRequestState';
import { etagOf, ifMatch, notModified } from './etag';
import { negotiateFormat, type ApiFormat } from './negotiation';
import { apiResponseHeaders, sendFormatted, sendJsonText } from './respond';
import { HttpError } from '../../http/errors';
import type { HttpCache } from '../httpCache/HttpCache';

/**
 * How many times a write without `If-Match` re-reads and retries after a concurrent change. Each
 * conflict means another writer's change was stored, so N clients writing one item at once all
 * get through within N attempts: 16 covers 16 at once (on PostgreSQL six concurrent PATCHes
 * exhausted 4); more than that is a 409 asking the client to try again.
 */
export const WRITE_ATTEMPTS = 16;

const MERGE_PATCH = 'application/merge-patch+json';
const NOT_LOGGED: StateContext = Object.freeze({});
const WRITE_TYPES = ['application/json', 'application/ld+json', 'application/hal+json'];

/** Runs a security rule: a role (or attribute) for `isGranted`, or a function. */
export async function granted<C extends SecurityContext | PostDenormalizeContext>(
  rule: SecurityRule<C>, context: C,
): Promise<boolean> {
  return typeof rule === 'string' ? context.isGranted(rule) : (await rule(context)) === true;
}

function unsupported(type: string | undefined, expected: readonly string[]): HttpError {
  return new HttpError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE',
    `Unsupported Media Type: expected ${expected.join(' or ')}, got "${(type ?? 'none').slice(0, 100)}".`);
}

/**
 * One resource's operations on one route (API Platform's read → security → deserialize →
 * securityPostDenormalize → validate → write → serialize chain), split into the kernel's route
 * options: `provider` (negotiation and read), `security`, `denormalize`,
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
    private readonly context?: (req: Request) => StateContext,
    private readonly httpCache?: HttpCache,
  ) {
    this.acceptPatch = resource.operations.some((op) => op.kind === 'Patch') ? MERGE_PATCH : undefined;
  }

  /** The operation the request's method selects (HEAD is GET). */
  operationOf(req: Request): ResolvedOperation {
    const method = req.kernel?.method ?? req.method;
    const wanted = method === 'HEAD' ? 'GET' : method;
    return this.operations.find((op) => op.method === wanted) ?? this.operations[0];
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
   * The route's placeholders as the operation's URI variables: `id` an integer (null when the
   * value is not one: no item can have it), the others strings.
   */
  uriVariables(req: Request): UriVariables | null {
    const out: Record<string, string | number> = {};
    for (const [name, value] of Object.entries(req.params as Record<string, string | undefined>)) {
      if (value === undefined) continue;
      if (name !== 'id') out[name] = value;
      else if (/^[1-9]\d{0,14}$/.test(value)) out.id = Number(value);
      else return null;
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
    state.format = negotiateFormat(req, operation.method === 'GET');
    // a browser gets the documentation page for an item that exists, and a 404 for one that
    // does not (API Platform's SwaggerUiProvider reads the item first)
    if (!operation.item) return null;
    const variables = this.uriVariables(req);
    const provided = variables === null ? null
      : await operation.provider!.provide(operation, variables, this.contextOf(req));
    const item = providedItem(provided, operation, 'provider');
    if (item === null) throw new ItemNotFoundError(this.resource.shortName, String(req.params.id ?? ''));
    state.item = item;
    return this.representation(item, requestBase(req), true);
  };

  /** The item as the client sees it (writeOnly properties only for security checks). */
  representation(item: StoredItem, base: RequestBase, withWriteOnly = false): Record<string, unknown> {
    const out = normalizeItem(this.resource, item, this.paths, base);
    if (!withWriteOnly) return out;
    for (const p of this.resource.metadata.properties) if (p.writeOnly) out[p.name] = item.data[p.name] ?? null;
    return out;
  }

  /** The `security` route option, when one of the route's operations has a rule. */
  security(): ((context: SecurityContext) => Promise<boolean>) | undefined {
    if (!this.operations.some((op) => op.security !== undefined)) return undefined;
    return async (context) => {
      const rule = this.operationOf(context.request).security;
      return rule === undefined ? true : granted(rule, context);
    };
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
   * The `denormalize` route option: the new object from the body. POST and PUT take
   * `application/json` or `application/ld+json` (415 otherwise) and replace every property;
   * PATCH takes only `application/merge-patch+json` (RFC 7386) merged into the stored item.
   * @throws HttpError 415 for another media type, 400 for a body that is not a JSON object or
   *   that the resource cannot read (`denormalizationError`: a wrong type, a bad IRI; a JSON-LD
   *   POST with an `@id`)
   */
  readonly denormalize = (req: Request, previous: object | null): object => {
    const operation = this.operationOf(req);
    if (!operation.deserialize) return { ...(previous ?? {}) };
    const type = req.headers['content-type'];
    const patch = operation.kind === 'Patch';
    if (patch ? !req.is(MERGE_PATCH) : !req.is(WRITE_TYPES)) {
      throw unsupported(type, patch ? [MERGE_PATCH] : WRITE_TYPES.slice(0, 2));
    }
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError('ERR_HTTP_BAD_REQUEST', 'Expected a JSON object body.');
    }
    if (!patch && previous === null && '@id' in body && req.is('application/ld+json')) throw updateNotAllowed();
    // a Post on an item (a custom operation on {id}) populates it, as API Platform's object_to_populate
    const object = patch ? mergePatch(previous ?? {}, body) as Record<string, unknown>
      : operation.kind === 'Post' && previous !== null ? { ...previous, ...(body as Record<string, unknown>) }
        : { ...(body as Record<string, unknown>) };
    const error = denormalizationError(this.resource, object, this.paths.prefixes, requestBase(req).baseUrl);
    if (error !== undefined) throw error;
    if (patch) return object;
    if (previous !== null) object.id = (previous as { id?: unknown }).id;
    else delete object.id;
    return object;
  };

  /** The controller: runs the operation and writes the response. */
  readonly controller = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const state = req.api!;
    if (state.format === 'html') return this.documentationPage(req, res, next) as void;
    const format = state.format ?? 'jsonld';
    const operation = state.operation!;
    if (operation.kind === 'GetCollection') return this.getCollection(req, res, format);
    if (operation.method === 'GET') return this.getItem(req, res, format);
    return this.write(req, res, format);
  };

  private sendItem(
    req: Request, res: Response, format: ApiFormat, item: StoredItem, status: number, etag = etagOf(item),
  ): void {
    const base = requestBase(req);
    res.setHeader('ETag', etag);
    // API Platform's RespondProcessor: the item's IRI on every response that carries an item
    res.setHeader('Content-Location', itemIri(this.resource.routePrefix, item.id, base.baseUrl));
    if (this.acceptPatch !== undefined) res.setHeader('Accept-Patch', this.acceptPatch);
    const body = format === 'hal' ? itemHal(this.resource, this.representation(item, base), base)
      : format === 'json' ? this.representation(item, base) : this.jsonLd(item, base, true);
    sendFormatted(res, format, status, body);
  }

  /** The item in JSON-LD: `@context` (a document of its own), `@id`, `@type`, then its representation. */
  private jsonLd(item: StoredItem, base: RequestBase, withContext: boolean): Record<string, unknown> {
    const head = itemJsonLdHead(this.resource, item.id, this.paths, base, withContext);
    return normalizeItem(this.resource, item, this.paths, base, head);
  }

  /** The collection members in a format: JSON-LD's with their `@id` and `@type`. */
  private members(items: readonly StoredItem[], format: ApiFormat, base: RequestBase): Record<string, unknown>[] {
    if (format !== 'jsonld') return items.map((item) => this.representation(item, base));
    return items.map((item) => this.jsonLd(item, base, false));
  }

  private async getCollection(req: Request, res: Response, format: ApiFormat): Promise<void> {
    const raw = req.kernel?.uri?.queryString ?? '';
    const operation = req.api!.operation!;
    const query = parseCollectionQuery(raw, this.resource, {
      prefixes: this.paths.prefixes, strict: operation.strictQueryParameterValidation,
    });
    const provided = await operation.provider!.provide(operation, this.uriVariables(req) ?? {}, {
      ...this.contextOf(req), query,
    });
    const page = providedPage(provided, operation, query, this.resource.pagination.enabled);
    req.api!.items = page.items;
    const base = requestBase(req);
    const path = `${base.baseUrl}${operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent(String(req.params[name] ?? '')))}`;
    const links = pageLinks(path, raw, this.resource, query, page);
    const members = this.members(page.items, format, base);
    if (format === 'json') {
      const link = linkHeader(links);
      if (link !== '') res.append('Link', link);
      return sendFormatted(res, format, 200, members);
    }
    if (format === 'hal') {
      const size = this.resource.pagination.enabled ? query.itemsPerPage : undefined;
      return sendFormatted(res, format, 200, collectionHal(this.resource, members, page, links, base, size));
    }
    sendJsonText(res, format, 200, collectionJsonLd(this.resource, members, page, links, path, this.paths, base));
  }

  private getItem(req: Request, res: Response, format: ApiFormat): void {
    const item = req.api!.item!;
    const etag = etagOf(item);
    if (notModified(req, etag)) {
      res.status(304).vary('Accept').setHeader('ETag', etag);
      res.end();
      return;
    }
    this.sendItem(req, res, format, item, 200, etag);
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
    return toStoredData(this.resource, object, this.paths.prefixes, requestBase(req).baseUrl, req.locale);
  }

  /**
   * A write operation (Post, Put, Patch, Delete, a custom one): the processor with the data, the
   * URI variables and the item read (`previousData`). When the store finds that another client
   * wrote the item first (a 412 with the current item) and the client sent no `If-Match`, the
   * operation's checks run again on the current version and the processor is called again.
   */
  private async write(req: Request, res: Response, format: ApiFormat): Promise<void> {
    const operation = req.api!.operation!;
    let previous = req.api!.item;
    const strict = previous !== undefined && this.expectedVersion(req, previous);
    let object = (req.denormalized?.object ?? {}) as Record<string, unknown>;
    const variables = this.uriVariables(req) ?? {};
    for (let attempt = 1; ; attempt++) {
      const data = this.dataOf(req, operation, object, previous);
      const context = { ...this.contextOf(req), ...(previous !== undefined ? { previousData: previous } : {}) };
      let result: unknown;
      try {
        result = await operation.processor!.process(data, operation, variables, context);
      } catch (error) {
        if (error instanceof RelationNotFoundError) throw itemNotFoundForIri(object[error.property]);
        const current = error instanceof PreconditionFailedError ? error.current : undefined;
        if (current === undefined || previous === undefined || strict) throw error;
        if (attempt >= WRITE_ATTEMPTS) {
          const verb = operation.kind === 'Delete' ? 'deleted' : 'written';
          throw new ConflictError(`Conflict: the item kept changing while it was ${verb}; try again.`);
        }
        // Another client wrote first: redo the change on its version (PUT and PATCH rebuild the
        // object from the body, and the checks see the new stored object), never overwrite it blindly.
        previous = current;
        object = await this.recheck(req, operation, current, requestBase(req));
        continue;
      }
      const written = providedItem(result, operation, 'processor');
      await this.httpCache?.invalidate(req, this.resource, previous ?? null, written);
      return this.answer(req, res, format, operation, written);
    }
  }

  /**
   * The answer of a write: the item (201 with `Location` for a Post, else 200, or the operation's
   * status), else 204.
   */
  private answer(
    req: Request, res: Response, format: ApiFormat, operation: ResolvedOperation, item: StoredItem | null,
  ): void {
    if (item === null) {
      // API Platform's RespondProcessor sets Accept-Patch on every operation but the collection's
      if (this.acceptPatch !== undefined) res.setHeader('Accept-Patch', this.acceptPatch);
      res.status(204).vary('Accept').end();
      return;
    }
    const status = operation.status ?? (operation.kind === 'Post' ? 201 : 200);
    if (status === 201) {
      const location = itemIri(this.resource.routePrefix, item.id, requestBase(req).baseUrl);
      res.setHeader('Location', location);
    }
    this.sendItem(req, res, format, item, status);
  }

  /**
   * 412 when `If-Match` names another version.
   * @returns whether the client sent `If-Match` (a write that finds another version is then a 412, not a retry)
   */
  private expectedVersion(req: Request, item: StoredItem): boolean {
    const match = ifMatch(req, etagOf(item));
    if (match === false) throw new PreconditionFailedError(etagOf(item));
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
    const stored = this.representation(item, base, true);
    const { security, securityPostDenormalize } = operation;
    if (security !== undefined && !(await granted(security, { ...baseContext(req), object: { ...stored } }))) {
      throw new AccessDeniedHttpError(operation.securityMessage);
    }
    if (operation.kind === 'Delete') return {};
    const object = this.denormalize(req, { ...stored }) as Record<string, unknown>;
    const previousObject = { ...stored };
    if (securityPostDenormalize !== undefined
      && !(await granted(securityPostDenormalize, { ...baseContext(req), object, previousObject }))) {
      throw new AccessDeniedHttpError(operation.securityPostDenormalizeMessage);
    }
    return object;
  }
}
