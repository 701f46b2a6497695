/**
 * The TypeScript range express-kernel states (`peerDependencies.typescript`, e.g. `>=5.6 <7`),
 * proven at both ends: the lowest TypeScript of the range and the newest below its upper bound
 * are installed from the npm registry (npm's own client, `--prefer-offline`: a second run reads
 * npm's cache) into the run's temporary folder, and each type-checks, strict and with
 * `skipLibCheck: false`, a consumer of the packed tarball: the pack test's consumer
 * (./consumer/app.ts: createKernel, the subpaths, profileOf, pino-http) and every TypeScript file
 * the README shows (./readmeBlocks.ts), with the packages the README's install lines name.
 *
 * Why the lower end is where it is: the declarations a consumer's check reads need it. zod 4 is
 * tested from TypeScript 5.5 (its `NoInfer` needs 5.4: TypeScript 5.2 stops at `Cannot find name
 * 'NoInfer'`), and the DefinitelyTyped packages the kernel's declarations import
 * (`@types/express-serve-static-core`, `@types/node`, `@types/better-sqlite3`) declare
 * `typeScriptVersion: 5.6`, the oldest TypeScript DefinitelyTyped tests them with.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv } from '../service/serverProcess';
import { scaled } from '../helpers/timeScale';
import { tempDir } from '../helpers/tempDir';
import { installConsumer, packInto, REPO } from './consumerProject';
import { installedPackages, readmeBlocks } from './readmeBlocks';

const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
};

/**
 * The ends of a `>=A.B <C` range.
 * @returns the lowest version (`A.B`, npm takes its newest patch) and the newest below `C` (`C-1`,
 *   npm takes its newest minor and patch)
 * @throws Error for a range of another shape
 */
function rangeEnds(range: string): { lowest: string; newest: string } {
  const match = /^>=(\d+\.\d+)(?:\.0)? <(\d+)$/.exec(range.trim());
  if (match === null) throw new Error(`peerDependencies.typescript is "${range}", not of the form ">=A.B <C"`);
  return { lowest: match[1], newest: String(Number(match[2]) - 1) };
}

/** Runs a command, resolving with what it printed (stdout and stderr) and its exit code. */
function run(cmd: string, args: string[], cwd: string, timeoutMs: number): Promise<{ output: string; code: number }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, env: cleanEnv(), timeout: scaled(timeoutMs), maxBuffer: 16 << 20, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ output: stdout + stderr, code: err === null ? 0 : Number(err.code ?? 1) }));
  });
}

const range = manifest.peerDependencies.typescript;
const ends = rangeEnds(range);
let tmp = '';
let project = '';

beforeAll(() => {
  for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/api/index.d.ts']) {
    if (!fs.existsSync(path.join(REPO, f))) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
  }
  tmp = tempDir('ek-typescript-range-');
  const { tarball } = packInto(tmp);
  project = path.join(tmp, 'consumer');
  const blocks = readmeBlocks(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8'));
  const readme = blocks.filter((b) => b.kind === 'install' || b.kind === 'postgres').map((b) => installedPackages(b.body));
  const extra = new Set(['pino-http', '@types/express', '@types/node', 'bcryptjs',
    ...readme.flatMap((w) => [...w.dependencies, ...w.dev])]);
  for (const p of ['express-kernel', 'typescript']) extra.delete(p);
  installConsumer(project, tarball, [...extra]);
  const files = ['app.ts'];
  fs.copyFileSync(path.join(__dirname, 'consumer', 'app.ts'), path.join(project, 'app.ts'));
  for (const b of blocks.filter((x) => x.file?.endsWith('.ts') === true)) {
    fs.mkdirSync(path.join(project, b.group), { recursive: true });
    fs.writeFileSync(path.join(project, b.group, b.file!), b.body);
    files.push(path.join(b.group, b.file!));
  }
  const compilerOptions = {
    module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true, skipLibCheck: false,
    esModuleInterop: true, noEmit: true, types: ['node', 'jest'],
  };
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }, null, 2));
}, scaled(2 * 60_000));

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test(`the README states the range of package.json, "${range}"`, () => {
  const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
  const stated = [...readme.matchAll(/typescript: "([^"]+)"/g)].map((m) => m[1]);
  expect(stated.length).toBeGreaterThan(0);
  expect([...new Set(stated)]).toEqual([range]);
  expect(readme).toContain(`TypeScript ${ends.lowest} to ${ends.newest}`);
});

test.each([['lowest', ends.lowest], ['newest', ends.newest]])(
  'the %s TypeScript of the range (typescript@%s from the npm registry) type-checks the consumer and the README\'s files',
  async (_which, version) => {
    const dir = path.join(tmp, `typescript-${version}`);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"typescript-install","private":true}\n');
    const install = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `typescript@${version}`], dir, 3 * 60_000);
    if (install.code !== 0) throw new Error(`npm install typescript@${version} failed:\n${install.output}`);
    const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
    const { output: installed } = await run(process.execPath, [tsc, '-v'], project, 60_000);
    expect(installed.trim()).toMatch(new RegExp(`^Version ${version.replace('.', '\\.')}\\.`));
    process.stdout.write(`typescript@${version}: ${installed.trim()}\n`);
    const check = await run(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], project, 4 * 60_000);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  },
  scaled(8 * 60_000),
);
