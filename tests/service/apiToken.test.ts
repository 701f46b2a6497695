/**
 * The demo's bearer token as the service reads it from its environment: the documented demo
 * token never works with APP_ENV=prod; API_TOKEN does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_DEFAULTS } from '../../src/demo/app';
import { cleanEnv, freePort, killIfRunning, READY_LINE, startProcess, type ServerProcess } from './serverProcess';
import { scaled } from '../helpers/timeScale';

const REPO = path.resolve(__dirname, '..', '..');
const SERVER = path.join(REPO, 'dist', 'demo', 'server.js');
const OWN_TOKEN = 'k'.repeat(40);

/** Starts the service with `env`, runs `check(base)`, stops it. */
async function withServer(env: Record<string, string>, check: (base: string) => Promise<void>): Promise<void> {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing: run \`npm run build\` first (npm test does)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'express-kernel-token-'));
  const port = await freePort();
  let server: ServerProcess | undefined;
  try {
    server = await startProcess({
      command: process.execPath,
      args: [SERVER],
      cwd: REPO,
      env: cleanEnv({ HOST: '127.0.0.1', PORT: String(port), SQLITE_PATH: path.join(tmp, 'demo.sqlite'), ...env }),
      ready: READY_LINE,
      timeoutMs: 20_000,
    });
    await check(`http://127.0.0.1:${port}`);
  } finally {
    killIfRunning(server);
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The status of `GET /api/books` with `Authorization: Bearer <token>`. */
async function statusWith(base: string, token: string): Promise<number> {
  return (await fetch(`${base}/api/books`, { headers: { Authorization: `Bearer ${token}` } })).status;
}

describe('node dist/demo/server.js: API_TOKEN', () => {
  const prod = { APP_ENV: 'prod', APP_SECRET: 's'.repeat(40) };

  test('with APP_ENV=prod and no API_TOKEN, the demo token is a 401 (bearer tokens are off)', async () => {
    await withServer(prod, async (base) => {
      expect(await statusWith(base, DEMO_DEFAULTS.apiToken)).toBe(401);
    });
  }, scaled(30_000));

  test('with APP_ENV=prod and API_TOKEN set, that token works and the demo one does not', async () => {
    await withServer({ ...prod, API_TOKEN: OWN_TOKEN }, async (base) => {
      expect(await statusWith(base, OWN_TOKEN)).toBe(200);
      expect(await statusWith(base, DEMO_DEFAULTS.apiToken)).toBe(401);
    });
  }, scaled(30_000));

  test('in development the documented demo token works', async () => {
    await withServer({ APP_DEBUG: '0' }, async (base) => {
      expect(await statusWith(base, DEMO_DEFAULTS.apiToken)).toBe(200);
    });
  }, scaled(30_000));
});
