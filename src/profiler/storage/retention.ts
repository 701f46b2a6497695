import { closestName } from '../../errors/suggest';
import { profileJson } from '../profileJson';
import { KernelConfigError } from '../../config/KernelConfigError';
import type { Profile } from '../Profile';

/**
 * Retention caps every profiler store enforces when it writes. When a cap is exceeded the oldest
 * profiles (by request start `time`, then token) are deleted first.
 */
export interface ProfilerStorageOptions {
  /**
   * How many profiles to keep, from 1 to 10,000,000.
   * @default 1000
   * @example 5000
   */
  maxProfiles?: number;
  /**
   * How many bytes of profiles to keep: the sum of the profiles' JSON sizes in UTF-8, from 1 to
   * 2^53 − 1. A single profile larger than this is refused (`write` rejects with a RangeError).
   * @default 104857600 (100 MiB)
   * @example 10 * 1024 * 1024
   */
  maxBytes?: number;
  /**
   * How long a profile is kept, in seconds after its request started, from 1 to 315,360,000
   * (10 years). Older profiles are hidden at once and deleted on the next write; Redis also
   * expires them by itself (key TTL).
   * @default 172800 (2 days, as Symfony's profiler garbage collection)
   * @example 3600
   */
  maxAgeSeconds?: number;
  /**
   * The clock the age cap reads, in milliseconds since the epoch (tests inject a fake one).
   * @default Date.now
   */
  now?: () => number;
}

/** {@link ProfilerStorageOptions} after validation, defaults applied. Frozen. */
export type ResolvedRetention = Readonly<Required<ProfilerStorageOptions>>;

/** The retention options' names. */
export const RETENTION_OPTIONS = ['maxProfiles', 'maxBytes', 'maxAgeSeconds', 'now'] as const;

/** Where a store's options sit in the application's configuration, for error messages. */
export const OPTION_PREFIX = 'profiler.storage.';

/** The longest `maxAgeSeconds`: 10 years. */
export const MAX_AGE_SECONDS = 315_360_000;

const DEFAULTS = { maxProfiles: 1000, maxBytes: 100 * 1024 * 1024, maxAgeSeconds: 2 * 24 * 3600 };

function show(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function wholeNumber(options: Record<string, unknown>, name: keyof typeof DEFAULTS, max: number, unit: string): number {
  const value = options[name];
  if (value === undefined) return DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new KernelConfigError(OPTION_PREFIX + name, `expected a whole number of ${unit} from 1 to ${max} (got ${show(value)}).`);
  }
  return value;
}

/**
 * Fails on an option the store does not know, suggesting the closest name or listing them all.
 * @throws KernelConfigError `Invalid option "profiler.storage.<name>": unknown option. Did you mean "…"?`
 */
export function checkOptionNames(options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const close = closestName(key, known);
    throw new KernelConfigError(OPTION_PREFIX + key, `unknown option. ${close === undefined ? `Known options: ${known.join(', ')}.` : `Did you mean "${close}"?`}`);
  }
}

/**
 * Validates the retention options (at construction: fail fast) and applies the defaults.
 * @param options - the store's options, retention caps among them
 * @param storeOptions - the names of the store's own options, allowed beside the caps
 * @throws KernelConfigError naming the option, e.g. `Invalid option "profiler.storage.maxBytes":
 *   expected a whole number of bytes (e.g. 104857600 for 100 MiB) from 1 to 9007199254740991 (got "100MB").`
 */
export function resolveRetention(options: ProfilerStorageOptions | undefined, storeOptions: readonly string[] = []): ResolvedRetention {
  if (options === undefined) options = {};
  if (typeof options !== 'object' || options === null) {
    throw new KernelConfigError('profiler.storage', `expected an options object (got ${show(options)}).`);
  }
  checkOptionNames(options, [...RETENTION_OPTIONS, ...storeOptions]);
  const o = options as Record<string, unknown>;
  const now = o.now ?? Date.now;
  if (typeof now !== 'function') {
    throw new KernelConfigError(OPTION_PREFIX + 'now', `expected a function returning milliseconds since the epoch (got ${show(now)}).`);
  }
  return Object.freeze({
    maxProfiles: wholeNumber(o, 'maxProfiles', 10_000_000, 'profiles'),
    maxBytes: wholeNumber(o, 'maxBytes', Number.MAX_SAFE_INTEGER, 'bytes (e.g. 104857600 for 100 MiB)'),
    maxAgeSeconds: wholeNumber(o, 'maxAgeSeconds', MAX_AGE_SECONDS, 'seconds (e.g. 172800 for 2 days)'),
    now: now as () => number,
  });
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
 * @throws RangeError when the profile alone is larger than `maxBytes`
 * @throws TypeError when it cannot be serialised (a BigInt, a cycle)
 */
export function encodeProfile(profile: Profile, retention: ResolvedRetention): EncodedProfile {
  const json = profileJson(profile);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > retention.maxBytes) {
    throw new RangeError(`Profile "${profile.token}" is ${bytes} bytes, more than "${OPTION_PREFIX}maxBytes" (${retention.maxBytes}); it is not stored.`);
  }
  return { json, bytes };
}
