import { BadRequestHttpError } from '../../http/errors';
import type { ItemId, ResourceMetadata, StateContext, StateProcessor, StoredItem } from './types';

/**
 * Writable embedded relations in the data a processor receives (API Platform's writable links:
 * `AbstractItemNormalizer::denormalizeRelation` denormalizes a nested document into a new or an
 * existing related object, which Doctrine's cascade persists with its parent in one flush). Here
 * a nested document, validated, is an {@link EmbeddedWrite} in place of the related id (a to-one
 * relation's value, or an element of a to-many one); the store's processor writes each one first
 * ({@link writeEmbedded}), in the same unit (transaction) as the parent, and stores the parent
 * with the ids they got.
 * @module
 */

/** One nested document to write before the item that refers to it. */
export class EmbeddedWrite {
  /** The item as written, once {@link EmbeddedWrite.write} has stored it. */
  written: StoredItem | undefined;

  /**
   * @param shortName - the related resource's short name (`Author`)
   * @param metadata - the related resource's metadata (where the store writes)
   * @param data - the related item's data, validated, in the store's shapes; its own relations may
   *   hold EmbeddedWrites too
   * @param path - where the document was in the body (`author`, `tags[1]`, `author.publisher`)
   * @param previous - the stored item the document names (its `@id`): an update; undefined: a creation
   * @param reference - what the body named the stored item by (its IRI), for messages
   */
  constructor(
    readonly shortName: string,
    readonly metadata: ResourceMetadata,
    readonly data: Readonly<Record<string, unknown>>,
    readonly path: string,
    readonly previous?: StoredItem,
    readonly reference?: string,
  ) {}

  /**
   * Writes the related item (its own embedded writes first) through `store`: creates it, or
   * replaces the stored item's properties (no version check: the parent's write is the one the
   * client's `If-Match` is about, as API Platform locks only the main object).
   * @param store - the store, or the unit of an atomic one ({@link AtomicStateProcessor.atomically})
   * @returns the id the item has
   * @throws BadRequestHttpError (400) when the item named is gone (`Item not found for "<IRI>".`)
   *   or a relation of the document names no item; StorageUnavailableError (503)
   */
  async write(store: StateProcessor, context?: StateContext): Promise<ItemId> {
    const data = await writeEmbedded(store, this.data, context);
    const outcome = this.previous === undefined
      ? await store.create(this.metadata, data, context)
      : await store.replace(this.metadata, this.previous.id, data, undefined, context);
    switch (outcome.status) {
      case 'ok':
        this.written = outcome.item;
        return outcome.item.id;
      case 'invalid_relation':
        throw new BadRequestHttpError(`Item not found for the relation "${this.path}.${outcome.property}".`);
      default:
        // not_found (deleted meanwhile); duplicate and conflict cannot happen without an id or a version
        throw new BadRequestHttpError(`Item not found for "${(this.reference ?? this.path).slice(0, 200)}".`);
    }
  }
}

/** The embedded writes of `data` (top level: a to-one relation's value, a to-many relation's elements). */
export function embeddedWritesOf(data: Readonly<Record<string, unknown>>): EmbeddedWrite[] {
  const out: EmbeddedWrite[] = [];
  for (const value of Object.values(data)) {
    if (value instanceof EmbeddedWrite) out.push(value);
    else if (Array.isArray(value)) for (const v of value as unknown[]) if (v instanceof EmbeddedWrite) out.push(v);
  }
  return out;
}

/**
 * Every embedded write of `data`, nested ones included, those below first (the order they are written in).
 * @returns an empty list when `data` has none
 */
export function allEmbeddedWrites(data: Readonly<Record<string, unknown>>): EmbeddedWrite[] {
  return embeddedWritesOf(data).flatMap((w) => [...allEmbeddedWrites(w.data), w]);
}

/**
 * Writes the embedded writes of `data` through `store` (each one's own first, in the order of
 * the properties), and returns `data` with the ids they got in their place.
 * @param store - the store, or the unit of an atomic one: the caller makes the parent's write
 *   and these one unit
 * @returns `data` itself when it has none
 * @throws what {@link EmbeddedWrite.write} throws
 */
export async function writeEmbedded(
  store: StateProcessor, data: Readonly<Record<string, unknown>>, context?: StateContext,
): Promise<Readonly<Record<string, unknown>>> {
  if (embeddedWritesOf(data).length === 0) return data;
  const out: Record<string, unknown> = { ...data };
  for (const [name, value] of Object.entries(data)) {
    if (value instanceof EmbeddedWrite) {
      out[name] = await value.write(store, context);
    } else if (Array.isArray(value) && value.some((v) => v instanceof EmbeddedWrite)) {
      const ids: unknown[] = [];
      for (const v of value as unknown[]) ids.push(v instanceof EmbeddedWrite ? await v.write(store, context) : v);
      out[name] = ids;
    }
  }
  return out;
}
