import { invalidOption } from '../../config/optionError';
import type { Resource, ResolvedOperation } from '../resource/defineResource';
import type { ApiFormats } from './apiFormats';
import type { Format } from './Format';

/** The formats of one operation (API Platform's operation `formats`, `inputFormats`, `outputFormats`). */
export interface OperationFormats {
  /** The formats of its responses, in order of preference: what `Accept` is negotiated among. */
  readonly outputs: readonly Format[];
  /** The media types of its POST and PUT bodies (the input formats that read bodies). */
  readonly inputTypes: readonly string[];
  /** The formats of its PATCH bodies, by media type (the API's `patchFormats` of its input formats). */
  readonly patch: ReadonlyMap<string, Format>;
  /** The keys of {@link patch}. */
  readonly patchTypes: readonly string[];
}

const RESOLVED = new WeakMap<ApiFormats, WeakMap<ResolvedOperation, OperationFormats>>();

function named(
  formats: ApiFormats, resource: Resource, op: ResolvedOperation, names: readonly string[] | undefined, key: string,
): readonly Format[] {
  if (names === undefined) return formats.all;
  return names.map((name) => {
    const format = formats.registry.get(name);
    if (format === undefined) {
      const what = `expected formats of the API (${formats.registry.names().join(', ')}; apiRoutes' formats)`;
      throw invalidOption(`resources.${resource.shortName}.operations.${op.name}.${key}`, what, name);
    }
    return format;
  });
}

/**
 * An operation's formats, resolved against the API's once (the same arrays each time, so that
 * negotiation's cache keeps working): its `outputFormats` (else `formats`, else the resource's,
 * else the API's) and its `inputFormats` likewise.
 * @throws KernelConfigError `Invalid option "resources.Book.operations.book_list.outputFormats"`
 *   for a name the API does not serve
 */
export function operationFormats(formats: ApiFormats, resource: Resource, op: ResolvedOperation): OperationFormats {
  let byOperation = RESOLVED.get(formats);
  if (byOperation === undefined) RESOLVED.set(formats, byOperation = new WeakMap());
  const known = byOperation.get(op);
  if (known !== undefined) return known;
  const outputs = Object.freeze([...named(formats, resource, op, op.outputFormats, 'outputFormats')]);
  const inputs = named(formats, resource, op, op.inputFormats, 'inputFormats');
  const patch = new Map([...formats.patch].filter(([, f]) => inputs.includes(f)));
  const resolved: OperationFormats = Object.freeze({
    outputs,
    inputTypes: Object.freeze(inputs.filter((f) => f.decode !== undefined).flatMap((f) => f.mimeTypes)),
    patch,
    patchTypes: Object.freeze([...patch.keys()]),
  });
  byOperation.set(op, resolved);
  return resolved;
}
