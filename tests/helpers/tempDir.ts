/**
 * Temporary folders for tests. Each is made inside the run's own folder, which jest's global
 * set-up creates (`EXPRESS_KERNEL_TEST_TMP`, tests/helpers/globalTemp.ts) and its global teardown
 * removes, after every worker has stopped its servers; so a run leaves nothing in the system's
 * temporary folder. Not a test file itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Creates a new folder `<run folder>/<prefix>XXXXXX` (mode 0700, as `fs.mkdtempSync`); the run
 * folder is `EXPRESS_KERNEL_TEST_TMP` when set (by jest's global set-up), else `os.tmpdir()`.
 * A test that makes files in it immutable must clear the attribute itself.
 * @param prefix the folder name's start, e.g. `'ek-shutdown-'`
 * @returns the folder's absolute path
 */
export function tempDir(prefix: string): string {
  const root = process.env.EXPRESS_KERNEL_TEST_TMP;
  return fs.mkdtempSync(path.join(root !== undefined && fs.existsSync(root) ? root : os.tmpdir(), prefix));
}
