import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The project root. */
export const ROOT = path.resolve(__dirname, '../..');

/** The built console entry point (`bin.express-kernel` of package.json). */
export const CLI = path.join(ROOT, 'dist/cli/main.js');

/**
 * Makes sure `dist/cli` is built from the current `src/cli`. `npm test` builds before jest; when
 * jest runs alone and a compiled file is missing or older than its source, this runs
 * `tsc -p tsconfig.build.json` (the `build` script). A type error elsewhere in the project does
 * not stop tsc from emitting, so only the presence of the output is checked.
 * @throws Error with tsc's output when the build leaves `dist/cli/main.js` missing
 */
export function ensureCliBuilt(): void {
  const srcDir = path.join(ROOT, 'src/cli');
  const stale = fs.readdirSync(srcDir).filter((f) => f.endsWith('.ts')).some((f) => {
    const built = path.join(ROOT, 'dist/cli', f.replace(/\.ts$/, '.js'));
    return !fs.existsSync(built) || fs.statSync(built).mtimeMs < fs.statSync(path.join(srcDir, f)).mtimeMs;
  });
  if (!stale && fs.existsSync(path.join(ROOT, 'dist/routing/index.js'))) return;
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (!fs.existsSync(CLI)) {
    throw new Error(`tsc -p tsconfig.build.json did not produce ${CLI}:\n${run.stdout}${run.stderr}`);
  }
}
