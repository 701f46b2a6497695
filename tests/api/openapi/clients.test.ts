/**
 * The README's section "Using API Platform's clients", run as written against the demo on real
 * HTTP (127.0.0.1, a temporary SQLite file), each command a child process in a temporary folder:
 * - the client generator (`npm init @api-platform/client`, TypeScript interfaces and a Next app
 *   from the Hydra documentation);
 * - curl, Redocly's `spec` rules, openapi-typescript with its default options, `tsc --strict`,
 *   tsx (`npm install` is checked to name devDependencies instead), and its typed openapi-fetch
 *   client doing create, read, merge-patch and delete as the demo's admin.
 * API Platform Admin (a Vite app in a browser) is not run here.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createDemoKernel, type DemoKernel } from '../../../src/demo/app';
import { listen, type Listening } from '../../helpers/http';
import { tempDir } from '../../helpers/tempDir';
import { scaled } from '../../helpers/timeScale';

const ROOT = path.resolve(__dirname, '../../..');
/** Where the README's commands point: the demo's address after `npm start`. */
const README_BASE = 'http://127.0.0.1:8000';

interface Ran { command: string; code: number | null; stdout: string; stderr: string }

/** Runs one command line (words separated by spaces, no quoting) in `cwd`; never rejects. */
function run(line: string, cwd: string): Promise<Ran> {
  const [file, ...args] = line.split(/\s+/);
  return new Promise((resolve) => {
    execFile(file, args, {
      cwd,
      maxBuffer: 16 * 1024 * 1024,
      env: {
        ...process.env,
        // npx runs the devDependencies (node_modules is linked in) and never downloads one
        npm_config_yes: 'false',
        // no network but 127.0.0.1 and the registry: Redocly's telemetry and update check off
        REDOCLY_TELEMETRY: 'off',
        REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
      },
    }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ command: line, code, stdout, stderr });
    });
  });
}

/** The README's section on API Platform's clients: its fenced blocks, and what it says the client prints. */
function readmeSection(): { blocks: Array<{ lang: string; body: string }>; text: string } {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('### Using API Platform\'s clients');
  expect(start).toBeGreaterThan(-1);
  const end = readme.indexOf('\n##', start + 4);
  const text = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2] }));
  return { blocks, text };
}

/** A folder for one of the README's projects: ESM (top-level await), the repository's packages linked in. */
function project(name: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(folder, 'node_modules'), 'dir');
  return folder;
}

/** Runs a command and expects it to succeed, showing its output when it does not. */
async function succeeds(line: string, cwd: string): Promise<Ran> {
  const ran = await run(line.replaceAll(README_BASE, base), cwd);
  expect({ command: ran.command, code: ran.code, output: ran.code === 0 ? '' : ran.stdout + ran.stderr })
    .toEqual({ command: ran.command, code: 0, output: '' });
  return ran;
}

let dir: string;
let work: string;
let kernel: DemoKernel;
let server: Listening;
let base: string;
let section: ReturnType<typeof readmeSection>;

beforeAll(async () => {
  dir = tempDir('ek-clients-');
  work = project('client');
  kernel = createDemoKernel({ debug: false, sqlitePath: path.join(dir, 'demo.sqlite') });
  server = await listen(kernel);
  base = `http://${server.host}:${server.port}`;
  section = readmeSection();
});

afterAll(async () => {
  await server?.close();
  await kernel?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('openapi-typescript and openapi-fetch on the demo, as the README says', () => {
  test('Redocly finds nothing; the generated types compile a strict client that creates, reads, patches and deletes', async () => {
    const commands = section.blocks.find((b) => b.lang === 'sh' && b.body.includes('npx openapi-typescript'));
    const client = section.blocks.find((b) => b.lang === 'ts' && b.body.includes('openapi-fetch'));
    expect(commands).toBeDefined();
    expect(client).toBeDefined();
    fs.writeFileSync(path.join(work, 'client.ts'), client!.body.replaceAll(README_BASE, base));

    const devDependencies = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
      .devDependencies as Record<string, string>);
    const results: Ran[] = [];
    for (const line of commands!.body.trim().split('\n').map((l) => l.trim())) {
      const install = /^npm install (.+)$/.exec(line);
      if (install !== null) {
        expect(devDependencies).toEqual(expect.arrayContaining(install[1].split(/\s+/).filter((w) => w !== '-D')));
        continue;
      }
      results.push(await succeeds(line, work));
    }
    expect(results.map((r) => r.command.split(' ').slice(0, 2).join(' '))).toEqual([
      'curl -s', 'npx @redocly/cli', 'npx openapi-typescript', 'npx tsc', 'npx tsx',
    ]);

    // the document the tools read is the live one
    const live: unknown = await (await fetch(`${base}/api/docs.json`)).json();
    expect(JSON.parse(fs.readFileSync(path.join(work, 'openapi.json'), 'utf8'))).toEqual(live);
    // Redocly's spec rules: no error, no warning
    expect(results[1].stdout + results[1].stderr).toContain('Your API description is valid');
    // (beside its own notice that Node.js 20 support is ending)
    expect(results[1].stdout + results[1].stderr).not.toMatch(/\b\d+ (?:errors?|warnings?)\b/i);
    // tsc --strict: nothing to say
    expect(results[3].stdout + results[3].stderr).toBe('');

    // the client's three lines, as the README says it prints them
    const printed = results[4].stdout.trim().split('\n');
    expect(printed).toEqual(['read The Left Hand of Darkness', 'patched 12.5 false', 'deleted 204']);
    for (const line of printed) expect(section.text).toContain(`\`${line}\``);
    // and the book is gone from the demo
    const books = await (await fetch(`${base}/api/books?title=Left%20Hand`, { headers: { Accept: 'application/json' } }))
      .json() as unknown[];
    expect(books).toEqual([]);
  }, scaled(300_000));
});

describe('the client generator on the demo\'s Hydra documentation, as the README says', () => {
  test('writes TypeScript interfaces for Book and Author, and a Next app for books', async () => {
    const commands = section.blocks.find((b) => b.lang === 'sh' && b.body.includes('@api-platform/client'));
    const lines = commands!.body.trim().split('\n').map((l) => l.trim());
    expect(lines.map((l) => /--generator (\w+)/.exec(l)?.[1])).toEqual(['typescript', 'next']);
    const generated = project('generated');
    for (const line of lines) await succeeds(line, generated);

    const read = (file: string): string => fs.readFileSync(path.join(generated, 'src', file), 'utf8');
    expect(read('interfaces/book.ts')).toMatch(/export interface Book \{[^}]*\btitle: string;/);
    expect(read('interfaces/author.ts')).toMatch(/export interface Author \{[^}]*\bname: string;/);
    expect(read('config/entrypoint.ts')).toContain(`"${base}/api"`);
    for (const page of ['index.tsx', 'create.tsx', '[id]/index.tsx', '[id]/edit.tsx']) {
      expect([page, fs.existsSync(path.join(generated, 'src/pages/books', page))]).toEqual([page, true]);
    }
  }, scaled(300_000));
});
