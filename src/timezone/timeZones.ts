import { remember } from '../support/remember';

let zones: ReadonlySet<string> | undefined;

/**
 * The time zones this Node build lists (`Intl.supportedValuesOf('timeZone')`), plus `UTC`.
 * ICU lists CLDR's spelling of each zone, which is sometimes an older IANA name: Node 20 lists
 * `Asia/Calcutta` and `Europe/Kiev`, not `Asia/Kolkata` and `Europe/Kyiv`. Computed once.
 * @returns a frozen set of names, case-sensitive
 */
export function supportedTimeZones(): ReadonlySet<string> {
  if (zones === undefined) zones = Object.freeze(new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']));
  return zones;
}

/** IANA name syntax: segments that start with a capital or a digit (`Etc/GMT+5`, `EST5EDT`). */
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Z0-9][A-Za-z0-9_+-]*){0,2}$/;
const MAX_ALIASES = 1000;
const aliases = new Map<string, string | undefined>();

/**
 * The listed name a time zone stands for: itself when {@link supportedTimeZones} lists it, the
 * listed zone an IANA alias resolves to (`Asia/Kolkata` → `Asia/Calcutta` on Node 20, as
 * Firefox sends the former and Chrome the latter), else undefined. Case variants of a listed
 * name (`europe/paris`), offsets (`+02:00`) and anything else are refused. Never throws.
 * @param value - anything
 * @returns the listed name, or undefined
 */
export function canonicalTimeZone(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (supportedTimeZones().has(value)) return value;
  if (value.length > 64 || !IANA_NAME.test(value)) return undefined;
  if (aliases.has(value)) return aliases.get(value);
  let listed: string | undefined;
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
    listed = supportedTimeZones().has(resolved) && resolved.toLowerCase() !== value.toLowerCase() ? resolved : undefined;
  } catch {
    listed = undefined;
  }
  return remember(aliases, value, listed, MAX_ALIASES);
}

/**
 * Whether `value` names a time zone: a {@link supportedTimeZones} name exactly, or an IANA alias
 * of one (see {@link canonicalTimeZone}). Never throws, whatever it is given.
 * @param value - anything
 */
export function isValidTimeZone(value: unknown): value is string {
  return canonicalTimeZone(value) !== undefined;
}
