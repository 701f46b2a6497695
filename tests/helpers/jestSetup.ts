/**
 * Runs before each test file (jest's `setupFilesAfterEnv`): the default time limit of a test or
 * hook, 30 s on a quiet machine, stretched by the machine's load when the file starts
 * (./timeScale), so a slow machine fails a test only for a real hang. Files and tests that set
 * their own limit scale it the same way. Not a test file.
 */
import { scaled } from './timeScale';

jest.setTimeout(scaled(30_000));
