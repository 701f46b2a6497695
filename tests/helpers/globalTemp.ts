/**
 * jest's globalSetup and globalTeardown (jest.config.ts): one temporary folder for the whole run,
 * `os.tmpdir()/express-kernel-tests-XXXXXX`, handed to the workers as `EXPRESS_KERNEL_TEST_TMP`
 * (tests/helpers/tempDir.ts) and removed with its content when the run ends. Not a test file itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Creates the run's folder and sets `EXPRESS_KERNEL_TEST_TMP` (the workers inherit it). */
export function setup(): void {
  process.env.EXPRESS_KERNEL_TEST_TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-tests-'));
}

/** Removes the run's folder (every worker has exited by now). */
export function teardown(): void {
  const root = process.env.EXPRESS_KERNEL_TEST_TMP;
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
}
