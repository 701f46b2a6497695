import type { Request } from 'express';
import { AccessDeniedHttpError, HttpError } from '../../http/errors';
import { baseContext } from '../../security/RouteSecurity';
import type { Format } from '../format/Format';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import { type ApiPaths, type RequestBase } from '../serializer/ApiContext';
import { MAX_EMBEDDED_LEVELS } from '../serializer/embedding';
import { idFromIri } from '../serializer/iri';
import { inGroups, linksTo, type SerializationGroups } from '../serializer/serializationContext';
import { parseItemId } from '../state/identifier';
import type { ItemId, PropertyMetadata, StoredItem } from '../state/types';
import { denormalizationError, itemNotFoundForIri } from '../write/denormalizationError';
import { markNestedDocument, nestedDocumentOf } from '../write/embeddedData';
import { fullRepresentation, granted, PropertyAccess } from './PropertyAccess';

/**
 * Nested documents in a body, for writable embedded relations (API Platform 3.4's
 * `AbstractItemNormalizer::denormalizeRelation`): a relation whose target resource has a property
 * in the operation's denormalization groups (`SerializerPropertyMetadataFactory`'s writable link)
 * takes, besides an IRI, a nested document, to-one or as a to-many relation's element. Without
 * `@id` (JSON: `id`) it creates a related item; with one it updates that item (API Platform sets
 * `api_allow_update` for writable links, whatever the parent's method), only the properties it
 * sends. The nested document is read as its resource reads bodies: the same denormalization
 * groups decide which of its properties count (others are ignored), its properties' `security`
 * and `securityPostDenormalize` apply, its own relations follow the same rule (down to
 * {@link MAX_EMBEDDED_LEVELS} levels), and its wrong types are the same 400s.
 *
 * Unlike API Platform (which checks no operation of the related resource), a nested document
 * may do only what a direct request to its resource may: a creation needs the resource's `Post`
 * and passes its `security` (with `object` null) and `securityPostDenormalize`; an update needs
 * its `Patch` (else `Put`) and passes their rules on the stored item. A denial is the operation's
 * 403. The related resource must be kept in the parent's store (the writes are one transaction).
 * @module
 */

type Doc = Record<string, unknown>;

function badRequest(message: string): HttpError {
  return new HttpError('ERR_HTTP_BAD_REQUEST', message);
}

function isDocument(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && nestedDocumentOf(value) === undefined;
}

/** A body's value without the nested documents accepted in it (what the type checks read). */
export function withoutNestedDocuments(object: Readonly<Doc>): Doc {
  const out: Doc = {};
  for (const [name, value] of Object.entries(object)) {
    if (nestedDocumentOf(value) !== undefined) continue;
    out[name] = Array.isArray(value) ? (value as unknown[]).filter((v) => nestedDocumentOf(v) === undefined) : value;
  }
  return out;
}

/** The nested documents of one request's body. */
export class NestedDocuments {
  private readonly access: PropertyAccess;

  /**
   * @param req - the request (its user for the security rules)
   * @param paths - the API's paths and resources
   * @param base - the request's base URL
   * @param groups - the operation's denormalization context
   * @param format - the format the body was read in (its `nestedDocumentId`)
   * @param read - reads a related item by id (its resource's Get provider), or null
   */
  constructor(
    private readonly req: Request,
    private readonly paths: ApiPaths,
    private readonly base: RequestBase,
    private readonly groups: SerializationGroups,
    private readonly format: Format,
    private readonly read: (resource: Resource, id: ItemId) => Promise<StoredItem | null>,
  ) {
    this.access = new PropertyAccess(req, paths);
  }

  /**
   * Replaces, in `object` (the new object of an item of `resource`), each nested document of a
   * writable link by its denormalized object (marked for `toStoredDataWithEmbedded`); those of a
   * relation that is not a writable link are left for the type checks' 400 (`Nested documents for
   * attribute "author" are not allowed. Use IRIs instead.`).
   * @param object - changed in place
   * @param level - how many nested documents are above `object`
   * @throws HttpError 400 for a document the format does not read, a target in another store, an
   *   `@id` that is no IRI of the target or names no item, a nested document's wrong types, a
   *   resource without the operation the document needs, nesting below {@link MAX_EMBEDDED_LEVELS};
   *   AccessDeniedHttpError (403) when the related resource's operation denies
   */
  async accept(resource: Resource, object: Doc, level = 0): Promise<void> {
    for (const p of resource.metadata.properties) {
      if (p.readOnly || p.relation === undefined) continue;
      const value = object[p.name];
      if (p.kind === 'relation' && isDocument(value)) {
        object[p.name] = await this.document(resource, p, value, level);
      } else if (p.kind === 'relations' && Array.isArray(value) && value.some(isDocument)) {
        const out: unknown[] = [];
        for (const v of value as unknown[]) out.push(isDocument(v) ? await this.document(resource, p, v, level) : v);
        object[p.name] = out;
      }
    }
  }

  private async document(resource: Resource, p: PropertyMetadata, sent: Doc, level: number): Promise<unknown> {
    const target = this.paths.resources.get(p.relation ?? '');
    if (target === undefined || !linksTo(target.metadata.properties, this.groups)) return sent;
    const idKey = this.format.nestedDocumentId;
    if (idKey === undefined) {
      throw badRequest(`Nested documents for attribute "${p.name}" are not read in the ${this.format.name} format: `
        + 'send IRIs, or the body as JSON-LD or JSON.');
    }
    if (target.processor === undefined || target.processor !== resource.processor) {
      throw badRequest(`Nested documents for attribute "${p.name}" cannot be written: ${target.shortName} is not `
        + `kept in the store of ${resource.shortName}.`);
    }
    if (level >= MAX_EMBEDDED_LEVELS) {
      const most = `at most ${MAX_EMBEDDED_LEVELS} levels`;
      throw badRequest(`Nested documents for attribute "${p.name}" are too deep: ${most}.`);
    }
    const ref = sent[idKey];
    const previous = ref === undefined || ref === null ? null : await this.named(target, ref, idKey);
    const previousObject = previous === null ? null : fullRepresentation(target, previous, this.paths, this.base);
    const operation = this.operationFor(resource, p, target, previous !== null);
    const context = baseContext(this.req);
    const stored = previousObject === null ? null : { ...previousObject };
    if (operation.security !== undefined && !(await granted(operation.security, { ...context, object: stored }))) {
      throw new AccessDeniedHttpError(operation.securityMessage);
    }
    // the properties in the denormalization groups count (API Platform ignores the others, as unknown ones)
    const body: Doc = {};
    for (const q of target.metadata.properties) {
      if (!q.readOnly && inGroups(q, this.groups) && Object.prototype.hasOwnProperty.call(sent, q.name)) {
        body[q.name] = sent[q.name];
      }
    }
    const object: Doc = previousObject === null ? { ...body } : { ...previousObject, ...body };
    await this.access.ignoreDenied(target, object, previousObject);
    await this.accept(target, object, level + 1);
    const error = denormalizationError(
      target, withoutNestedDocuments(object), this.paths.prefixes, this.base.baseUrl, this.paths.identifiers,
    );
    if (error !== undefined) throw error;
    await this.access.revertDenied(target, object, previousObject, Object.keys(body));
    const rule = operation.securityPostDenormalize;
    if (rule !== undefined && !(await granted(rule, { ...context, object: { ...object }, previousObject }))) {
      throw new AccessDeniedHttpError(operation.securityPostDenormalizeMessage);
    }
    return markNestedDocument(object, {
      resource: target, previous, ...(previous !== null ? { reference: String(ref) } : {}),
    });
  }

  /**
   * The stored item a nested document's `@id` names: an IRI of the target (JSON also takes the
   * identifier alone, as API Platform's plain `ItemNormalizer` does).
   * @throws HttpError 400 `Invalid IRI "…".`, or `Item not found for "…".` when no item has it
   */
  private async named(target: Resource, ref: unknown, idKey: string): Promise<StoredItem> {
    const text = typeof ref === 'string' || typeof ref === 'number' ? String(ref) : undefined;
    const type = target.metadata.identifier;
    const id = text === undefined ? null
      : idFromIri(text, target.routePrefix, this.base.baseUrl, type)
        ?? (idKey === 'id' ? parseItemId(type, text) : null);
    if (id === null) throw badRequest(`Invalid IRI "${(text ?? JSON.stringify(ref) ?? '').slice(0, 200)}".`);
    const item = await this.read(target, id);
    if (item === null) throw itemNotFoundForIri(text);
    return item;
  }

  /**
   * The operation of the related resource whose rules a nested document passes: its `Post` for a
   * creation, its `Patch` (else `Put`) for an update.
   * @throws HttpError 400 when it has none (a direct request would be a 405)
   */
  private operationFor(resource: Resource, p: PropertyMetadata, target: Resource, update: boolean): ResolvedOperation {
    if (!update && target.identifier.type === 'string') {
      throw badRequest(`Nested documents for attribute "${p.name}" of ${resource.shortName} cannot create a `
        + `${target.shortName}: its id is the client's; create it first and send its IRI.`);
    }
    const kinds = update ? ['Patch', 'Put'] : ['Post'];
    for (const kind of kinds) {
      const found = target.operations.find((op) => op.kind === kind && op.item === update);
      if (found !== undefined) return found;
    }
    const what = update ? `update a ${target.shortName}: it has no Patch or Put operation`
      : `create a ${target.shortName}: it has no Post operation`;
    throw badRequest(`Nested documents for attribute "${p.name}" of ${resource.shortName} cannot ${what}.`);
  }
}
