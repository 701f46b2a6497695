#!/usr/bin/env node
// Usage: node .ci/jest-summary.js <jest --json output file> <exit code of npm test>
// Prints one plain line `tests: N passed, N failed` and exits non-zero when any
// test failed, a test file could not run, no test ran, or npm test failed.
'use strict';
const fs = require('fs');

const [file, rcArg] = process.argv.slice(2);
const rc = Number.parseInt(rcArg ?? '1', 10);

let report = null;
try {
  report = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`jest results not readable (${file}): ${err.message}` +
    (rc !== 0 ? ' - the build or jest itself failed before writing them' : ''));
}

const passed = report ? Number(report.numPassedTests) || 0 : 0;
let failed = report ? Number(report.numFailedTests) || 0 : 0;
// a test file that fails to load or compile has no test results of its own:
// count each such file as one failure so it cannot hide
const brokenFiles = report
  ? (report.testResults || []).filter(
      (r) => r.status === 'failed' && (r.assertionResults || []).every((a) => a.status !== 'failed'))
  : [];
for (const r of brokenFiles) {
  console.error(`test file failed to run: ${r.name}\n${(r.message || '').split('\n').slice(0, 15).join('\n')}`);
}
failed += brokenFiles.length;

const problems = [];
if (failed > 0) problems.push(`${failed} failed`);
if (passed === 0) problems.push('no test ran');
if (report && report.success === false && failed === 0) problems.push('jest reported failure');
if (rc !== 0) problems.push(`npm test exited ${rc}`);
if (problems.length) console.error(`CI failed: ${problems.join('; ')}`);

// the closing line, last on the output
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(problems.length ? 1 : 0);
