import type { z } from 'zod';

/**
 * The parts of a zod 4 schema's internals (`_zod.def`) the API layer reads to know a property's
 * kind, in one place so a zod upgrade changes one file.
 * @module
 */

/** What a schema's definition says, as far as the kinds read it. */
export interface ZodDef {
  /** zod's type name: `string`, `number`, `boolean`, `enum`, `array`, `object`, `record`, `optional`, … */
  readonly type: string;
  /** A string format (`date`, `datetime`, `uuid`) or a number format (`safeint`, `int32`). */
  readonly format?: string;
  /** The wrapped schema of `optional`, `nullable`, `default`, `readonly`. */
  readonly innerType?: z.ZodType;
}

/** The definition of a schema. */
export function zodDef(schema: z.ZodType): ZodDef {
  return (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
}

/** Whether a number schema accepts integers only (`z.int()`, `z.number().int()`). */
export function isIntegerSchema(schema: z.ZodType): boolean {
  const format = zodDef(schema).format;
  return (schema as unknown as { isInt?: boolean }).isInt === true || (format !== undefined && /int/.test(format));
}

/** The values of an enum schema. */
export function enumOptions(schema: z.ZodType): readonly unknown[] {
  return (schema as unknown as { options: unknown[] }).options;
}

/** The fields of an object schema (`z.object({...}).shape`). */
export function objectShape(schema: z.ZodType): Readonly<Record<string, z.ZodType>> {
  return (schema as unknown as { shape: Record<string, z.ZodType> }).shape;
}
