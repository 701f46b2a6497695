/**
 * A throwaway Varnish for a test file: Debian's `varnishd` in the foreground, its working folder
 * in the run's temporary folder (tests/helpers/tempDir.ts), listening on a free port of 127.0.0.1
 * in front of a backend on 127.0.0.1, with the repository's VCL (docs/varnish/xkey.vcl: caches by
 * Cache-Control, purges by vmod xkey, says `X-Cache: HIT` or `MISS`). Suites check for it first
 * with `describeWith('varnishd')`. Not a test file itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './freePort';
import { missingMessage, programPath } from './requirements';
import { tempDir } from './tempDir';
import { scaled } from './timeScale';

/** The VCL the README documents. */
export const XKEY_VCL = path.resolve(__dirname, '..', '..', 'docs', 'varnish', 'xkey.vcl');

/** A varnishd started for a test. */
export interface TestVarnish {
  /** `http://127.0.0.1:<port>`: send requests (and purges) here. */
  readonly url: string;
  readonly port: number;
  /** Stops varnishd (SIGTERM, then waits for it to exit) and removes its folder. */
  stop(): Promise<void>;
}

async function connects(port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => { s.end(); resolve(true); });
    s.on('error', () => resolve(false));
  });
}

/**
 * Starts varnishd in front of `127.0.0.1:<backendPort>` with docs/varnish/xkey.vcl. No jail
 * (`-j none`: as root in CI it would switch to the `varnish` user, which cannot read the
 * temporary folder), no management port (`-T none`), 16 MB of memory storage.
 * @throws Error when varnishd or vmod xkey is missing, the VCL does not compile, or varnishd
 *   does not listen within 60 s (scaled by the machine's load: it compiles the VCL with cc)
 */
export async function startVarnish(backendPort: number): Promise<TestVarnish> {
  const binary = programPath('varnishd');
  if (binary === undefined) throw new Error(missingMessage('varnishd'));
  const dir = tempDir('ek-varnish-');
  const vcl = path.join(dir, 'test.vcl');
  fs.writeFileSync(vcl, fs.readFileSync(XKEY_VCL, 'utf8')
    .replace('.port = "8000";', `.port = "${backendPort}";`));
  const port = await freePort();
  const child: ChildProcess = spawn(binary, [
    '-F', '-j', 'none', '-T', 'none', '-n', path.join(dir, 'work'), '-a', `127.0.0.1:${port}`,
    '-f', vcl, '-s', 'malloc,16m', '-p', 'default_ttl=0',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => { output += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { output += d.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const remove = (): void => fs.rmSync(dir, { recursive: true, force: true });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (e) => reject(new Error(`varnishd (${binary}) did not start: ${e.message}`)));
    child.once('exit', (code, signal) => reject(new Error(`varnishd exited at start (code ${code}, signal ${signal}):\n${output}`)));
  });
  failed.catch(() => undefined); // only the race below reports it
  const listening = (async () => {
    const deadline = Date.now() + scaled(60_000);
    while (!(await connects(port))) {
      if (Date.now() > deadline) throw new Error(`varnishd did not listen on 127.0.0.1:${port}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    await Promise.race([listening, failed]);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
    remove();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      remove();
    },
  };
}
