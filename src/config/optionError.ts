import { closestName } from '../errors/suggest';
import { KernelConfigError } from './KernelConfigError';

/**
 * The one way a bad option is told (habit 4: name the option, show the value, say how to fix it):
 * `Invalid option "<path>": <what is wrong> (got <value>); <hint>.`, and for a mistyped key
 * `Invalid option "<path>": unknown option; did you mean "<name>"?`. Every layer's validation
 * (its zod schema through {@link parseOptions}, or a check after it) ends here.
 */

/** How a message shows a value: JSON when possible, else a description; `nothing` for undefined. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${String(value)}n`;
  if (value instanceof RegExp) return String(value);
  try {
    return JSON.stringify(value) ?? (typeof value === 'symbol' ? value.toString() : typeof value);
  } catch {
    return typeof value;
  }
}

/**
 * An option's full path as messages write it: `.name` for names, `[0]` for list indexes and
 * `["^/api"]` for keys that are not plain names.
 * @param prefix - where the options sit, e.g. `cors` or `profiler.storage` (`''` at the root)
 * @param segments - the keys below the prefix
 */
export function optionPath(prefix: string, segments: readonly PropertyKey[]): string {
  let out = prefix;
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (typeof s === 'string' && /^(?:[A-Za-z_$][\w$]*|\d+)$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(String(s))}]`;
  }
  return out;
}

/** Details of {@link invalidOption}'s message. */
export interface OptionProblemDetails {
  /** Shown instead of the value (a secret's length), or `false` to show no value. */
  readonly got?: string | false;
  /** How to fix it, after `; `, e.g. `did you mean "https://app.example.com"?`. */
  readonly hint?: string;
}

/**
 * The error for a bad value: `Invalid option "<option>": <what> (got <value>); <hint>.`
 * @param what - what is wrong or what was expected, e.g. `expected an integer from 1 to 60000`
 */
export function invalidOption(
  option: string, what: string, value: unknown, details: OptionProblemDetails = {},
): KernelConfigError {
  const got = details.got === false ? '' : ` (got ${details.got ?? shown(value)})`;
  const text = `${what}${got}${details.hint === undefined ? '' : `; ${details.hint}`}`;
  return new KernelConfigError(option, /[.?!]$/.test(text) ? text : `${text}.`);
}

/**
 * What a mistyped key's message says: `unknown option; did you mean "<closest>"?`, or the list
 * of known names when none is close (edit distance, {@link closestName}).
 */
export function unknownOptionMessage(key: string, known: readonly string[]): string {
  const best = closestName(key, known);
  return best === undefined
    ? `unknown option; expected one of ${known.join(', ')}.`
    : `unknown option; did you mean "${best}"?`;
}

/** The error for a key that is not an option: see {@link unknownOptionMessage}. */
export function unknownOption(option: string, key: string, known: readonly string[]): KernelConfigError {
  return new KernelConfigError(option, unknownOptionMessage(key, known));
}
