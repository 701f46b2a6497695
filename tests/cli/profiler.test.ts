import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RedisProfilerStorage } from '../../src/profiler/storage/RedisProfilerStorage';
import { DEFAULT_SQLITE_PATH, SqliteProfilerStorage } from '../../src/profiler/storage/SqliteProfilerStorage';
import { startRedis, TestRedis } from '../helpers/redis';
import { describeWith } from '../helpers/requirements';
import { makeProfile } from '../profiler/storage/profiles';
import { CLI, ensureCliBuilt, ROOT } from './builtCli';
import { scaled } from '../helpers/timeScale';

// Runs the built console (dist/cli/main.js) as a real process against real stores.

interface Run { status: number | null; stdout: string; stderr: string }

/** Runs the console in `cwd` without blocking the event loop (the Redis tests' server lives in this process). */
function cliIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  const { REDIS_URL: _r, PROFILER_SQLITE: _p, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...inherited, COLUMNS: '120', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the console in the project root. */
const cli = (env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> => cliIn(ROOT, env, ...args);

const tokensIn = (output: string): string[] => [...output.matchAll(/^ {2}([0-9a-f]{6}) /gm)].map((m) => m[1]);

let dir: string;
let file: string;

beforeAll(async () => {
  ensureCliBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-cli-profiler-'));
  file = path.join(dir, 'profiler.sqlite');
  const store = new SqliteProfilerStorage({ sqlitePath: file, now: () => makeProfile('x', 10).time });
  await store.write(makeProfile('aaaaaa', 1, { method: 'GET', statusCode: 200 }));
  await store.write(makeProfile('bbbbbb', 2, { method: 'POST', statusCode: 201 }));
  await store.write(makeProfile('cccccc', 3, { method: 'GET', statusCode: 404 }));
  await store.close();
}, scaled(180_000));

afterAll(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
});

describe('express-kernel profiler:list', () => {
  it('lists the profiles of --sqlite <path>, newest first, whatever their age', async () => {
    const run = await cli({}, 'profiler:list', '--sqlite', file);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ {2}Token +IP +Method +Status +URL +Time +$/m);
    expect(tokensIn(run.stdout)).toEqual(['cccccc', 'bbbbbb', 'aaaaaa']);
    expect(run.stdout).toContain('  cccccc   127.0.0.1   GET      404      http://localhost/page/cccccc   2024-01-01T00:00:03.000Z  ');
  });

  it('reads the file from PROFILER_SQLITE when no option is given', async () => {
    const run = await cli({ PROFILER_SQLITE: file }, 'profiler:list', '--method', 'get', '--limit', '1');
    expect(run.status).toBe(0);
    expect(tokensIn(run.stdout)).toEqual(['cccccc']);
  });

  it('passes every filter on', async () => {
    const run = await cli({}, 'profiler:list', '--sqlite', file, '--ip', '127.0', '--status', '201', '--url', '/page/',
      '--start', '2024-01-01T00:00:02Z', '--end', String(makeProfile('x', 2).time));
    expect(tokensIn(run.stdout)).toEqual(['bbbbbb']);
  });

  it('prints an [ERROR] block and exits 1 for a bad --status', async () => {
    const run = await cli({}, 'profiler:list', '--sqlite', file, '--status', 'abc');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(' [ERROR] The "--status" option expects a whole number from 100 to 599, "abc" given.');
  });

  it('refuses --sqlite with --redis on stderr, exit 1', async () => {
    const run = await cli({}, 'profiler:list', '--sqlite', file, '--redis', 'redis://127.0.0.1:1');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('  The "--sqlite" and "--redis" options cannot be used together: choose one store.  ');
    expect(run.stderr).toContain('profiler:list [--ip IP]');
  });
});

describe('express-kernel profiler:* never create a store', () => {
  it.each(['profiler:list', 'profiler:purge'])('%s --sqlite <missing file>: an error naming the file and --sqlite, exit 1, no file', async (command) => {
    const missing = path.join(dir, 'nested', 'missing.sqlite');
    const run = await cli({ COLUMNS: '400' }, command, '--sqlite', missing);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`The SQLite file "${missing}" (${missing}, from the "--sqlite <path>" option) does not exist, `
      + 'and the profiler commands do not create it: pass the file the service writes its profiles to with "--sqlite <path>", '
      + 'or a Redis store with "--redis <url>".');
    expect(fs.existsSync(path.dirname(missing))).toBe(false);
  });

  it('with no option, says the default file is missing without creating var/', async () => {
    const cwd = fs.mkdtempSync(path.join(dir, 'cwd-'));
    const run = await cliIn(cwd, { COLUMNS: '400' }, 'profiler:list');
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`(${path.join(cwd, DEFAULT_SQLITE_PATH)}, from the default) does not exist`);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it.each([
    [['--redis', 'localhost:6379'], {}, 'The Redis URL "localhost:6379" given by the "--redis <url>" option is not a redis:// or rediss:// URL'],
    [[], { REDIS_URL: 'localhost:6379' }, 'The Redis URL "localhost:6379" given by REDIS_URL (or the "--redis <url>" option) is not'],
    [['--redis', 'redis://127.0.0.1:1'], {}, 'Cannot connect to Redis at "redis://127.0.0.1:1" given by the "--redis <url>" option: '],
    [[], { REDIS_URL: 'redis://127.0.0.1:1' }, 'Cannot connect to Redis at "redis://127.0.0.1:1" given by REDIS_URL (or the "--redis <url>" option): '],
  ])('a bad or unreachable Redis (%j %j) is an error naming the flag, exit 1', async (args, env, message) => {
    const run = await cli({ COLUMNS: '400', ...env }, 'profiler:list', ...args);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toContain('Invalid option "profiler.storage');
  });
});

describe('express-kernel profiler:purge', () => {
  it('deletes every profile of the file', async () => {
    const copy = path.join(dir, 'purged.sqlite');
    fs.copyFileSync(file, copy);
    const run = await cli({}, 'profiler:purge', '--sqlite', copy);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(' [OK] All profiles were purged.');
    const after = await cli({}, 'profiler:list', '--sqlite', copy);
    expect(after.stdout).toContain(' [INFO] No profiles found.');
  });
});

describeWith('redis-server')('express-kernel profiler:* on Redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
    const store = await RedisProfilerStorage.open(redis.url);
    await store.write(makeProfile('dddddd', 1, { time: Date.now() }));
    await store.close();
  });
  afterAll(async () => { await redis?.stop(); });

  it('lists the profiles of --redis <url>, then of REDIS_URL, and purges them', async () => {
    expect(tokensIn((await cli({}, 'profiler:list', '--redis', redis.url)).stdout)).toEqual(['dddddd']);
    expect(tokensIn((await cli({ REDIS_URL: redis.url }, 'profiler:list')).stdout)).toEqual(['dddddd']);
    expect((await cli({ REDIS_URL: redis.url }, 'profiler:purge')).status).toBe(0);
    expect((await cli({}, 'profiler:list', '--redis', redis.url)).stdout).toContain(' [INFO] No profiles found.');
  });
});
