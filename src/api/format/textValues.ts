import type { Resource } from '../resource/defineResource';

/**
 * The values of a body in a text format (CSV, XML), where every value is text, read as the
 * resource's properties expect them: symfony/serializer's `AbstractObjectNormalizer` does the
 * same for its `csv` and `xml` formats (`validateAndDenormalize`: `"1"`/`"true"` and
 * `"0"`/`"false"` a bool, digits an int, `is_numeric` text a float, an empty value null for a
 * nullable one).
 * @module
 */

/** PHP's `is_numeric` for a decimal text (no `NaN`, no `INF`: JSON cannot carry them). */
const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;

/** A key as the nested path the text formats flatten values to (`tags.0`, `meta.size`). */
const SEPARATOR = '.';

function asNumber(text: string, integer: boolean): number | string {
  if (!(integer ? INTEGER : NUMERIC).test(text)) return text;
  const n = Number(text);
  return integer && !Number.isSafeInteger(n) ? text : n;
}

/**
 * One text value as its property's kind wants it; a text that cannot be one is left as it is, for
 * the type check to refuse with the property's name (400 `The type of the "price" attribute must
 * be "float", "string" given.`). An empty text is null for a nullable property (a text format has
 * no null of its own: an empty cell, an empty element).
 */
function typed(resource: Resource, name: string, value: unknown): unknown {
  if (name === 'id') return typeof value === 'string' ? asNumber(value, true) : value;
  const property = resource.metadata.properties.find((p) => p.name === name);
  if (property === undefined || typeof value !== 'string') return value;
  // an empty to-many relation has no cell or element of its own (symfony: '' is [] for an array type)
  if (value === '' && property.kind === 'relations') return [];
  if (value === '' && property.nullable) return null;
  switch (property.kind) {
    case 'integer': return asNumber(value, true);
    case 'number': return asNumber(value, false);
    case 'boolean':
      return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
    default: return value;
  }
}

/** Objects whose keys are 0..n-1 as arrays (`tags.0`, `tags.1` are a list), recursively. */
function lists(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, lists(v)] as const);
  if (entries.length > 0 && entries.every(([k], i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

/** The kinds whose values are arrays or objects, flattened by the text formats. */
const NESTED_KINDS: ReadonlySet<string> = new Set(['json', 'relations']);

/**
 * Flat keys (`tags.0`, `meta.size`) of a `json` or to-many `relations` property as its nested
 * value (symfony's CsvEncoder `key_separator`); other keys are kept as they are.
 */
export function unflatten(resource: Resource, flat: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const nested = new Set(resource.metadata.properties.filter((p) => NESTED_KINDS.has(p.kind)).map((p) => p.name));
  for (const [key, value] of Object.entries(flat)) {
    const path = key.split(SEPARATOR);
    if (path.length === 1 || !nested.has(path[0])) {
      out[key] = value;
      continue;
    }
    let at = out;
    for (const segment of path.slice(0, -1)) {
      const next = Object.hasOwn(at, segment) ? at[segment] : undefined;
      at = (at[segment] = typeof next === 'object' && next !== null ? next : {}) as Record<string, unknown>;
    }
    at[path[path.length - 1]] = value;
  }
  for (const name of nested) if (Object.hasOwn(out, name)) out[name] = lists(out[name]);
  return out;
}

/**
 * The values of a text body as the resource's properties want them (see the module's doc).
 * @param values - property names to texts (or nested values of a `json` property, kept as text)
 * @returns a new object: `id` and integer, number, boolean properties converted where the text
 *   is one; an empty text null for a nullable property; the rest as given
 */
export function fromTextValues(resource: Resource, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) out[name] = typed(resource, name, value);
  return out;
}

/**
 * A value flattened to text cells, as symfony's CsvEncoder does: nested objects and arrays as
 * `name.key` columns (an empty one as an empty cell), true and false as `1` and `0`, null as an
 * empty cell.
 * @param into - the row to add the cells to
 */
export function flatten(name: string, value: unknown, into: Record<string, unknown>): void {
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) into[name] = null;
    for (const [key, inner] of entries) flatten(`${name}${SEPARATOR}${key}`, inner, into);
    return;
  }
  into[name] = value;
}
