/**
 * What `npm install express-kernel` costs a user, and what `npm ci` says here (issue 29): read
 * from package-lock.json, which records every package of the tree with its engines, and measured
 * on this repository's node_modules, where `npm ci` put those very versions.
 *
 * A production install is the lockfile's packages that are not dev-only: express-kernel's
 * `dependencies` and theirs. The optional peers (better-sqlite3, redis, bcryptjs, tsx,
 * swagger-ui-dist, …) are devDependencies here, so they are not counted: a user installs the
 * ones their features need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from './consumerProject';

interface LockEntry {
  version?: string; dev?: boolean; devOptional?: boolean; hasInstallScript?: boolean; engines?: { node?: string };
}
interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
}

// semver is npm's own parser of these ranges (in the tree through jest; no types of its own)
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as Semver;
const lock = JSON.parse(fs.readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  engines: { node: string }; peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const entries = Object.entries(lock.packages).filter(([key]) => key !== '');

/** Bytes of the files of a package folder, its own node_modules excluded (they are entries of their own). */
function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') total += folderBytes(child);
    else if (entry.isFile()) total += fs.statSync(child).size;
  }
  return total;
}

describe('on Node.js 20 (engines: >=20), npm warns about no engine', () => {
  const floor = semver.minVersion(manifest.engines.node)!.version;

  test(`every production package accepts Node.js ${floor}, the oldest the package allows`, () => {
    const refused = entries.filter(([, e]) => e.dev !== true && e.devOptional !== true)
      .filter(([, e]) => e.engines?.node !== undefined && !semver.satisfies(floor, e.engines.node))
      .map(([key, e]) => `${key}@${e.version}: ${e.engines!.node}`);
    expect(refused).toEqual([]);
  });

  test('every package of the development tree accepts Node.js 20.19, the Node CI runs (`npm ci` prints no EBADENGINE)', () => {
    // before issue 29, fastify (an unused devDependency) brought cookie@2.0.2, which wants node >=22
    const refused = entries.filter(([, e]) => e.engines?.node !== undefined && !semver.satisfies('20.19.0', e.engines.node))
      .map(([key, e]) => `${key}@${e.version}: ${e.engines!.node}`);
    expect(refused).toEqual([]);
  });
});

describe('a production install (npm install express-kernel, no optional peer)', () => {
  const production = entries.filter(([, e]) => e.dev !== true && e.devOptional !== true)
    .map(([key]) => key)
    .filter((key) => fs.existsSync(path.join(REPO, key)));

  test('weighs under 30 MB; tsx, esbuild and swagger-ui-dist are not in it', () => {
    const bytes = production.reduce((sum, key) => sum + folderBytes(path.join(REPO, key)), 0);
    // the figure the README states (section "Install size")
    console.log(`production install: ${production.length} packages, ${(bytes / 1e6).toFixed(1)} MB`);
    const names = production.map((key) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(names.filter((n) => ['tsx', 'esbuild', 'swagger-ui-dist', '@scarf/scarf'].includes(n))).toEqual([]);
    expect(bytes).toBeLessThan(30e6);
  });

  test('runs no install script (npm prints no install-scripts warning)', () => {
    const scripted = production.filter((key) => lock.packages[key].hasInstallScript === true);
    expect(scripted).toEqual([]);
  });

  test('the CLI\'s TypeScript loader, the Swagger UI assets and the supported TypeScript are optional peers', () => {
    for (const peer of ['tsx', 'swagger-ui-dist', 'typescript']) {
      expect(manifest.peerDependencies[peer]).toBeDefined();
      expect(manifest.peerDependenciesMeta[peer]).toEqual({ optional: true });
    }
    // ts-jest needs TypeScript's JavaScript API, which TypeScript 7 no longer has
    expect(semver.satisfies('7.0.2', manifest.peerDependencies.typescript)).toBe(false);
    expect(semver.satisfies('6.0.3', manifest.peerDependencies.typescript)).toBe(true);
  });
});
