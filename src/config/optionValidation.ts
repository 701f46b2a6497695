import { KernelConfigError } from './KernelConfigError';
import { invalidOption, shown, unknownOption } from './optionError';

/**
 * Construction-time checks of the API layer's declarations (`defineResource`, `apiRoutes`,
 * filters), which take their options one by one. Each failure is told as every option
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

/** @throws KernelConfigError unless `value` is a non-empty string */
export function stringOption(value: unknown, option: string): string {
  if (typeof value !== 'string' || value === '') throw invalid(option, 'expected a non-empty string', value);
  return value;
}
