/**
 * fast-check arbitraries from JSON Schema (draft 2020-12, as in an OpenAPI 3.1 document and as
 * zod 4's `z.toJSONSchema` writes it): {@link validValue} generates values the schema accepts,
 * {@link invalidValue} values it rejects, each with the reason (a wrong type, a missing required
 * property, an unknown property where none is allowed, a number or a length out of range, a string
 * outside its enum, pattern or format).
 *
 * Covered: `type` (one or a list), `enum`, `const`, `anyOf`/`oneOf` (branches of distinct types,
 * as zod's nullable writes them), `allOf` of objects, `$ref` to `#/...` in the root document,
 * objects (`properties`, `required`, `additionalProperties: false`), arrays (`items`, `minItems`,
 * `maxItems`), strings (`minLength`, `maxLength`, `pattern`, `format` date, date-time, email,
 * uri, iri-reference, uuid), integers and numbers (`minimum`, `maximum`, `exclusiveMinimum`,
 * `exclusiveMaximum`). Anything else is ignored for valid values (which may then be rejected) and
 * never used to make an invalid one. Lengths count UTF-16 code units of ASCII text (the same as
 * code points there, so zod and JSON Schema agree).
 *
 * Direction: for a `request`, `readOnly` properties are left out (and not required); for a
 * `response`, `writeOnly` ones.
 */
import fc from 'fast-check';

/** A JSON Schema: an object (a `true`/`false` schema is not supported). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Where a schema is read from. */
export interface SchemaOptions {
  /** The document `$ref`s point into (`#/components/schemas/Book`). */
  readonly root?: object;
  /** Leave out `readOnly` (request) or `writeOnly` (response) properties. @default 'request' */
  readonly direction?: 'request' | 'response';
  /**
   * Valid strings of a format, replacing the built-in ones (e.g. `iri-reference`: the IRIs of
   * items that exist, so a valid relation names one).
   */
  readonly formats?: Readonly<Record<string, fc.Arbitrary<string>>>;
}

/** A value a schema rejects, and why. */
export interface Invalid {
  readonly value: unknown;
  /** E.g. `title: wrong type (number)`, `missing required "title"`, `price: above maximum 10000`. */
  readonly reason: string;
}

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';
const JSON_TYPES: readonly JsonType[] = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object'];

const MAX_DEPTH = 12;
const DATE_MIN = new Date('1900-01-01T00:00:00.000Z');
const DATE_MAX = new Date('2100-12-31T23:59:59.999Z');
const dates = fc.date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true });

/** Values that break each format (and only the format: they are strings). */
const BAD_FORMATS: Readonly<Record<string, readonly string[]>> = {
  date: ['yesterday', '2024-13-01', '2023-02-29', '20240101', '2024-1-1', '2024-01-01T00:00:00Z', ''],
  'date-time': ['2024-01-01', 'now', '2024-01-01 10:00:00', '2024-01-01T25:00:00Z', '2024-13-01T00:00:00Z', ''],
  email: ['not-an-email', 'a@', '@example.com', 'a b@example.com', ''],
  uri: ['not a uri', '://missing-scheme', ''],
  uuid: ['not-a-uuid', '123e4567-e89b-12d3-a456', '', 'gggggggg-gggg-gggg-gggg-gggggggggggg'],
};

/** Follows `$ref`s (`#/a/b`, JSON Pointer escapes) to the schema they name. */
export function resolve(schema: JsonSchema, options: SchemaOptions = {}, depth = 0): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (depth > MAX_DEPTH) throw new Error(`$ref ${ref}: too deep (a cycle?)`);
  if (!ref.startsWith('#/') || options.root === undefined) {
    throw new Error(`$ref ${ref}: only #/... in the root document`);
  }
  let node: unknown = options.root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  if (node === null || typeof node !== 'object') throw new Error(`$ref ${ref}: not found`);
  return resolve(node as JsonSchema, options, depth + 1);
}

const list = <T>(value: unknown): readonly T[] => (Array.isArray(value) ? value as T[] : []);
const num = (value: unknown): number | undefined =>
  (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The JSON type of a value (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The JSON types a schema may accept (every type when it does not say). */
function typesOf(schema: JsonSchema, options: SchemaOptions, depth: number): Set<JsonType> {
  const s = resolve(schema, options);
  const branches = [...list<JsonSchema>(s.anyOf), ...list<JsonSchema>(s.oneOf)];
  if (branches.length > 0) return new Set(branches.flatMap((b) => [...typesOf(b, options, depth + 1)]));
  if ('const' in s) return new Set([jsonTypeOf(s.const)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(jsonTypeOf));
  const declared = typeof s.type === 'string' ? [s.type as JsonType] : list<JsonType>(s.type);
  if (declared.length === 0 && Array.isArray(s.allOf)) {
    return new Set(list<JsonSchema>(s.allOf).flatMap((b) => [...typesOf(b, options, depth + 1)]));
  }
  const types = new Set<JsonType>(declared.length === 0 ? JSON_TYPES : declared);
  if (types.has('number')) types.add('integer');
  return types;
}

/** A value of a JSON type. */
function anyOfType(type: JsonType): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return fc.string({ maxLength: 12 });
    case 'number': return fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n));
    case 'integer': return fc.integer({ min: -1_000_000, max: 1_000_000 });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': return fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 });
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.string({ maxLength: 5 }), { maxKeys: 3 });
  }
}

/** Merges `allOf` branches that are objects into one object schema. */
function mergeAllOf(schema: JsonSchema, options: SchemaOptions): JsonSchema {
  const parts = [schema, ...list<JsonSchema>(schema.allOf).map((p) => resolve(p, options))];
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const p of parts) {
    Object.assign(properties, p.properties ?? {});
    for (const r of list<string>(p.required)) required.add(r);
  }
  const { allOf: _allOf, ...rest } = schema;
  return { ...rest, type: 'object', properties, required: [...required] };
}

/** The properties an object schema has in this direction, and which of them are required. */
function objectShape(
  s: JsonSchema, options: SchemaOptions,
): { props: Array<[string, JsonSchema]>; required: Set<string> } {
  const skip = (options.direction ?? 'request') === 'request' ? 'readOnly' : 'writeOnly';
  const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)
    .filter(([, p]) => resolve(p, options)[skip] !== true && p[skip] !== true);
  const names = new Set(props.map(([n]) => n));
  return { props, required: new Set(list<string>(s.required).filter((r) => names.has(r))) };
}

function stringValue(s: JsonSchema, options: SchemaOptions): fc.Arbitrary<string> {
  const own = typeof s.format === 'string' ? options.formats?.[s.format] : undefined;
  if (own !== undefined) return own;
  const minLength = num(s.minLength) ?? 0;
  const maxLength = num(s.maxLength);
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  const fits = (v: string): boolean => v.length >= minLength && (maxLength === undefined || v.length <= maxLength)
    && (pattern === undefined || pattern.test(v));
  let base: fc.Arbitrary<string>;
  switch (s.format) {
    case 'date': base = dates.map((d) => d.toISOString().slice(0, 10)); break;
    case 'date-time': base = dates.map((d) => d.toISOString()); break;
    case 'email': base = fc.tuple(word(1, 10), word(1, 10), fc.constantFrom('com', 'org', 'fr'))
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`); break;
    case 'uri': case 'iri': base = fc.webUrl(); break;
    case 'uuid': base = fc.uuid(); break;
    default:
      base = pattern !== undefined
        ? fc.stringMatching(pattern)
        : fc.string({ minLength, maxLength: Math.min(maxLength ?? minLength + 20, minLength + 40) });
  }
  return base.filter(fits);
}

/** Lower-case ASCII letters and digits, from `min` to `max` long. */
function word(min: number, max: number): fc.Arbitrary<string> {
  const unit = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789');
  return fc.string({ unit, minLength: min, maxLength: max });
}

/** The bounds of a number schema, exclusive ones turned inclusive for integers. */
interface Bounds { min?: number; max?: number; minExclusive: boolean; maxExclusive: boolean }

function bounds(s: JsonSchema, integer: boolean): Bounds {
  let min = num(s.minimum);
  let max = num(s.maximum);
  let minExclusive = false;
  let maxExclusive = false;
  const exMin = num(s.exclusiveMinimum);
  const exMax = num(s.exclusiveMaximum);
  if (exMin !== undefined && (min === undefined || exMin >= min)) { min = exMin; minExclusive = true; }
  if (exMax !== undefined && (max === undefined || exMax <= max)) { max = exMax; maxExclusive = true; }
  if (integer) {
    if (min !== undefined) min = minExclusive ? Math.floor(min) + 1 : Math.ceil(min);
    if (max !== undefined) max = maxExclusive ? Math.ceil(max) - 1 : Math.floor(max);
    minExclusive = false;
    maxExclusive = false;
  }
  return { min, max, minExclusive, maxExclusive };
}

function numberValue(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const b = bounds(s, integer);
  if (integer) {
    const min = Math.max(b.min ?? -1_000_000, Number.MIN_SAFE_INTEGER);
    const max = Math.min(b.max ?? Math.max(min, 0) + 1_000_000, Number.MAX_SAFE_INTEGER);
    // small values near the lower bound are the common case (ids, pages), the rest for reach
    return fc.oneof(fc.integer({ min, max: Math.min(max, min + 50) }), fc.integer({ min, max }));
  }
  return fc.double({
    min: b.min ?? -1e9,
    max: b.max ?? 1e9,
    minExcluded: b.minExclusive,
    maxExcluded: b.maxExclusive,
    noNaN: true,
    noDefaultInfinity: true,
  }).map((n) => (Object.is(n, -0) ? 0 : n));
}

/**
 * Values the schema accepts.
 * @throws Error for a `$ref` that does not resolve
 */
export function validValue(schema: JsonSchema, options: SchemaOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  let s = resolve(schema, options);
  if (depth > MAX_DEPTH) return fc.constant(null);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = [...list<JsonSchema>(s.anyOf), ...list<JsonSchema>(s.oneOf)];
  if (branches.length > 0) return fc.oneof(...branches.map((b) => validValue(b, options, depth + 1)));
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, options);
  const types = typesOf(s, options, depth);
  if (types.has('number')) types.delete('integer'); // numbers include them
  return fc.oneof(...[...types].map((t) => valueOfType(s, t, options, depth)));
}

function valueOfType(s: JsonSchema, type: JsonType, options: SchemaOptions, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return stringValue(s, options);
    case 'integer': return numberValue(s, true);
    case 'number': return numberValue(s, false);
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const minLength = num(s.minItems) ?? 0;
      const maxLength = Math.min(num(s.maxItems) ?? minLength + 4, minLength + 4);
      const items = typeof s.items === 'object' && s.items !== null ? s.items as JsonSchema : {};
      return fc.array(validValue(items, options, depth + 1), { minLength, maxLength });
    }
    case 'object': {
      const { props, required } = objectShape(s, options);
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, p] of props) model[name] = validValue(p, options, depth + 1);
      return fc.record(model, { requiredKeys: [...required] });
    }
  }
}

/**
 * Values the schema rejects, each with its reason; undefined when it accepts every value (`{}`).
 * @throws Error for a `$ref` that does not resolve
 */
export function invalidValue(
  schema: JsonSchema, options: SchemaOptions = {}, depth = 0,
): fc.Arbitrary<Invalid> | undefined {
  let s = resolve(schema, options);
  if (depth > MAX_DEPTH) return undefined;
  if (Array.isArray(s.allOf)) s = mergeAllOf(s, options);
  const accepted = typesOf(s, options, depth);
  const choices: Array<fc.Arbitrary<Invalid>> = [];
  const wrong = JSON_TYPES.filter((t) => !accepted.has(t) && !(t === 'integer' && accepted.has('number')));
  if (wrong.length > 0) {
    choices.push(fc.constantFrom(...wrong)
      .chain((t) => anyOfType(t).map((value) => ({ value, reason: `wrong type (${t})` }))));
  }
  const branches = [...list<JsonSchema>(s.anyOf), ...list<JsonSchema>(s.oneOf)];
  if (branches.length > 0) {
    // a value a branch rejects is rejected by all when no other branch takes its type
    branches.forEach((branch, i) => {
      const own = typesOf(branch, options, depth + 1);
      const others = branches.filter((_, j) => j !== i).flatMap((b) => [...typesOf(b, options, depth + 1)]);
      const overlaps = (t: JsonType): boolean => own.has(t)
        || (t === 'number' && own.has('integer')) || (t === 'integer' && own.has('number'));
      if (others.some(overlaps)) return;
      const inner = sameTypeInvalid(resolve(branch, options), options, depth + 1);
      if (inner !== undefined) choices.push(inner);
    });
  } else {
    const inner = sameTypeInvalid(s, options, depth);
    if (inner !== undefined) choices.push(inner);
  }
  return choices.length === 0 ? undefined : fc.oneof(...choices);
}

/** Values of an accepted type that break one of the schema's other rules. */
function sameTypeInvalid(s: JsonSchema, options: SchemaOptions, depth: number): fc.Arbitrary<Invalid> | undefined {
  const choices: Array<fc.Arbitrary<Invalid>> = [];
  const add = (arb: fc.Arbitrary<unknown>, reason: string): void => {
    choices.push(arb.map((value) => ({ value, reason })));
  };
  if ('const' in s) {
    if (typeof s.const === 'string') add(fc.string().filter((v) => v !== s.const), 'not the constant');
    return choices.length === 0 ? undefined : fc.oneof(...choices);
  }
  if (Array.isArray(s.enum)) {
    const values = s.enum as unknown[];
    if (values.every((v) => typeof v === 'string')) {
      add(fc.string({ maxLength: 12 }).filter((v) => !values.includes(v)), 'not in the enum');
    } else if (values.every((v) => typeof v === 'number')) {
      add(fc.integer().filter((v) => !values.includes(v)), 'not in the enum');
    }
    return choices.length === 0 ? undefined : fc.oneof(...choices);
  }
  const types = typesOf(s, options, depth);
  if (types.has('string') && !types.has('integer')) stringInvalid(s, add);
  if ((types.has('integer') || types.has('number')) && !types.has('string')) numberInvalid(s, types, add);
  if (types.has('array') && !types.has('object')) arrayInvalid(s, options, depth, add, choices);
  if (types.has('object') && !types.has('array')) objectInvalid(s, options, depth, choices);
  return choices.length === 0 ? undefined : fc.oneof(...choices);
}

type Add = (arb: fc.Arbitrary<unknown>, reason: string) => void;

function stringInvalid(s: JsonSchema, add: Add): void {
  const minLength = num(s.minLength);
  const maxLength = num(s.maxLength);
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern, 'u') : undefined;
  if (minLength !== undefined && minLength > 0) {
    add(fc.string({ maxLength: minLength - 1 }).filter((v) => v.length < minLength),
      `shorter than minLength ${minLength}`);
  }
  if (maxLength !== undefined) {
    add(fc.string({ minLength: maxLength + 1, maxLength: maxLength + 10 }).filter((v) => v.length > maxLength),
      `longer than maxLength ${maxLength}`);
  }
  if (pattern !== undefined) {
    add(fc.string({ maxLength: 20 }).filter((v) => !pattern.test(v)), `not matching ${s.pattern as string}`);
  }
  const bad = typeof s.format === 'string' ? BAD_FORMATS[s.format] : undefined;
  if (bad !== undefined) add(fc.constantFrom(...bad), `not a ${s.format as string}`);
}

function numberInvalid(s: JsonSchema, types: Set<JsonType>, add: Add): void {
  const integer = !types.has('number');
  const b = bounds(s, false);
  if (b.min !== undefined) {
    const below = b.minExclusive ? b.min : b.min - 1;
    add(fc.integer({ min: -1000, max: 0 }).map((d) => Math.max(below + d, -Number.MAX_VALUE)),
      `below minimum ${b.min}`);
  }
  if (b.max !== undefined) {
    const above = b.maxExclusive ? b.max : b.max + 1;
    add(fc.integer({ min: 0, max: 1000 }).map((d) => Math.min(above + d, Number.MAX_VALUE)), `above maximum ${b.max}`);
  }
  const lo = Math.max(Math.ceil(b.min ?? -1e6), -1e6);
  const hi = Math.min(Math.floor(b.max ?? 1e6), 1e6) - 1;
  if (integer && lo <= hi) add(fc.integer({ min: lo, max: hi }).map((n) => n + 0.5), 'not an integer');
}

function arrayInvalid(
  s: JsonSchema, options: SchemaOptions, depth: number, add: Add, choices: Array<fc.Arbitrary<Invalid>>,
): void {
  const items = typeof s.items === 'object' && s.items !== null ? s.items as JsonSchema : {};
  const minItems = num(s.minItems);
  const maxItems = num(s.maxItems);
  if (minItems !== undefined && minItems > 0) {
    add(fc.array(validValue(items, options, depth + 1), { maxLength: minItems - 1 }),
      `fewer than minItems ${minItems}`);
  }
  if (maxItems !== undefined) {
    add(fc.array(validValue(items, options, depth + 1), { minLength: maxItems + 1, maxLength: maxItems + 3 }),
      `more than maxItems ${maxItems}`);
  }
  const bad = invalidValue(items, options, depth + 1);
  if (bad !== undefined && (maxItems === undefined || maxItems > 0)) {
    const upTo = Math.max(minItems ?? 0, 1) - 1;
    choices.push(fc.tuple(fc.array(validValue(items, options, depth + 1), { maxLength: upTo, minLength: upTo }), bad)
      .map(([good, b]) => ({ value: [...good, b.value], reason: `item: ${b.reason}` })));
  }
}

function objectInvalid(
  s: JsonSchema, options: SchemaOptions, depth: number, choices: Array<fc.Arbitrary<Invalid>>,
): void {
  const { props, required } = objectShape(s, options);
  const whole = valueOfType(s, 'object', options, depth) as fc.Arbitrary<Record<string, unknown>>;
  for (const name of required) {
    choices.push(whole.map((v) => {
      const { [name]: _dropped, ...rest } = v;
      return { value: rest, reason: `missing required "${name}"` };
    }));
  }
  if (s.additionalProperties === false) {
    const known = new Set(Object.keys((s.properties ?? {})));
    const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !known.has(k) && k !== '__proto__');
    choices.push(fc.tuple(whole, key)
      .map(([v, key]) => ({ value: { ...v, [key]: 1 }, reason: `unknown property "${key}"` })));
  }
  for (const [name, p] of props) {
    const bad = invalidValue(p, options, depth + 1);
    if (bad === undefined) continue;
    choices.push(fc.tuple(whole, bad)
      .map(([v, b]) => ({ value: { ...v, [name]: b.value }, reason: `${name}: ${b.reason}` })));
  }
}
