/**
 * The published package, as a user gets it: `npm pack` (after the build),
 * installed from the tarball into a fresh project of its own, then loaded with
 * require() and with an ESM import.
 *
 * The install passes --ignore-scripts: it keeps the test quick (better-sqlite3
 * would otherwise compile its native addon, about a minute here) and it
 * doubles as a check that loading express-kernel does not need that addon.
 * If a future src/index.ts opens a database at import time this test fails
 * with "Could not locate the bindings file": then drop IGNORE_SCRIPTS.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv } from '../service/serverProcess';

const REPO = path.resolve(__dirname, '..', '..');
const IGNORE_SCRIPTS = true;
const EXPORTED_FUNCTIONS = ['createKernel', 'Route', 'RouteCollection', 'UrlMatcher', 'UrlGenerator'];

function run(
  cmd: string,
  args: string[],
  cwd: string,
  timeoutMs = 5 * 60_000,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd, env: cleanEnv({ CI: 'true' }), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err) {
          reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
        } else resolve({ stdout, stderr });
      },
    );
  });
}

describe('npm pack, installed into a fresh project', () => {
  let tmp = '';
  let project = '';
  let tarball = '';
  let packedFiles: string[] = [];

  beforeAll(async () => {
    for (const f of ['dist/index.js', 'dist/index.d.ts']) {
      if (!fs.existsSync(path.join(REPO, f))) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
    }
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-pack-'));
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', tmp], REPO, 60_000);
    const packed = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = path.join(tmp, packed[0].filename);
    packedFiles = packed[0].files.map((f) => f.path);

    project = path.join(tmp, 'consumer');
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'express-kernel-consumer', version: '1.0.0', private: true }, null, 2) + '\n',
    );
    const args = ['install', '--no-audit', '--no-fund', ...(IGNORE_SCRIPTS ? ['--ignore-scripts'] : []), tarball];
    await run('npm', args, project);
  }, 6 * 60_000);

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('the tarball holds the build, the sources its maps name, the templates and the README, and no tests', () => {
    expect(fs.existsSync(tarball)).toBe(true);
    expect(packedFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'src/index.ts']));
    expect(packedFiles.some((f) => f.startsWith('templates/'))).toBe(true);
    expect(packedFiles.filter((f) => /^(tests|node_modules)\//.test(f))).toEqual([]);
  });

  test('require() gives the public API', async () => {
    const code = `
      const k = require('express-kernel');
      const names = ${JSON.stringify(EXPORTED_FUNCTIONS)};
      console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, typeof k[n]]))));`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    expect(JSON.parse(stdout.trim())).toEqual(Object.fromEntries(EXPORTED_FUNCTIONS.map((n) => [n, 'function'])));
  });

  test('an ESM import gives named exports', async () => {
    const code = `
      import { Route, createKernel } from 'express-kernel';
      console.log(JSON.stringify([typeof Route, typeof createKernel]));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], project, 60_000);
    expect(JSON.parse(stdout.trim())).toEqual(['function', 'function']);
  });

  test("express-kernel/package.json resolves and the installed package carries its types", async () => {
    const code = `console.log(require.resolve('express-kernel/package.json'))`;
    const { stdout } = await run(process.execPath, ['-e', code], project, 60_000);
    const pkgJson = stdout.trim();
    expect(fs.realpathSync(pkgJson)).toBe(fs.realpathSync(path.join(project, 'node_modules', 'express-kernel', 'package.json')));
    expect(fs.existsSync(path.join(path.dirname(pkgJson), 'dist', 'index.d.ts'))).toBe(true);
  });
});
