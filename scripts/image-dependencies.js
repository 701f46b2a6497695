#!/usr/bin/env node
/**
 * For the Docker image only (the Dockerfile's build stage runs it before `npm prune
 * --omit=dev`): the demo service needs the optional peer dependencies the library leaves to its
 * users (better-sqlite3, bcryptjs, redis, connect-redis, and swagger-ui-dist for
 * the /api/docs page). The repository keeps them as
 * devDependencies, which `--omit=dev` would remove; this moves them to `dependencies`, at the
 * ranges `peerDependencies` gives, in the image's copy of package.json.
 */
const fs = require('node:fs');
const path = require('node:path');

const DEMO_PEERS = ['better-sqlite3', 'bcryptjs', 'redis', 'connect-redis', 'swagger-ui-dist'];
const file = path.join(process.cwd(), 'package.json');
const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
for (const name of DEMO_PEERS) {
  const range = pkg.peerDependencies && pkg.peerDependencies[name];
  if (range === undefined) throw new Error(`package.json: peerDependencies.${name} is missing`);
  pkg.dependencies[name] = range;
  delete pkg.devDependencies[name];
}
fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + '\n');
