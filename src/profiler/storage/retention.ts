import { z } from 'zod';
import { profileJson } from '../profileJson';
import { parseOptions } from '../../config/parseOptions';
import { functionOption, optionsObject, wholeNumber } from '../../config/optionSchemas';
import type { Profile } from '../Profile';

/** The longest `maxAgeSeconds`: 10 years. */
export const MAX_AGE_SECONDS = 315_360_000;

/** Where a store's options sit in the application's configuration, for error messages. */
export const OPTION_PREFIX = 'profiler.storage.';

/**
 * Retention caps every profiler store enforces when it writes. When a cap is exceeded the oldest
 * profiles (by request start `time`, then token) are deleted first. Each store's options add
 * their own keys to these (see {@link resolveRetention}).
 */
export const retentionShape = {
  /**
   * How many profiles to keep, from 1 to 10,000,000.
   * @default 1000
   * @example 5000
   */
  maxProfiles: wholeNumber(1, 10_000_000, 'profiles').default(1000),
  /**
   * How many bytes of profiles to keep: the sum of the profiles' JSON sizes in UTF-8, from 1 to
   * 2^53 − 1. A single profile larger than this is refused (`write` rejects with a RangeError).
   * @default 104857600 (100 MiB)
   * @example 10 * 1024 * 1024
   */
  maxBytes: wholeNumber(1, Number.MAX_SAFE_INTEGER, 'bytes (e.g. 104857600 for 100 MiB)').default(100 * 1024 * 1024),
  /**
   * How long a profile is kept, in seconds after its request started, from 1 to 315,360,000
   * (10 years). Older profiles are hidden at once and deleted on the next write; Redis also
   * expires them by itself (key TTL).
   * @default 172800 (2 days, as Symfony's profiler garbage collection)
   * @example 3600
   */
  maxAgeSeconds: wholeNumber(1, MAX_AGE_SECONDS, 'seconds (e.g. 172800 for 2 days)').default(2 * 24 * 3600),
  /**
   * The clock the age cap reads, in milliseconds since the epoch (tests inject a fake one).
   * @default Date.now
   */
  now: functionOption<() => number>('a function returning milliseconds since the epoch').default(() => Date.now),
};

/** The retention options alone: the schema of {@link ProfilerStorageOptions}. */
export const profilerStorageOptionsSchema = optionsObject(retentionShape);

/** The retention caps of a profiler store. All optional. */
export type ProfilerStorageOptions = z.input<typeof profilerStorageOptionsSchema>;

/** {@link ProfilerStorageOptions} after validation, defaults applied. Frozen. */
export type ResolvedRetention = Readonly<z.output<typeof profilerStorageOptionsSchema>>;

/** The retention options' names. */
export const RETENTION_OPTIONS = Object.keys(retentionShape) as readonly (keyof typeof retentionShape)[];

/**
 * Validates the retention options (at construction: fail fast) and applies the defaults.
 * @param options - the store's options, retention caps among them
 * @param storeOptions - the names of the store's own options, allowed beside the caps (the store
 *   checks their values)
 * @throws KernelConfigError naming the option, e.g. `Invalid option "profiler.storage.maxBytes":
 *   expected a whole number of bytes (e.g. 104857600 for 100 MiB) from 1 to 9007199254740991 (got "100MB").`
 */
export function resolveRetention(
  options: ProfilerStorageOptions | undefined, storeOptions: readonly string[] = [],
): ResolvedRetention {
  const own = Object.fromEntries(storeOptions.map((name) => [name, z.unknown().optional()]));
  const schema = storeOptions.length === 0
    ? profilerStorageOptionsSchema
    : optionsObject({ ...retentionShape, ...own });
  const { maxProfiles, maxBytes, maxAgeSeconds, now } = parseOptions(schema, options ?? {}, OPTION_PREFIX.slice(0, -1));
  return Object.freeze({ maxProfiles, maxBytes, maxAgeSeconds, now });
}

/** The oldest request start time (ms since the epoch) a store still keeps. */
export function ageCutoff(retention: ResolvedRetention): number {
  return retention.now() - retention.maxAgeSeconds * 1000;
}

/** A profile as the stores keep it: its JSON, and that JSON's size in UTF-8 bytes. */
export interface EncodedProfile {
  readonly json: string;
  readonly bytes: number;
}

/**
 * Serialises a profile for storage.
 * @param shared - what to write in place of a collector's constant data (see `profileJson`)
 * @throws RangeError when the profile alone is larger than `maxBytes`
 * @throws TypeError when it cannot be serialised (a BigInt, a cycle)
 */
export function encodeProfile(
  profile: Profile, retention: ResolvedRetention, shared?: (json: string) => string,
): EncodedProfile {
  const json = profileJson(profile, shared);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > retention.maxBytes) {
    throw new RangeError(`Profile "${profile.token}" is ${bytes} bytes, `
      + `more than "${OPTION_PREFIX}maxBytes" (${retention.maxBytes}); it is not stored.`);
  }
  return { json, bytes };
}
