import { KernelConfigError } from './KernelConfigError';
import { invalidOption, shown, unknownOption } from './optionError';

/**
 * Construction-time checks of the security component's classes (authenticators, user providers,
 * throttle stores), which take their options one by one. Each failure is told as every option
 * error is ({@link invalidOption}): `Invalid option "<path>": <what> (got <value>).` with the
 * option's full path, e.g. `firewalls[0].pattern`. The layers' option objects have zod schemas
 * instead (src/config/optionSchemas.ts, {@link parseOptions}).
 */

export { shown };

/**
 * @returns the error to throw for `option`
 * @param fix - what the option expects and how to fix it
 */
export function invalid(option: string, fix: string, value: unknown): KernelConfigError {
  return invalidOption(option, fix, value);
}

/**
 * Rejects keys that are not in `known`, suggesting the closest known key.
 * @throws KernelConfigError `Invalid option "<option>.<key>": unknown option; did you mean "x"?`
 */
export function knownKeys(value: object, known: readonly string[], option: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) throw unknownOption(option === '' ? key : `${option}.${key}`, key, known);
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
