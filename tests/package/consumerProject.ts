/**
 * A consumer project for the packed tarball, built without the network.
 *
 * `npm install --offline <tarball>` cannot work here: `npm ci` caches the tarballs the lockfile
 * names but not the registry's package documents, and npm needs those to resolve a range. So
 * the project is laid out by hand, as npm would: the tarball is unpacked into
 * `node_modules/express-kernel`, and each package the consumer can reach is a symbolic link to
 * this repository's copy. What it can reach is the closure of express-kernel's `dependencies`
 * (resolved as Node does, from the requiring package's folder up) plus the packages the consumer
 * itself asks for. Our devDependencies and optional peers are NOT linked unless asked for, so a
 * declaration or a `require` that needs one of them fails here as it would for a user.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '..', '..');
const REPO_MODULES = path.join(REPO, 'node_modules');

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function manifestOf(dir: string): Manifest {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The folder Node would load `name` from when required from `fromDir`, or undefined. */
function resolvePackageDir(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === REPO || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The top-level packages of this repository's node_modules reachable from `roots` through
 * `dependencies` and non-optional `peerDependencies`.
 * @param roots - package names to start from
 * @returns their names, roots included
 */
export function dependencyClosure(roots: readonly string[], manifest: Manifest): Set<string> {
  const top = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string): void => {
    const dir = resolvePackageDir(name, fromDir);
    if (dir === undefined || seen.has(dir)) return;
    seen.add(dir);
    if (path.dirname(dir) === REPO_MODULES || path.dirname(path.dirname(dir)) === REPO_MODULES) top.add(name);
    walk(manifestOf(dir), dir);
  };
  const walk = (m: Manifest, dir: string): void => {
    const optional = m.peerDependenciesMeta ?? {};
    const peers = Object.keys(m.peerDependencies ?? {}).filter((p) => optional[p]?.optional !== true);
    for (const dep of [...Object.keys(m.dependencies ?? {}), ...peers]) visit(dep, dir);
  };
  walk(manifest, REPO);
  for (const root of roots) visit(root, REPO);
  return top;
}

/**
 * Packs this repository (`npm pack`, after the build) into `dir`.
 * @returns the tarball's path and the paths it holds
 */
export function packInto(dir: string): { tarball: string; files: string[] } {
  const stdout = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8' });
  type Packed = Array<{ filename: string; files: Array<{ path: string }> }>;
  const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Packed;
  return { tarball: path.join(dir, packed[0].filename), files: packed[0].files.map((f) => f.path) };
}

/**
 * Makes a consumer project in `dir`: the tarball unpacked as `node_modules/express-kernel`, plus
 * links to what it and the consumer's `extra` packages depend on.
 * @param extra - packages the consumer itself installs (e.g. `pino-http`, `@types/express`)
 * @returns the packages linked
 */
export function installConsumer(dir: string, tarball: string, extra: readonly string[]): string[] {
  const modules = path.join(dir, 'node_modules');
  const target = path.join(modules, 'express-kernel');
  fs.mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  const linked = [...dependencyClosure(extra, manifestOf(target))].sort();
  for (const name of linked) {
    const link = path.join(modules, name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(path.join(REPO_MODULES, name), link, 'dir');
  }
  linkBins(modules, ['express-kernel', ...extra]);
  const manifest = { name: 'consumer', version: '1.0.0', private: true };
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest) + '\n');
  return linked;
}

/**
 * Links the commands of `packages` into `node_modules/.bin`, as npm does for the packages a
 * project installs, so `npx express-kernel`, `npx tsx` or `npx jest` run the local copy.
 */
function linkBins(modules: string, packages: readonly string[]): void {
  const bins = path.join(modules, '.bin');
  fs.mkdirSync(bins, { recursive: true });
  for (const name of packages) {
    const dir = path.join(modules, name);
    const { bin } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    const commands = typeof bin === 'string' ? { [name.replace(/^@[^/]+\//, '')]: bin } : bin ?? {};
    for (const [command, file] of Object.entries(commands)) {
      const link = path.join(bins, command);
      if (!fs.existsSync(link)) fs.symlinkSync(path.join(dir, file), link);
      const target = path.join(dir, file);
      if ((fs.statSync(target).mode & 0o111) === 0) fs.chmodSync(target, 0o755);
    }
  }
}
