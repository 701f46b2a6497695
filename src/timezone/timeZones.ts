import { IANA_TIME_ZONE_NAMES } from './ianaNames';

let zones: ReadonlySet<string> | undefined;
let spellings: ReadonlyMap<string, string> | undefined;
/** The characters of IANA names (ASCII only: a Kelvin sign must not lower-case into a `k`). */
const NAME_CHARS = /^[A-Za-z0-9_+\-/]{1,64}$/;
/** Whether Intl takes a name, per spelled name (at most one entry per IANA name). */
const intlTakes = new Map<string, boolean>();

/**
 * The time zones this Node build lists (`Intl.supportedValuesOf('timeZone')`), plus `UTC`.
 * ICU lists CLDR's spelling of each zone, which is sometimes an older IANA name: Node 20 lists
 * `Asia/Calcutta` and `Europe/Kiev`, not `Asia/Kolkata` and `Europe/Kyiv`; both spellings are
 * taken by {@link canonicalTimeZone}. Computed once.
 * @returns a frozen set of names, case-sensitive
 */
export function supportedTimeZones(): ReadonlySet<string> {
  if (zones === undefined) zones = Object.freeze(new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']));
  return zones;
}

/** Lower-cased name → the name as the IANA database (else Intl's list) spells it. Computed once. */
function spellingOf(lowerCased: string): string | undefined {
  if (spellings === undefined) {
    const map = new Map<string, string>();
    for (const name of supportedTimeZones()) map.set(name.toLowerCase(), name);
    // IANA's spelling wins where both spell a name (they agree today)
    for (const name of IANA_TIME_ZONE_NAMES) map.set(name.toLowerCase(), name);
    spellings = map;
  }
  return spellings.get(lowerCased);
}

/**
 * The IANA time zone name `value` stands for, spelled as the IANA database spells it: the name
 * itself, case-normalised (`asia/kolkata` → `Asia/Kolkata`, `europe/kyiv` → `Europe/Kyiv`,
 * `utc` → `UTC`), when it is a name of the IANA database (a zone or a link, tzdata 2025b) or one
 * {@link supportedTimeZones} lists, and this Node's `Intl` takes it. A link is kept as sent, not
 * replaced by the zone ICU lists (`Asia/Kolkata` stays `Asia/Kolkata`, where Node 20's ICU lists
 * `Asia/Calcutta`): the client gets back the name it sent. Non-ASCII look-alikes, offsets (`+02:00`), unknown names and
 * anything else give undefined. Never throws.
 * @param value - anything
 * @returns the IANA name, or undefined
 */
export function canonicalTimeZone(value: unknown): string | undefined {
  if (typeof value !== 'string' || !NAME_CHARS.test(value)) return undefined;
  const name = spellingOf(value.toLowerCase());
  if (name === undefined) return undefined;
  let taken = intlTakes.get(name);
  if (taken === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      taken = true;
    } catch {
      taken = false;
    }
    intlTakes.set(name, taken);
  }
  return taken ? name : undefined;
}

/**
 * Whether `value` names a time zone, in any case: see {@link canonicalTimeZone}. Never throws,
 * whatever it is given.
 * @param value - anything
 */
export function isValidTimeZone(value: unknown): value is string {
  return canonicalTimeZone(value) !== undefined;
}
