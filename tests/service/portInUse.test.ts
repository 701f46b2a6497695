/**
 * `node dist/demo/server.js` started twice on one port: the second reports the port in use as one
 * line on stderr and exits 2, without a stack trace.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, freePort, killIfRunning, READY_LINE, startProcess, type ServerProcess } from './serverProcess';
import { scaled } from '../helpers/timeScale';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');

describe('node dist/demo/server.js on a port in use', () => {
  let first: ServerProcess | undefined;
  let dir = '';
  let env: NodeJS.ProcessEnv = {};
  let port = 0;

  beforeAll(async () => {
    if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-port-'));
    port = await freePort();
    // no profiler (APP_DEBUG=0) and the demo's SQLite in a temporary directory: nothing written to the repository
    env = cleanEnv({ HOST: '127.0.0.1', PORT: String(port), APP_DEBUG: '0', SQLITE_PATH: path.join(dir, 'demo.sqlite') });
    first = await startProcess({
      command: process.execPath, args: [SERVER], cwd: REPO, env, ready: READY_LINE, timeoutMs: 20_000,
    });
  }, scaled(30_000));

  afterAll(() => {
    killIfRunning(first);
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the second process prints one line naming PORT and EADDRINUSE on stderr and exits 2', async () => {
    const second = spawn(process.execPath, [SERVER], { cwd: REPO, env });
    let stdout = '';
    let stderr = '';
    second.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    second.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const code = await new Promise<number | null>((resolve) => second.on('close', resolve));
    expect({ code, stdout, stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `PORT ${port} is in use (EADDRINUSE): another process listens on 127.0.0.1:${port}; stop it or set PORT to a free port.\n`,
    });
  }, scaled(30_000));
});
