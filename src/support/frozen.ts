/**
 * A frozen list holding what `list` holds: `list` itself when it is already frozen (nothing can
 * change it, so sharing it is safe and saves the copy), else a frozen copy (the caller's array
 * may change afterwards).
 * @param list - any array
 * @returns a frozen array, possibly `list`
 */
export function frozenList<T>(list: readonly T[]): readonly T[] {
  return Object.isFrozen(list) ? list : Object.freeze([...list]);
}

/**
 * A frozen record holding `record`'s own enumerable properties: `record` itself when it is
 * already frozen, else a frozen shallow copy (see {@link frozenList}).
 * @param record - any plain object
 * @returns a frozen object, possibly `record`
 */
export function frozenRecord<T extends object>(record: T): Readonly<T> {
  return Object.isFrozen(record) ? record : Object.freeze({ ...record });
}
