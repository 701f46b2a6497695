/**
 * Time limits that grow with the machine's load, for the few waits a test cannot tie to an event
 * (a server that must answer "at once" rather than after a store's timeout; a hang guard).
 * Everything else waits on events. Not a test file.
 *
 * The factor is `EXPRESS_KERNEL_TEST_TIME_SCALE` when set (a number from 1 to 50), else the
 * machine's load average per core, the larger of the 1- and 5-minute averages, from 1 to 10:
 * on a quiet machine 1, at load 10 on 2 cores 5. It is read at each call, so a wait set while
 * the machine is busy is longer than one set while it is quiet.
 */
import os from 'node:os';

/** The environment variable that fixes the factor (e.g. `3`), for runs on a known slow machine. */
export const TIME_SCALE_VARIABLE = 'EXPRESS_KERNEL_TEST_TIME_SCALE';

/**
 * How many times longer than on a quiet machine a timed wait may take now.
 * @returns a number from 1 to 10 (from 1 to 50 when the variable sets it)
 * @throws Error when the variable is set to something other than a number from 1 to 50
 */
export function timeScale(): number {
  const fixed = process.env[TIME_SCALE_VARIABLE];
  if (fixed !== undefined && fixed !== '') {
    const n = Number(fixed);
    if (!Number.isFinite(n) || n < 1 || n > 50) {
      throw new Error(`${TIME_SCALE_VARIABLE} must be a number from 1 to 50, got ${JSON.stringify(fixed)}`);
    }
    return n;
  }
  const [one, five] = os.loadavg();
  const cores = Math.max(1, os.availableParallelism());
  return Math.min(10, Math.max(1, Math.max(one, five) / cores));
}

/**
 * A quiet machine's limit in milliseconds, stretched by {@link timeScale}.
 * @param ms the limit on a quiet machine, in milliseconds
 * @returns the limit now, in whole milliseconds (at least `ms`)
 */
export function scaled(ms: number): number {
  return Math.ceil(ms * timeScale());
}
