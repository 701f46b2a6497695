import { closestName } from '../errors/suggest';
import { KernelConfigError } from './KernelConfigError';

/**
 * Construction-time checks shared by the layers' factories. Each failure is a
 * {@link KernelConfigError} (`ERR_CONFIG_INVALID_OPTION`): `Invalid option "<path>": <what>
 * (got <value>).` with the option's full path, e.g. `firewalls[0].pattern`.
 */

/** The value as a message shows it: JSON when possible, else its type. */
export function shown(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (value instanceof RegExp) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}

/**
 * @returns the error to throw for `option`
 * @param fix - what the option expects and how to fix it
 */
export function invalid(option: string, fix: string, value: unknown): KernelConfigError {
  return new KernelConfigError(option, `${fix} (got ${shown(value)}).`);
}

/**
 * Rejects keys that are not in `known`, suggesting the closest known key.
 * @throws KernelConfigError `Invalid option "<option>.<key>": unknown option. Did you mean "x"?`
 */
export function knownKeys(value: object, known: readonly string[], option: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const best = closestName(key, known);
    const hint = best !== undefined ? ` Did you mean "${best}"?` : ` Known options: ${known.join(', ')}.`;
    throw new KernelConfigError(option === '' ? key : `${option}.${key}`, `unknown option.${hint}`);
  }
}

/** @throws KernelConfigError unless `value` is a plain object */
export function objectOption(value: unknown, option: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(option, 'expected an object', value);
  return value as Record<string, unknown>;
}

/** @throws KernelConfigError unless `value` is an array */
export function arrayOption(value: unknown, option: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(option, 'expected an array', value);
  return value;
}

/** @throws KernelConfigError unless `value` is a non-empty string */
export function stringOption(value: unknown, option: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(option, 'expected a non-empty string', value);
  return value;
}

/** @throws KernelConfigError unless `value` is an array of non-empty strings */
export function stringListOption(value: unknown, option: string): string[] {
  return arrayOption(value, option).map((v, i) => stringOption(v, `${option}[${i}]`));
}

/** @throws KernelConfigError unless `value` is undefined or a boolean */
export function booleanOption(value: unknown, option: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw invalid(option, 'expected true or false', value);
  return value;
}

/** @throws KernelConfigError unless `value` is a function */
export function functionOption<F extends (...args: never[]) => unknown>(
  value: unknown, option: string, what: string,
): F {
  if (typeof value !== 'function') throw invalid(option, `expected ${what}`, value);
  return value as F;
}

/**
 * @param min - the smallest allowed value
 * @throws KernelConfigError unless `value` is undefined or an integer ≥ `min`
 */
export function integerOption(value: unknown, option: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw invalid(option, `expected an integer ≥ ${min}`, value);
  return value;
}

/**
 * A value for a quoted header parameter such as a challenge's `realm`.
 * @throws KernelConfigError unless `value` is undefined or printable ASCII without `"` or `\`
 */
export function realmOption<T extends string | undefined>(value: unknown, option: string, fallback: T): string | T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^[\x20-\x7e]*$/.test(value) || /["\\]/.test(value)) {
    throw invalid(option, 'expected printable ASCII without " or \\', value);
  }
  return value;
}
