/**
 * Whether something last done at `last` is due again at `now`: `intervalMs` have passed, or the
 * clock went back (a wall clock set back must not postpone it for good). The guard of work done
 * "at most once per interval" (store expiry, peak RSS reads, source-file checks).
 * @param last - when it was last done (ms, the caller's clock); `-Infinity` for never
 * @param now - the time now (ms, same clock)
 * @param intervalMs - the interval (ms)
 * @returns true when it should be done now
 */
export function due(last: number, now: number, intervalMs: number): boolean {
  return now - last >= intervalMs || now < last;
}
