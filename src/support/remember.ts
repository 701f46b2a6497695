/**
 * Stores `value` under `key` in a cache of at most `max` entries: a full cache is emptied first,
 * so it never holds more than `max` and costs no bookkeeping per hit (the caches it serves see a
 * few distinct keys in practice: Host headers, peer addresses, `Accept-Language` values).
 * @param cache - the map to store in
 * @param key - the key
 * @param value - the value (undefined is a value: `cache.has(key)` tells a stored one)
 * @param max - the most entries the cache holds (entries)
 * @returns `value`
 */
export function remember<K, V>(cache: Map<K, V>, key: K, value: V, max: number): V {
  if (cache.size >= max) cache.clear();
  cache.set(key, value);
  return value;
}
