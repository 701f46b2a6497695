import { z } from 'zod';
import { unknownOptionMessage } from './optionError';
import { defaultWhat } from './parseOptions';

/**
 * Zod pieces the layers' option schemas share, so each rule and its message are written once.
 * Messages say what is expected; {@link parseOptions} adds the path and the value.
 */

/**
 * An HTTP token (RFC 9110 §5.6.2, was RFC 7230 §3.2.6): header names, methods, and cookie names
 * (RFC 6265 §4.1.1 `cookie-name = token`).
 */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A strict options object: a key it does not list is `unknown option; did you mean "…"?`.
 * @param shape - the options, each with its TSDoc (the public type is derived from it)
 */
export function optionsObject<S extends z.core.$ZodLooseShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys'
      ? unknownOptionMessage(issue.keys[0], known)
      : 'expected an object'),
  });
}

/** An HTTP token (see {@link HTTP_TOKEN}); `what` names it, e.g. `a cookie name (an RFC 6265 token)`. */
export function httpToken(what: string): z.ZodString {
  const error = `expected ${what}`;
  return z.string({ error }).regex(HTTP_TOKEN, { error });
}

/**
 * An integer from `min` to `max`.
 * @param unit - what it counts, plural, e.g. `seconds`: `expected a whole number of seconds from 60 to 31536000`
 */
export function wholeNumber(min: number, max: number, unit: string): z.ZodNumber {
  const error = `expected a whole number of ${unit} from ${min} to ${max}`;
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A function; `what` shows its shape, e.g. `a function (req) => string | undefined`. */
export function functionOption<F extends (...args: never[]) => unknown>(what: string): z.ZodCustom<F, F> {
  return z.custom<F>((v) => typeof v === 'function', { error: `expected ${what}` });
}

/**
 * An object with the given methods (a logger, a store, a client): checked by duck typing.
 * @param what - e.g. `a pino logger`
 */
export function objectWith<T>(methods: readonly string[], what: string): z.ZodCustom<T, T> {
  return z.custom<T>((v) => typeof v === 'object' && v !== null
    && methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'), { error: `expected ${what}` });
}

/** A string of at least one character: `expected a non-empty string`. */
export const nonEmptyString = z.string({ error: 'expected a non-empty string' })
  .min(1, { error: 'expected a non-empty string' });

/** A list of non-empty strings (roles, IPs): `expected an array`, then each item's own message. */
export const stringList = z.array(nonEmptyString, { error: 'expected an array' });

/** An integer of at least `min`, with no upper bound: `expected an integer ≥ 4`. */
export function integerFrom(min: number): z.ZodNumber {
  const error = `expected an integer ≥ ${min}`;
  return z.number({ error }).int({ error }).min(min, { error });
}

/**
 * A value checked by another schema (a layer's, composed into the kernel's options) and kept as
 * given: the schema's issues are told at this place (`security.firewalls[0].pattern`), and
 * whatever the schema would build is left to the layer's factory, which resolves its options.
 */
export function checkedBy<S extends z.ZodType>(schema: S): z.ZodCustom<z.input<S>, z.input<S>> {
  return z.custom<z.input<S>>().superRefine((value, ctx) => {
    const result = schema.safeParse(value, { error: defaultWhat });
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ ...issue });
  });
}

/**
 * A value for a quoted header parameter such as a challenge's `realm` (RFC 9110 §11.6.1
 * `auth-param` as a `quoted-string`, §5.6.4), kept simple: printable ASCII without `"` or `\`.
 */
export const quotedParameter = z.string({ error: 'expected printable ASCII without " or \\' })
  .regex(/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/, { error: 'expected printable ASCII without " or \\' });
