/** Levenshtein distance between two strings. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/**
 * The closest known name to a mistyped one (case-insensitive, at most 3 edits away), for
 * "Did you mean …?" hints in configuration errors.
 * @returns the closest name, or undefined when none is close
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const [best] = known
    .map((k) => [k, editDistance(name.toLowerCase(), k.toLowerCase())] as const)
    .sort((x, y) => x[1] - y[1]);
  return best !== undefined && best[1] <= 3 ? best[0] : undefined;
}
