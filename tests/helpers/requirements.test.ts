/**
 * A suite that needs a missing program, run by a real jest in a child process: skipped with one
 * line naming the Debian package on a developer's machine, a loud failure with CI=true. The
 * program is made missing by pointing its path at a file that does not exist
 * (EXPRESS_KERNEL_TEST_REDIS_SERVER), as on a fresh Debian with only Node.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { missingMessage, overrideVariable, PROGRAM_NAMES, programPath } from './requirements';
import { scaled, TIME_SCALE_VARIABLE } from './timeScale';

const ROOT = path.resolve(__dirname, '..', '..');
const JEST = path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const SUITE = 'tests/session/redis.test.ts';
const LINE = `${SUITE} skipped: needs redis-server (apt-get install -y redis-server)`;

interface Run { status: number | null; output: string }

/** Runs jest on SUITE with redis-server missing, without jest's own variables (and with `ci`). */
function jestWithoutRedis(ci: boolean): Promise<Run> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (k !== 'CI' && !k.startsWith('JEST_')) env[k] = v;
  env[overrideVariable('redis-server')] = '/nonexistent/redis-server';
  if (ci) env.CI = 'true';
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [JEST, SUITE, '--maxWorkers=1', '--colors=false'], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => { output += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

jest.setTimeout(scaled(120_000));

describe('has(program) and describeWith(program)', () => {
  it("are documented in the README under the names they read: one override per program, and the time scale", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const named = [...new Set([...readme.matchAll(/`(EXPRESS_KERNEL_TEST_[A-Z_]+)/g)].map((m) => m[1]))].sort();
    expect(PROGRAM_NAMES).toEqual(expect.arrayContaining(['chromium', 'redis-server', 'php', 'postgresql']));
    expect(named).toEqual([...PROGRAM_NAMES.map(overrideVariable), TIME_SCALE_VARIABLE].sort());
  });

  it('find redis-server here, and nothing where its path is overridden with a missing file', () => {
    expect(programPath('redis-server')).toMatch(/\/redis-server$/);
    process.env[overrideVariable('redis-server')] = '/nonexistent/redis-server';
    try {
      expect(programPath('redis-server')).toBeUndefined();
    } finally {
      delete process.env[overrideVariable('redis-server')];
    }
    expect(missingMessage('php')).toBe('needs php (apt-get install -y php-cli php-symfony-routing php-symfony-yaml php-symfony-config)');
  });

  it('find PostgreSQL\'s initdb in Debian\'s versioned folder, off PATH', () => {
    expect(programPath('postgresql')).toMatch(/^\/usr\/lib\/postgresql\/\d+\/bin\/initdb$/);
    expect(missingMessage('postgresql')).toBe('needs postgresql (apt-get install -y postgresql)');
  });

  it('skip a suite whose program is missing with one line naming the Debian package, and pass', async () => {
    const run = await jestWithoutRedis(false);
    expect(run.output.split('\n').filter((l) => l.includes('skipped: needs'))).toEqual([LINE]);
    expect(run.output).toMatch(/Tests:\s+\d+ skipped, \d+ total/);
    expect(run.output).not.toMatch(/did not listen|TypeError/);
    expect(run.status).toBe(0);
  });

  it('fail such a suite with CI=true, saying what to install', async () => {
    const run = await jestWithoutRedis(true);
    expect(run.output).toContain(`${SUITE} needs redis-server (apt-get install -y redis-server): not found, and CI=true forbids skipping`);
    expect(run.output).toMatch(/Tests:\s+1 failed/);
    expect(run.output).not.toMatch(/did not listen|TypeError/);
    expect(run.status).toBe(1);
  });
});
