import { z } from 'zod';
import { propertiesOf } from '../schema/metadata';
import type { Resource } from './defineResource';

/**
 * Input and output DTOs (API Platform's operation `input` and `output` classes): a zod object
 * that an operation reads its body as, or writes its result as, in place of the resource's
 * schema. Each is resolved into a {@link Resource} that shares the resource's short name, IRIs
 * and identifier, so every format reads and writes it as it does a resource: an output is sent
 * with the resource's `@type` and the item's `@id` (as API Platform's JSON-LD normalizer writes
 * an output class), an input is decoded and validated as a body is.
 * @module
 */

/** An operation's `input` or `output` as declared: a zod object, or false for none. */
export type DtoOption = z.ZodObject | false;

/** The option schema of `input` and `output`. */
export const dtoOptionSchema = z.custom<DtoOption>((v) => v === false || v instanceof z.ZodObject, {
  error: 'expected a zod object (z.object({...})) or false',
});

/**
 * The resource a DTO is read or written as.
 * @param owner - the resource the operation belongs to (short name, IRIs, identifier, pagination)
 * @param schema - the DTO's zod object; its `id`, if any, is not a property (the item's id is)
 * @param option - the option path for messages, e.g. `resources.Book.operations[3].output`
 * @returns a frozen resource without operations, filters or property rules
 * @throws KernelConfigError naming a DTO property whose schema is not a supported kind
 */
export function dtoResource(
  owner: Omit<Resource, 'operations' | 'provider' | 'processor'>, schema: z.ZodObject, option: string,
): Resource {
  const properties = propertiesOf(schema.shape, option);
  return Object.freeze({
    shortName: owner.shortName,
    // API Platform's operation keeps its resource's types: the DTO's @type is the resource's
    ...(owner.types !== undefined ? { types: owner.types } : {}),
    schema,
    metadata: Object.freeze({ ...owner.metadata, properties: Object.freeze(properties) }),
    operations: Object.freeze([]),
    filters: Object.freeze([]),
    filterDeclarations: Object.freeze([]),
    pagination: owner.pagination,
    identifier: owner.identifier,
    routePrefix: owner.routePrefix,
    description: owner.description,
    propertySecurity: Object.freeze({}),
  });
}
