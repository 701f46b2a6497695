import { z } from 'zod';
import { nonEmptyString, optionsObject } from '../../config/optionSchemas';
import { unwrapSchema } from '../schema/metadata';
import { zodDef } from '../schema/zodDef';

/**
 * Validation groups (Symfony's constraint `groups`, API Platform's operation `validationContext`):
 * a property's constraints may belong to named groups, and an operation validates only the
 * groups it names. A property not marked with {@link validationGroups} is in `Default` (and in the
 * group named after its resource, `Book`, as Symfony puts a class's `Default` constraints).
 * Outside the active groups a property keeps its type check (a string stays a string, as
 * Symfony's denormalizer checks types before any constraint), but none of its constraints:
 * not its zod checks (`min`, `max`, `regex`, `refine`…) and not its requiredness (it may be
 * absent or null).
 * @module
 */

/** The group of the constraints no group was given for (Symfony's `Constraint::DEFAULT_GROUP`). */
export const DEFAULT_GROUP = 'Default';

/** The `.meta()` key of a property's validation groups. */
export const VALIDATION_GROUPS_META = 'validationGroups';

/**
 * Puts a property's constraints in validation groups (Symfony's `#[Assert\NotNull(groups: ['a'])]`):
 * they are checked only by operations whose `validationContext.groups` name one of them (by
 * default only `Default` is validated, so a property marked with other groups alone is then
 * checked for its type only). Its column accepts null, since a write outside the groups may
 * leave it empty.
 * @param schema - the property's schema, constraints included, e.g. `z.string().min(10)`
 * @param names - the groups, e.g. `['publish']`; add `'Default'` to keep them checked by default too
 * @returns the same schema with `{ validationGroups: names }` metadata
 * @throws TypeError when `names` is empty or holds an empty string
 * @example defineResource({ shortName: 'Book', schema: z.object({
 *   title: z.string().min(1), summary: validationGroups(z.string().min(10), ['publish']) }), … })
 */
export function validationGroups<T extends z.ZodType>(schema: T, names: readonly string[]): T {
  if (names.length === 0 || names.some((n) => typeof n !== 'string' || n === '')) {
    const got = JSON.stringify(names);
    throw new TypeError(`validationGroups: expected non-empty group names such as ['publish'], got ${got}`);
  }
  return schema.meta({ ...(schema.meta() ?? {}), [VALIDATION_GROUPS_META]: [...new Set(names)] });
}

/** A sequence of groups (Symfony's `GroupSequence`): each step is validated only if the ones before it passed. */
export interface GroupSequence {
  /** The steps in order; a step is a group or several groups validated together. */
  readonly sequence: readonly (string | readonly string[])[];
}

/**
 * Symfony's `GroupSequence`, as an operation's `validationContext.groups`: the first step with a
 * violation is the one reported, the later steps are not checked.
 * @param steps - e.g. `['b', 'a']`: `b` first, `a` only when `b` passed
 * @returns a frozen {@link GroupSequence}
 * @example Post({ validationContext: { groups: GroupSequence(['b', 'a']) } })
 */
export function GroupSequence(steps: readonly (string | readonly string[])[]): GroupSequence {
  return Object.freeze({ sequence: Object.freeze([...steps]) });
}

/** The groups of one validation: names, or a {@link GroupSequence}. */
export type ValidationGroupList = readonly string[] | GroupSequence;

/**
 * An operation's `validationContext` (API Platform's operation option of that name).
 * @example { groups: ['Default', 'publish'] }
 * @example { groups: (book) => book.published === true ? ['Default', 'publish'] : ['Default'] }
 */
export interface ValidationContextOptions {
  /**
   * The groups validated: names, a {@link GroupSequence}, or a function of the object being
   * written (the client's properties, as validated) returning either (API Platform's callable
   * `validation_groups`).
   * @default ['Default']
   */
  groups?: ValidationGroupList | ((object: Readonly<Record<string, unknown>>) => ValidationGroupList);
}

const GROUPS = 'expected group names such as ["Default", "publish"], GroupSequence([…]) '
  + 'or a function (object) => groups';

const groupList = z.union([
  z.array(nonEmptyString).readonly(),
  z.custom<GroupSequence>((v) => typeof v === 'object' && v !== null && Array.isArray((v as GroupSequence).sequence)),
]);

/** The option schema of {@link ValidationContextOptions}. */
export const validationContextSchema = optionsObject({
  groups: z.union([groupList, z.custom<(object: Readonly<Record<string, unknown>>) => ValidationGroupList>(
    (v) => typeof v === 'function')], { error: GROUPS }).optional(),
});

/** Validation in the `Default` group alone: one step. */
export const DEFAULT_STEPS: readonly (readonly string[])[] = Object.freeze([Object.freeze([DEFAULT_GROUP])]);

/**
 * The steps one validation runs: one step of groups, or a sequence's steps.
 * @param context - the operation's validation context (undefined: `Default`)
 * @param object - the object being written (what a function of it reads)
 * @returns the steps in order, each a non-empty list of group names
 * @throws TypeError when a function returns something else than groups (a programming error)
 */
export function validationSteps(
  context: ValidationContextOptions | undefined, object: Readonly<Record<string, unknown>>,
): readonly (readonly string[])[] {
  const declared = context?.groups;
  if (declared === undefined) return DEFAULT_STEPS;
  const groups = typeof declared === 'function' ? declared(object) : declared;
  const parsed = groupList.safeParse(groups);
  if (!parsed.success) throw new TypeError(`validationContext.groups returned ${JSON.stringify(groups)}: ${GROUPS}`);
  if (!('sequence' in groups)) return [groups];
  return groups.sequence.map((step) => (typeof step === 'string' ? [step] : step));
}

/** The groups a property's constraints are in: its own, else `Default`; `Default` includes the resource's name. */
function groupsOf(schema: z.ZodType, shortName: string): readonly string[] {
  const names = unwrapSchema(schema).meta.validationGroups ?? [DEFAULT_GROUP];
  return names.includes(DEFAULT_GROUP) ? [...names, shortName] : names;
}

/** Whether a property carries its own groups (its column then accepts null). */
export function hasValidationGroups(schema: z.ZodType): boolean {
  return Array.isArray(unwrapSchema(schema).meta.validationGroups);
}

/** A schema's type alone: its checks removed at every wrapper, null and absence accepted. */
function typeOnly(schema: z.ZodType): z.ZodType {
  const strip = (s: z.ZodType): z.ZodType => {
    const def = zodDef(s) as unknown as Record<string, unknown> & { innerType?: z.ZodType };
    const next = { ...def, checks: [], ...(def.innerType !== undefined ? { innerType: strip(def.innerType) } : {}) };
    return s.clone(next as unknown as typeof s._zod.def);
  };
  return strip(schema).nullable().optional();
}

const BY_GROUPS = new WeakMap<z.ZodObject, Map<string, z.ZodObject>>();

/** How many group combinations one schema keeps compiled (a function may return any). */
const CACHED_COMBINATIONS = 32;

/**
 * The object schema that checks the constraints of the active groups only: a property whose
 * groups meet `active` keeps its schema, another keeps its type alone.
 * @param schema - the object schema of the writable properties
 * @param shortName - the resource's short name (a group that names `Default`'s constraints)
 * @param active - the groups validated
 * @returns `schema` itself when every property is in an active group
 */
export function schemaForGroups(schema: z.ZodObject, shortName: string, active: readonly string[]): z.ZodObject {
  const key = [...new Set(active)].sort().join('\u0000');
  let compiled = BY_GROUPS.get(schema);
  const cached = compiled?.get(key);
  if (cached !== undefined) return cached;
  const wanted = new Set(active);
  const shape = schema.shape as Record<string, z.ZodType>;
  const outside: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(shape)) {
    if (!groupsOf(property, shortName).some((g) => wanted.has(g))) outside[name] = typeOnly(property);
  }
  const out = Object.keys(outside).length === 0 ? schema : schema.extend(outside);
  if (compiled === undefined) {
    compiled = new Map<string, z.ZodObject>();
    BY_GROUPS.set(schema, compiled);
  }
  if (compiled.size < CACHED_COMBINATIONS) compiled.set(key, out);
  return out;
}
