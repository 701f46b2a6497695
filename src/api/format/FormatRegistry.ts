import { invalidOption } from '../../config/optionError';
import type { Format } from './Format';
import { BUILT_IN_FORMATS, type BuiltInFormatName } from './builtInFormats';

/** A format's name: what `formats` options list and the `.{_format}` suffix (`/api/books/1.json`). */
const NAME = /^[a-z][a-z0-9]{0,31}$/;
/** A media type without parameters (RFC 9110 §8.3.1). */
export const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** The formats an API serves by default (API Platform 3.4's defaults but HTML: `jsonld`, `jsonhal`, `json`). */
export const DEFAULT_FORMATS: readonly BuiltInFormatName[] = ['jsonld', 'jsonhal', 'json'];

/**
 * `html`: not a format of the registry but the documentation page, answered to a browser (a
 * client that accepts HTML and none of the formats) on GET; its name is reserved.
 */
export const HTML = 'html';

function validate(format: Format, where: string): void {
  if (typeof format !== 'object' || format === null) throw invalidOption(where, 'expected a format object', format);
  if (typeof format.name !== 'string' || !NAME.test(format.name) || format.name === HTML) {
    throw invalidOption(`${where}.name`, 'expected lowercase letters and digits, e.g. "yaml" (not "html")',
      format.name);
  }
  const types = format.mimeTypes as unknown;
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => typeof t === 'string' && MEDIA_TYPE.test(t))) {
    throw invalidOption(`${where}.mimeTypes`, 'expected a non-empty array of media types such as "text/yaml"', types);
  }
  for (const key of ['item', 'collection'] as const) {
    if (typeof format[key] !== 'function') throw invalidOption(`${where}.${key}`, 'expected a function', format[key]);
  }
  for (const key of ['entrypoint', 'error', 'decode'] as const) {
    if (format[key] !== undefined && typeof format[key] !== 'function') {
      throw invalidOption(`${where}.${key}`, 'expected a function or nothing', format[key]);
    }
  }
}

/**
 * The formats of an API (API Platform's `formats` config): each {@link Format} registered once
 * by name, in order of preference (the first answers `Accept: *∕*` or no `Accept`). Negotiation,
 * the resource endpoints, the error renderer and the documentation read it; a format of your
 * own is one `register` call.
 *
 * @example
 *   const formats = new FormatRegistry(['jsonld', 'json', 'csv']).register(yaml);
 *   apiRoutes({ resources, formats });
 */
export class FormatRegistry {
  private readonly byName = new Map<string, Format>();
  private readonly byType = new Map<string, Format>();

  /**
   * @param formats - built-in names (`jsonld`, `jsonhal`, `json`, `jsonapi`, `csv`, `xml`) or
   *   formats of your own, in order of preference. @default ['jsonld', 'jsonhal', 'json']
   * @throws KernelConfigError for an unknown name, an invalid format, or a name or media type twice
   */
  constructor(formats: Iterable<Format | BuiltInFormatName> = DEFAULT_FORMATS) {
    for (const f of formats) this.register(f);
  }

  /**
   * Adds a format, after those already registered.
   * @param format - a {@link Format}, or the name of a built-in one
   * @returns this registry
   * @throws KernelConfigError `Invalid option "formats.<name>"` for an unknown built-in name, a
   *   format without a name, media types, `item` or `collection`, or a name or media type
   *   another format has
   */
  register(format: Format | BuiltInFormatName): this {
    const where = `formats.${typeof format === 'string' ? format : String((format as Partial<Format>)?.name)}`;
    let resolved: Format;
    if (typeof format === 'string') {
      const builtIn = Object.hasOwn(BUILT_IN_FORMATS, format) ? BUILT_IN_FORMATS[format] : undefined;
      if (builtIn === undefined) {
        throw invalidOption('formats', `expected a format or one of ${Object.keys(BUILT_IN_FORMATS).join(', ')}`,
          format);
      }
      resolved = builtIn;
    } else {
      validate(format, where);
      resolved = format;
    }
    if (this.byName.has(resolved.name)) throw invalidOption(where, 'this name is registered already', resolved.name);
    for (const type of resolved.mimeTypes) {
      const other = this.byType.get(type);
      if (other !== undefined) throw invalidOption(`${where}.mimeTypes`, `"${other.name}" has this type`, type);
    }
    this.byName.set(resolved.name, Object.freeze(resolved));
    for (const type of resolved.mimeTypes) this.byType.set(type, resolved);
    return this;
  }

  /** The format of a name, or undefined. */
  get(name: string): Format | undefined {
    return this.byName.get(name);
  }

  /** The format that has a media type (without parameters), or undefined. */
  byMimeType(type: string): Format | undefined {
    return this.byType.get(type);
  }

  /** Every format, in order of preference. */
  all(): readonly Format[] {
    return [...this.byName.values()];
  }

  /** Every name, in order of preference. */
  names(): readonly string[] {
    return [...this.byName.keys()];
  }
}
