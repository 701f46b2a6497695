/**
 * The system programs some suites need (redis-server, Chromium, PHP with Symfony's routing,
 * PostgreSQL's server, varnishd with vmod xkey), looked
 * up before the suite runs. Missing on a developer's machine: the suite is skipped with one line,
 *   tests/session/redis.test.ts skipped: needs redis-server (apt-get install -y redis-server)
 * Missing with CI=true (as `.ci/run` sets): one failing test says what to install instead.
 * Not a test file itself.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Program = 'redis-server' | 'chromium' | 'php' | 'postgresql' | 'varnishd';

interface Lookup {
  /** Debian packages that provide it */
  packages: string;
  /** absolute candidates, then names looked up on PATH */
  candidates: string[];
  /** other files it needs (Debian's Symfony routing for php) */
  needs?: string[];
}

const PROGRAMS: Record<Program, Lookup> = {
  'redis-server': { packages: 'redis-server', candidates: ['redis-server'] },
  // the real binary first: Debian's /usr/bin/chromium is a wrapper script
  chromium: { packages: 'chromium', candidates: ['/usr/lib/chromium/chromium', 'chromium'] },
  php: {
    packages: 'php-cli php-symfony-routing php-symfony-yaml php-symfony-config',
    candidates: ['php'],
    needs: ['Routing', 'Yaml', 'Config'].map((c) => `/usr/share/php/Symfony/Component/${c}/autoload.php`),
  },
  // Debian keeps the server's programs off PATH, one folder per major version: the newest first
  postgresql: {
    packages: 'postgresql',
    candidates: [...postgresBinDirs().map((d) => path.join(d, 'initdb')), 'initdb'],
  },
  // Debian keeps varnishd in /usr/sbin; vmod xkey (the HTTP cache's purges) is in varnish-modules
  varnishd: {
    packages: 'varnish varnish-modules',
    candidates: ['/usr/sbin/varnishd', 'varnishd'],
    needs: [xkeyVmod()],
  },
};

/** Debian's vmod xkey (`/usr/lib/<multiarch>/varnish/vmods/libvmod_xkey.so`), or where it would be. */
export function xkeyVmod(): string {
  const lib = '/usr/lib';
  let dirs: string[] = [];
  try { dirs = fs.readdirSync(lib).filter((d) => d.endsWith('-linux-gnu')); } catch { /* no /usr/lib */ }
  const found = dirs.map((d) => path.join(lib, d, 'varnish', 'vmods', 'libvmod_xkey.so')).find((f) => fs.existsSync(f));
  return found ?? path.join(lib, 'x86_64-linux-gnu', 'varnish', 'vmods', 'libvmod_xkey.so');
}

/** The programs this helper looks up, in the order the README's table names their variables. */
export const PROGRAM_NAMES = Object.keys(PROGRAMS) as Program[];

/** `/usr/lib/postgresql/<major>/bin` folders, newest major first. */
function postgresBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  let majors: string[] = [];
  try { majors = fs.readdirSync(root).filter((d) => /^\d+$/.test(d)); } catch { /* not installed */ }
  return majors.sort((a, b) => Number(b) - Number(a)).map((m) => path.join(root, m, 'bin'));
}

/**
 * The environment variable that replaces a program's path, for tests of this helper (a path that
 * does not exist makes the program missing): `EXPRESS_KERNEL_TEST_REDIS_SERVER`, `..._CHROMIUM`, `..._PHP`,
 * `..._POSTGRESQL`, `..._VARNISHD` (the README's testing paragraph lists them; requirements.test.ts keeps it in step).
 */
export function overrideVariable(program: Program): string {
  return `EXPRESS_KERNEL_TEST_${program.toUpperCase().replace(/-/g, '_')}`;
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The program's absolute path, or undefined when it (or a file it needs) is missing. */
export function programPath(program: Program): string | undefined {
  const lookup = PROGRAMS[program];
  const override = process.env[overrideVariable(program)];
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const candidates = override !== undefined && override !== '' ? [override] : lookup.candidates;
  const found = candidates
    .flatMap((c) => (path.isAbsolute(c) ? [c] : dirs.map((d) => path.join(d, c))))
    .find(executable);
  if (found === undefined || !(lookup.needs ?? []).every((f) => fs.existsSync(f))) return undefined;
  return found;
}

/** `needs redis-server (apt-get install -y redis-server)`: what is missing and the line that installs it. */
export function missingMessage(program: Program): string {
  return `needs ${program} (apt-get install -y ${PROGRAMS[program].packages})`;
}

const reported = new Set<Program>();

/**
 * Whether `program` is installed. When it is not, says so once per test file: without CI, one
 * line on stderr (`<file> skipped: needs …`); with CI=true, a failing test named for it.
 * Call at the top of a test file, and leave out (or skip) what needs the program when false.
 */
export function has(program: Program): boolean {
  if (programPath(program) !== undefined) return true;
  if (!reported.has(program)) {
    reported.add(program);
    const file = path.relative(process.cwd(), expect.getState().testPath ?? 'a test file');
    if (process.env.CI === 'true') {
      test(missingMessage(program), () => {
        throw new Error(`${file} ${missingMessage(program)}: not found, and CI=true forbids skipping`);
      });
    } else {
      process.stderr.write(`${file} skipped: ${missingMessage(program)}\n`);
    }
  }
  return false;
}

/** `describe` when `program` is installed, else a skipped describe (see {@link has}). */
export function describeWith(program: Program): jest.Describe {
  return has(program) ? describe : describe.skip;
}
