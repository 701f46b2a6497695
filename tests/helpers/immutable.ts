/**
 * Makes files immutable with `chattr +i` (root, on a filesystem with the attribute: ext4, xfs,
 * btrfs), as an operator or a failing disk might: every write to them fails with EPERM, through
 * descriptors already open too, so SQLite's commit (its write to the WAL) fails with
 * SQLITE_IOERR_WRITE while reads go on. Not a test file itself.
 */
import { execFileSync } from 'node:child_process';

/**
 * Sets the immutable attribute on `files`.
 * @returns a function that clears it again (safe to call twice)
 * @throws Error naming what is needed, when chattr fails (not root, or a filesystem without it)
 */
export function makeImmutable(files: readonly string[]): () => void {
  try {
    execFileSync('chattr', ['+i', ...files], { stdio: 'pipe' });
  } catch (e) {
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message;
    throw new Error(`chattr +i failed (this test needs root and a filesystem with the immutable attribute, `
      + `such as ext4, for its temporary folder): ${stderr}`);
  }
  return () => { execFileSync('chattr', ['-i', ...files], { stdio: 'pipe' }); };
}
