import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { rawRequest, type Base } from '../helpers/http';
import { scaled } from '../helpers/timeScale';

const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist');
/** The sources whose built output this test runs. */
const USED = ['support/sourceMaps', 'support/stackTrace', 'http/ErrorRenderer', 'profiler/stackFrames', 'kernel/errorHandler', 'kernel/createKernel'];

/** Builds dist/ (`tsc -p tsconfig.build.json`) when an output this test runs is missing or older than its source. */
function ensureBuilt(): void {
  const stale = USED.some((f) => {
    const built = path.join(DIST, `${f}.js`);
    return !fs.existsSync(built) || fs.statSync(built).mtimeMs < fs.statSync(path.join(ROOT, 'src', `${f}.ts`)).mtimeMs;
  });
  if (!stale) return;
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, encoding: 'utf8' });
  if (!fs.existsSync(path.join(DIST, 'index.js'))) throw new Error(`the build failed:\n${run.stdout}${run.stderr}`);
}

// The controller as a user writes it. Line 6 throws; its compiled line is another (the type import
// goes, a prologue comes), so only a source-mapped stack names line 6.
const CONTROLLER_TS = `import type { Request, Response } from 'express';

export function explode(_req: Request, _res: Response): never {
  const reason: string = 'thrown from TypeScript';
  // the next line throws
  throw new Error(reason);
}
`;

const SERVER_JS = `
const { createKernel, Route, RouteCollection } = require(${JSON.stringify(DIST)});
const { explode } = require('./controller.js');
const routes = new RouteCollection();
routes.add('explode', new Route('/explode', { controller: explode }));
const kernel = createKernel({ routes, debug: true, environment: 'test' });
const server = kernel.listen(0, '127.0.0.1', () => { process.stdout.write(server.address().port + '\\n'); });
`;

/** Starts the server script with plain node (no jest, no ts-node) and resolves with its address. */
function start(dir: string, nodeArgs: string[]): Promise<{ child: ChildProcess; base: Base }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, path.join(dir, 'server.js')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /^(\d+)\n/.exec(out)?.[1];
      if (port !== undefined) resolve({ child, base: { host: '127.0.0.1', port: Number(port) } });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}

describe('a controller written in TypeScript that throws, run from the built dist', () => {
  let dir: string;
  let controllerTs: string;
  beforeAll(() => {
    ensureBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ek-ts-debug-'));
    controllerTs = path.join(dir, 'controller.ts');
    const out = ts.transpileModule(CONTROLLER_TS, {
      fileName: controllerTs,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true },
    });
    fs.writeFileSync(controllerTs, CONTROLLER_TS);
    fs.writeFileSync(path.join(dir, 'controller.js'), out.outputText);
    fs.writeFileSync(path.join(dir, 'controller.js.map'), out.sourceMapText!);
    fs.writeFileSync(path.join(dir, 'server.js'), SERVER_JS);
  }, scaled(120_000));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // without a flag (the kernel reads the maps) and with Node's own --enable-source-maps (no double mapping)
  describe.each([[[] as string[]], [['--enable-source-maps']]])('node %j', (nodeArgs) => {
    let child: ChildProcess;
    let base: Base;
    beforeAll(async () => { ({ child, base } = await start(dir, nodeArgs)); });
    afterAll(() => { child.kill(); });

    test('X-Debug-Exception-File names the .ts file and the line that threw', async () => {
      const compiled = fs.readFileSync(path.join(dir, 'controller.js'), 'utf8').split('\n');
      expect(compiled.findIndex((l) => l.includes('throw new Error')) + 1).not.toBe(6);

      const res = await rawRequest(base, { method: 'GET', target: '/explode' });
      expect(res.status).toBe(500);
      expect(decodeURIComponent(String(res.headers['x-debug-exception-file']))).toBe(`${controllerTs}:6`);
      expect(res.body).toContain(`<li><code>at explode (${controllerTs}:6:`);
    });

    test('the exception page greys out the kernel\'s frames and not the controller\'s', async () => {
      const res = await rawRequest(base, { method: 'GET', target: '/explode' });
      const frames = [...res.body.matchAll(/<li( class="frame-vendor")?><code>at ([^<]*)<\/code>/g)].map((m) => ({ vendor: m[1] !== undefined, at: m[2] }));
      expect(frames[0]).toEqual({ vendor: false, at: expect.stringContaining(`${controllerTs}:6:`) });
      const kernelFrames = frames.filter((f) => f.at.includes(path.join(ROOT, 'src', 'kernel') + path.sep));
      expect(kernelFrames.length).toBeGreaterThan(0);
      expect(kernelFrames.every((f) => f.vendor)).toBe(true);
    });

    test('the exception panel names the .ts line, shows its source, and greys out the kernel\'s frames', async () => {
      const res = await rawRequest(base, { method: 'GET', target: '/explode' });
      const token = String(res.headers['x-debug-token']);
      const panel = await rawRequest(base, { method: 'GET', target: `/_profiler/${token}?panel=exception` });
      expect(panel.status).toBe(200);
      const frames = [...panel.body.matchAll(/<li class="(frame-vendor)?">\s*<code>([^<]*)<\/code>/g)].map((m) => ({ vendor: m[1] !== undefined, at: m[2] }));
      expect(frames[0]).toEqual({ vendor: false, at: expect.stringMatching(new RegExp(`^explode ${controllerTs.replace(/[.\\]/g, '\\$&')}:6:\\d+$`)) });
      expect(panel.body).toContain('<li class="selected"><code>  throw new Error(reason);</code></li>');
      const kernelFrames = frames.filter((f) => f.at.includes(path.join(ROOT, 'src', 'kernel') + path.sep));
      expect(kernelFrames.length).toBeGreaterThan(0);
      expect(kernelFrames.every((f) => f.vendor)).toBe(true);
    });
  });
});
