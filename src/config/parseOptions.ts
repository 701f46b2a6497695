import type { z } from 'zod';
import { KernelConfigError } from './KernelConfigError';
import { invalidOption, optionPath, type OptionProblemDetails } from './optionError';

const TYPE_NAMES: Record<string, string> = {
  string: 'a string', number: 'a number', boolean: 'true or false', array: 'an array', object: 'an object',
  function: 'a function',
  record: 'an object',
};

/**
 * What a zod check said when its schema gave no message of its own, in the options' words: the
 * error map every options parse uses (`schema.safeParse(value, { error: defaultWhat })`).
 */
export function defaultWhat(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case 'invalid_value': return `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}`;
    case 'too_small': return `expected at least ${String(issue.minimum)}`;
    case 'too_big': return `expected at most ${String(issue.maximum)}`;
    case 'invalid_union': return 'expected one of the forms the option\'s documentation gives';
    default: return undefined;
  }
}

/** The value the user gave at `path` below `input`, for "(got …)". */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * The issue to tell: for a union whose value failed below the root in exactly one form (an object
 * of the right kind with one bad field), that form's issue, which names the field; else `issue`.
 */
function meant(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union') return issue;
  const deeper = issue.errors.filter((form) => form.some((i) => i.path.length > 0));
  if (deeper.length !== 1) return issue;
  const inner = deeper[0].find((i) => i.code === 'unrecognized_keys') ?? deeper[0].find((i) => i.path.length > 0)!;
  return meant({ ...inner, path: [...issue.path, ...inner.path] });
}

/**
 * Validates options against a layer's schema, once, at construction (habit 4), and returns the
 * parsed options (defaults applied, as the schema's `z.output`). A schema's custom checks may put
 * {@link OptionProblemDetails} (`got`, `hint`) in their issue's `params`.
 * @param prefix - where the options sit in the application's configuration, e.g. `session`
 *   (`''` for options read on their own)
 * @throws KernelConfigError for the first mistyped key if any (with its "did you mean"), else the
 *   first bad value: `Invalid option "<prefix>.<path>": <what> (got <value>).`
 */
export function parseOptions<S extends z.ZodType>(schema: S, input: unknown, prefix: string): z.output<S> {
  const result = schema.safeParse(input, { error: defaultWhat });
  if (result.success) return result.data;
  const issues = result.error.issues;
  const issue = meant(issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]);
  if (issue.code === 'unrecognized_keys') {
    throw new KernelConfigError(optionPath(prefix, [...issue.path, issue.keys[0]]), issue.message);
  }
  // options read on their own that are not an object at all: name them `options`
  const details = issue.code === 'custom' ? (issue.params as OptionProblemDetails | undefined) : undefined;
  const option = optionPath(prefix, issue.path) || 'options';
  throw invalidOption(option, issue.message, valueAt(input, issue.path), details);
}
