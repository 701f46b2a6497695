/**
 * The README's runnable blocks: each fenced block preceded by a marker comment
 *
 *     <!-- readme-test: <kind> <group>[/<file>] -->   (the file may be in a folder: `config/routes.yaml`)
 *
 * where `kind` says what the test does with it:
 * - `install <group>`: the `npm install` lines (packages; `-D` for development ones) the group's
 *   consumer project gets;
 * - `file <group>/<file>`: written to that file of the group's folder;
 * - `serve <group>/<file>`: written, then started with tsx (`npx tsx <file>`); the group's commands run
 *   once it prints a line with `listening on` (any case);
 * - `console <group>`: a shell session: each `$ command` (a trailing `\` continues it) is run
 *   with bash in the group's folder, and the lines after it are its expected output, each
 *   matching one line of the actual output, in order (`…` matches anything);
 * - `output <group>`: what the group's server has printed (stdout and stderr) once its console
 *   sessions ran, matched as a console command's output (a line the program logs, e.g. an error
 *   it reported);
 * - `stop <group>`: what the group's server prints once it gets SIGTERM (after the console
 *   sessions), matched as a console command's output; a line `… exit code <n> …` there is also
 *   the exit code the process must end with;
 * - `postgres <group>`: the same program on PostgreSQL: its `npm install` lines join the group's,
 *   and the group's server and console sessions run a second time with `DATABASE_URL` naming a
 *   new database of a throwaway PostgreSQL server (tests/helpers/postgres.ts; skipped without
 *   postgresql, failing with CI=true).
 */

/** One marked block. */
export interface ReadmeBlock {
  readonly kind: 'install' | 'file' | 'serve' | 'console' | 'output' | 'stop' | 'postgres';
  readonly group: string;
  /** The file's path in the group's folder (`file`, `serve`; `config/routes.yaml`), else undefined. */
  readonly file?: string;
  readonly body: string;
  /** The README line of the marker, 1-based. */
  readonly line: number;
}

/** One command of a console block and the output lines it should print. */
export interface ConsoleStep {
  readonly command: string;
  readonly expected: readonly string[];
}

const MARKER = /^<!-- readme-test: (install|file|serve|console|output|stop|postgres) ([\w.-]+)(?:\/([\w.-]+(?:\/[\w.-]+)*))? -->$/;
const KINDS_WITH_FILE = new Set(['file', 'serve']);

/**
 * The marked blocks of a README, in order.
 * @throws Error for a marker without a fenced block right after it, or a file kind without a file name
 */
export function readmeBlocks(text: string): ReadmeBlock[] {
  const lines = text.split('\n');
  const blocks: ReadmeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i].trim());
    if (marker === null) continue;
    const [, kind, group, file] = marker;
    if (!lines[i + 1]?.startsWith('```')) throw new Error(`README line ${i + 1}: a readme-test marker needs a block right after it`);
    if (file?.split('/').includes('..') === true) throw new Error(`README line ${i + 1}: a file outside its group's folder`);
    if (KINDS_WITH_FILE.has(kind) !== (file !== undefined)) {
      throw new Error(`README line ${i + 1}: "${kind}" ${KINDS_WITH_FILE.has(kind) ? 'needs' : 'takes no'} a file name`);
    }
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`README line ${i + 1}: the block never closes`);
    blocks.push({ kind: kind as ReadmeBlock['kind'], group, file, body: lines.slice(i + 2, end).join('\n') + '\n', line: i + 1 });
    i = end;
  }
  return blocks;
}

/** The commands of a console block, with their expected output. */
export function consoleSteps(body: string): ConsoleStep[] {
  const steps: Array<{ command: string; expected: string[] }> = [];
  const lines = body.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1);
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('$ ')) {
      if (steps.length === 0) throw new Error(`console block: output before any command: ${lines[i]}`);
      steps[steps.length - 1].expected.push(lines[i]);
      continue;
    }
    let command = lines[i].slice(2);
    while (command.endsWith('\\') && i + 1 < lines.length) command = command.slice(0, -1) + lines[++i].trim();
    steps.push({ command, expected: [] });
  }
  return steps;
}

/** The packages of an install block's `npm install` lines. */
export function installedPackages(body: string): { dependencies: string[]; dev: string[] } {
  const result = { dependencies: [] as string[], dev: [] as string[] };
  for (const line of body.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] !== 'npm' || !['install', 'i'].includes(words[1])) continue;
    const dev = words.includes('-D') || words.includes('--save-dev');
    // `typescript@6` installs typescript (the version is the README's advice; the test has one copy)
    const names = words.slice(2).filter((w) => !w.startsWith('-')).map((w) => w.replace(/(?<=.)@[^/]*$/, ''));
    (dev ? result.dev : result.dependencies).push(...names);
  }
  return result;
}

/** The exit code a `stop` block announces (`… exit code 0 …`), or undefined when it names none. */
export function announcedExitCode(body: string): number | undefined {
  const match = /\bexit code (\d+)\b/.exec(body);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Whether `actual` shows each `expected` line, in order: a line matches when it is equal once
 * trailing white space is dropped, `…` standing for any text.
 * @returns the first expected line not found, or undefined when all are
 */
export function missingLine(expected: readonly string[], actual: string): string | undefined {
  const lines = actual.split(/\r?\n/).map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected) {
    const pattern = new RegExp('^' + want.trimEnd().split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
    const found = lines.findIndex((l, i) => i >= at && pattern.test(l));
    if (found < 0) return want;
    at = found + 1;
  }
  return undefined;
}
