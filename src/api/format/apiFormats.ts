import { invalidOption } from '../../config/optionError';
import type { Format } from './Format';
import { FormatRegistry } from './FormatRegistry';
import type { BuiltInFormatName } from './builtInFormats';

/** RFC 7386's media type: PATCH bodies in plain JSON (API Platform's default `patch_formats`). */
export const MERGE_PATCH = 'application/merge-patch+json';

/** The `patchFormats` of an API by default: `{ json: ['application/merge-patch+json'] }`. */
export const DEFAULT_PATCH_FORMATS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  json: [MERGE_PATCH],
});

/** An API's formats, resolved once by `apiRoutes`. */
export interface ApiFormats {
  readonly registry: FormatRegistry;
  /** The registry's formats, in order of preference (the first is the default). */
  readonly all: readonly Format[];
  /** The format that reads a PATCH body, by media type (API Platform's `patch_formats`). */
  readonly patch: ReadonlyMap<string, Format>;
}

/**
 * The formats of `apiRoutes`' options.
 * @param formats - a registry, or the formats to register (names of built-in ones or formats)
 * @param patchFormats - format name to the media types of its PATCH bodies
 * @throws KernelConfigError for an unknown or invalid format, a patch format the API does not
 *   serve or that reads no bodies
 */
export function resolveFormats(
  formats: FormatRegistry | Iterable<Format | BuiltInFormatName> | undefined,
  patchFormats: Readonly<Record<string, readonly string[]>> = DEFAULT_PATCH_FORMATS,
): ApiFormats {
  const registry = formats instanceof FormatRegistry ? formats : new FormatRegistry(formats);
  if (registry.all().length === 0) throw invalidOption('formats', 'expected at least one format', []);
  const patch = new Map<string, Format>();
  for (const [name, types] of Object.entries(patchFormats)) {
    const format = registry.get(name);
    if (format === undefined || format.decode === undefined) {
      const what = `expected a format of the API that reads bodies (${registry.all().filter((f) => f.decode)
        .map((f) => f.name).join(', ')})`;
      throw invalidOption(`patchFormats.${name}`, what, name);
    }
    for (const type of types) patch.set(type, format);
  }
  return Object.freeze({ registry, all: Object.freeze(registry.all()), patch });
}
