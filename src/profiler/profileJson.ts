import type { Profile } from './Profile';

/** The JSON of collector data marked constant, made once. */
const serialized = new WeakMap<object, string>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/**
 * Marks collector data that is the same for every request (the configuration panel's): it is
 * deep-frozen, and the stores serialise it once instead of once per profile.
 * @param data - a JSON-serialisable object; frozen in place
 * @returns the same object
 */
export function constantData<T extends object>(data: T): T {
  deepFreeze(data);
  serialized.set(data, JSON.stringify(data));
  return data;
}

/**
 * A profile's JSON, as `JSON.stringify(profile)` writes it but with `collectors` last and the
 * data of {@link constantData} spliced in from its cached JSON.
 * @param profile - the profile to serialise
 * @param shared - given the cached JSON of a collector's {@link constantData}, returns the JSON to
 *   write in its place: the SQLite store writes a reference to its one copy of it. Its result must
 *   be a JSON value. @default the cached JSON itself
 * @returns the JSON text
 * @throws TypeError when it cannot be serialised (a BigInt, a cycle)
 */
export function profileJson(profile: Profile, shared?: (json: string) => string): string {
  const { collectors, ...head } = profile;
  let body = '';
  for (const name of Object.keys(collectors)) {
    const data = collectors[name];
    const cached = typeof data === 'object' && data !== null ? serialized.get(data) : undefined;
    const json = cached === undefined ? JSON.stringify(data) : shared === undefined ? cached : shared(cached);
    if (json === undefined) continue; // undefined and functions are left out, as JSON.stringify leaves them
    body += `${body === '' ? '' : ','}${JSON.stringify(name)}:${json}`;
  }
  const start = JSON.stringify(head);
  return `${start.slice(0, -1)}${start.length > 2 ? ',' : ''}"collectors":{${body}}}`;
}
