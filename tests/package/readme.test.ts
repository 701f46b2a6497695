/**
 * The README, executed (issue 29): every block it marks with `<!-- readme-test: … -->` (see
 * ./readmeBlocks.ts) runs against the packed tarball, installed in a fresh consumer project with
 * the packages the README's own `npm install` lines name, so a README that drifts from the code
 * fails here. Each group (`five-minutes`, …) gets its folder in that project; its servers listen
 * on free ports in place of the README's 8000, 8001…, on 127.0.0.1.
 *
 * No network: the project is laid out from this repository's node_modules (./consumerProject.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, freePort, killIfRunning, startProcess, stopProcess, type ServerProcess } from '../service/serverProcess';
import { startPostgres, type TestPostgres } from '../helpers/postgres';
import { describeWith } from '../helpers/requirements';
import { scaled } from '../helpers/timeScale';
import { installConsumer, packInto, REPO } from './consumerProject';
import {
  announcedExitCode, consoleSteps, installedPackages, missingLine, readmeBlocks, type ReadmeBlock,
} from './readmeBlocks';

const blocks = readmeBlocks(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8'));
const groups = [...new Set(blocks.map((b) => b.group))];
const TSC = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

let tmp = '';
let project = '';

/** Runs a shell command in `cwd` and resolves with what it printed (stdout and stderr), whatever its exit code. */
function shell(command: string, cwd: string, timeoutMs: number): Promise<string> {
  const env = cleanEnv({ PATH: `${path.join(project, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, NO_COLOR: '1' });
  return new Promise((resolve) => {
    execFile('bash', ['-c', `${command} 2>&1`], { cwd, env, timeout: timeoutMs, encoding: 'utf8', maxBuffer: 16 << 20 },
      (_err, stdout) => resolve(stdout));
  });
}

/** The README's ports (8000, 8001…) replaced by the group's free ones. */
const atPort = (text: string, ports: readonly number[]): string =>
  text.replace(/\b800(\d)\b/g, (_, i: string) => String(ports[Number(i)]));

beforeAll(() => {
  for (const f of ['dist/index.js', 'dist/api/index.js', 'dist/cli/main.js']) {
    if (!fs.existsSync(path.join(REPO, f))) throw new Error(`${f} is missing: run \`npm run build\` first (npm test does)`);
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-readme-'));
  const { tarball } = packInto(tmp);
  project = path.join(tmp, 'consumer');
  const wanted = blocks.filter((b) => b.kind === 'install' || b.kind === 'postgres').map((b) => installedPackages(b.body));
  const extra = [...new Set(wanted.flatMap((w) => [...w.dependencies, ...w.dev]))].filter((p) => p !== 'express-kernel');
  installConsumer(project, tarball, extra);
}, scaled(2 * 60_000));

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('the README marks its runnable blocks: each section\'s program, console sessions and files', () => {
  expect(blocks.map((b) => `${b.kind} ${b.group}`)).toEqual(expect.arrayContaining([
    'install five-minutes', 'serve five-minutes', 'console five-minutes', 'console library', 'console testing',
    'console cli', 'serve properties', 'serve formats', 'serve http-cache', 'output http-cache', 'serve host-errors',
    'output host-errors', 'file yaml-routes', 'serve yaml-routes', 'file cli', 'serve profiler-panel',
    'file profiler-panel', 'file five-minutes', 'serve identifiers', 'console identifiers', 'serve embedding',
    'console embedding', 'serve state', 'console state', 'output state',
  ]));
  for (const block of blocks.filter((b) => b.kind === 'console')) expect(consoleSteps(block.body).length).toBeGreaterThan(0);
});

/**
 * Waits until `server` has printed the `expected` lines (as {@link missingLine} matches them), or has exited.
 * @returns the first line still missing once the process exited, else undefined
 */
function printedOrExited(server: ServerProcess, expected: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const check = (): void => {
      const missing = missingLine(expected, server.output());
      if (missing === undefined) done(undefined);
    };
    const done = (result: string | undefined): void => {
      server.child.stdout?.off('data', check);
      server.child.stderr?.off('data', check);
      resolve(result);
    };
    // listeners added after startProcess's own, so output() already holds the chunk
    server.child.stdout?.on('data', check);
    server.child.stderr?.on('data', check);
    void server.exited.then(() => done(missingLine(expected, server.output())));
    check();
  });
}

/** A second run of a group's server and sessions with its environment changed (the PostgreSQL variant). */
interface Variant {
  readonly name: string;
  /** Prepares the variant (a server, a database) and returns the server's extra environment. */
  readonly start: () => Promise<Record<string, string>>;
  readonly stop: () => Promise<void>;
}

function postgresVariant(group: string): Variant {
  let pg: TestPostgres | undefined;
  return {
    name: 'on PostgreSQL',
    start: async () => {
      pg = await startPostgres();
      return { DATABASE_URL: await pg.createDatabase(`readme_${group.replace(/\W/g, '_')}`) };
    },
    stop: async () => { await pg?.stop(); },
  };
}

/**
 * The tests of one group: its files written, its server started (with `variant`'s environment),
 * each console command run, then the server stopped as its `stop` block says.
 */
function describeGroup(group: string, variant?: Variant): void {
  const own = blocks.filter((b) => b.group === group);
  const dir = (): string => path.join(project, group);
  const ports: number[] = [];
  let server: ServerProcess | undefined;
  const serve = own.find((b) => b.kind === 'serve');
  const stop = own.find((b) => b.kind === 'stop');

  beforeAll(async () => {
    while (ports.length < 10) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    fs.mkdirSync(dir(), { recursive: true });
    for (const b of own.filter((x): x is ReadmeBlock & { file: string } => x.file !== undefined)) {
      fs.mkdirSync(path.dirname(path.join(dir(), b.file)), { recursive: true });
      fs.writeFileSync(path.join(dir(), b.file), atPort(b.body, ports));
    }
    const env = variant === undefined ? {} : await variant.start();
    if (serve !== undefined) {
      // `npx tsx app.ts` as one process (tsx's own command forks a second one, which a kill misses)
      server = await startProcess({
        command: process.execPath, args: ['--import', 'tsx', serve.file!], cwd: dir(),
        env: cleanEnv(env), ready: /listening on/i, timeoutMs: 60_000,
      });
    }
  }, scaled(2 * 60_000));

  afterAll(async () => {
    killIfRunning(server);
    await variant?.stop();
  });

  const steps = own.filter((b) => b.kind === 'console')
    .flatMap((b) => consoleSteps(b.body).map((s) => ({ ...s, line: b.line })));
  if (steps.length > 0) {
    test.each(steps)('$ $command', async ({ command, expected, line }) => {
      const output = await shell(atPort(command, ports), dir(), scaled(60_000));
      const missing = missingLine(expected.map((e) => atPort(e, ports)), output);
      if (missing !== undefined) {
        throw new Error(`README block at line ${line}: "${command}" did not print\n  ${missing}\nIt printed:\n${output}`);
      }
    }, scaled(90_000));
  }
  for (const output of own.filter((b) => b.kind === 'output')) {
    test(`the server prints what line ${output.line} shows`, async () => {
      const expected = output.body.trimEnd().split('\n').map((e) => atPort(e, ports));
      // a line the program logs after it answered (a warning is written on the next tick) may still be in the pipe
      const missing = await printedOrExited(server!, expected);
      if (missing !== undefined) {
        throw new Error(`README block at line ${output.line}: the server did not print\n  ${missing}\nIt printed:\n${server!.output()}`);
      }
    }, scaled(30_000));
  }
  if (stop !== undefined) {
    test(`on SIGTERM the server prints what line ${stop.line} shows and exits as it says`, async () => {
      const before = server!.output().length;
      const { code } = await stopProcess(server!, 'SIGTERM', 30_000);
      const output = server!.output().slice(before);
      const missing = missingLine(stop.body.trimEnd().split('\n').map((e) => atPort(e, ports)), output);
      if (missing !== undefined) throw new Error(`README block at line ${stop.line}: the server did not print\n  ${missing}\nIt printed:\n${output}`);
      const announced = announcedExitCode(stop.body);
      if (announced !== undefined) expect(code).toBe(announced);
    }, scaled(60_000));
  }
}

describe.each(groups)('README group "%s"', (group) => { describeGroup(group); });

for (const group of [...new Set(blocks.filter((b) => b.kind === 'postgres').map((b) => b.group))]) {
  describeWith('postgresql')(`README group "${group}" on PostgreSQL (DATABASE_URL)`, () => {
    describeGroup(group, postgresVariant(group));
  });
}

test("the README's TypeScript files type-check in a strict project (skipLibCheck: false)", async () => {
  const files = blocks.filter((b) => b.file?.endsWith('.ts')).map((b) => path.join(b.group, b.file!));
  const tsconfig = {
    compilerOptions: {
      module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', strict: true, skipLibCheck: false,
      esModuleInterop: true, noEmit: true, types: ['node', 'jest'],
    },
    files,
  };
  fs.writeFileSync(path.join(project, 'tsconfig.readme.json'), JSON.stringify(tsconfig, null, 2));
  const output = await shell(`node ${TSC} -p tsconfig.readme.json --pretty false; echo "exit $?"`, project, scaled(3 * 60_000));
  expect(output).toBe('exit 0\n');
}, scaled(4 * 60_000));
