#!/usr/bin/env node
/**
 * `npm start`'s first line (its prestart runs this, then `npm run build`): a first start compiles
 * the whole project with tsc, which takes about a minute (80 s on a busy 2-core machine) with
 * nothing else printed; later starts compile only what changed (tsc -b), usually nothing.
 * A first start is one without tsc's build info (build/tsconfig.build.tsbuildinfo).
 */
const fs = require('node:fs');
const path = require('node:path');

const first = !fs.existsSync(path.join(process.cwd(), 'build', 'tsconfig.build.tsbuildinfo'));
console.log(
  first
    ? 'Building express-kernel (tsc, about a minute on a first start)…'
    : 'Building express-kernel (tsc -b: only what changed since the last build)…',
);
