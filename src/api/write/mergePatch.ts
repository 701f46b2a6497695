/**
 * JSON Merge Patch (RFC 7386 §2): an object patch merges member by member, `null` removes a
 * member, anything else (an array, a string, a number) replaces the target. Results are built
 * with own data properties, so a member named `__proto__` is an ordinary member, never a
 * prototype change. It recurses once per level of the patch's objects: request bodies reach it
 * no deeper than the JSON body reader's limit (`JSON_MAX_DEPTH`, 512 levels).
 * @param target - the current document (not modified)
 * @param patch - the patch, as parsed JSON
 * @returns the patched document (a new object where the patch is an object)
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const result: Record<string, unknown> = {};
  const put = (key: string, value: unknown): void => {
    Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
  };
  if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
    for (const [k, v] of Object.entries(target)) put(k, v);
  }
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete result[k];
    else put(k, mergePatch(Object.prototype.hasOwnProperty.call(result, k) ? result[k] : undefined, v));
  }
  return result;
}
