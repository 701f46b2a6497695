import type { Request } from 'express';
import { z } from 'zod';
import { parseOptions } from '../config/parseOptions';
import { functionOption, httpToken, optionsObject } from '../config/optionSchemas';
import { canonicalTimeZone } from './timeZones';

const IANA_ZONE = 'expected an IANA time zone such as "Europe/Paris" or "UTC"';

/**
 * The options of {@link timeZoneLayer}, validated once at construction: the public
 * {@link TimeZoneOptions} is this schema's input, {@link ResolvedTimeZoneOptions} its output.
 */
export const timeZoneOptionsSchema = optionsObject({
  /**
   * The zone when no source gives a valid one: an IANA name or `UTC`.
   * @default 'UTC'
   * @example 'Europe/Paris'
   */
  default: z.string({ error: IANA_ZONE }).optional().transform((zone, ctx) => {
    const canonical = canonicalTimeZone(zone ?? 'UTC');
    if (canonical === undefined) ctx.addIssue({ code: 'custom', message: IANA_ZONE, input: zone });
    return canonical ?? 'UTC';
  }),
  /**
   * The signed-in user's preference, asked first; an invalid or empty answer is ignored (the
   * next source decides). Runs after the firewall, so `req.user` is known.
   * @example (req) => req.user?.timeZone
   */
  userPreference: functionOption<(req: Request) => string | null | undefined>('a function (req) => string | undefined')
    .optional(),
  /**
   * The cookie read after the `Time-Zone` header; an invalid value in it is ignored.
   * @default 'tz'
   */
  cookieName: httpToken('a cookie name (an RFC 6265 token)').default('tz'),
});

/** Options of {@link timeZoneLayer}. All optional. */
export type TimeZoneOptions = z.input<typeof timeZoneOptionsSchema>;

/** {@link TimeZoneOptions} validated, with defaults applied (`default` in IANA's spelling). Frozen. */
export type ResolvedTimeZoneOptions = Readonly<z.output<typeof timeZoneOptionsSchema>>;

/**
 * Validates {@link TimeZoneOptions} (fail fast, at construction).
 * @throws KernelConfigError `Invalid option "timeZone.<name>": …` naming the option and value
 */
export function resolveTimeZoneOptions(options: TimeZoneOptions = {}): ResolvedTimeZoneOptions {
  return Object.freeze(parseOptions(timeZoneOptionsSchema, options, 'timeZone'));
}
