import { chromium, type Browser } from 'playwright-core';
import { programPath } from './requirements';

/** The flags every browser suite runs Debian's chromium with (DEVELOPERS.md). */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Launches Debian's chromium through playwright-core (never a downloaded browser), with
 * {@link CHROMIUM_FLAGS}. Call it inside `describeWith('chromium')`, which skips or fails first
 * when chromium is missing.
 * @returns the browser; the caller closes it
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_FLAGS });
}
