#!/usr/bin/env node
// `npm test`: every suite in one Vitest run (see vitest.config.ts), then one summary line.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const resultsDir = join(import.meta.dirname, '..', 'test-results');
const resultsFile = join(resultsDir, 'vitest.json');
mkdirSync(resultsDir, { recursive: true });
rmSync(resultsFile, { force: true });

const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`];
const child = spawn('npx', [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

child.on('exit', (code, signal) => {
  let passed = 0;
  let failed = 0;
  try {
    const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
    passed = report.numPassedTests;
    // A file that fails to load counts as a failure even though none of its tests ran.
    failed =
      report.numFailedTests +
      report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  } catch {
    failed = 1;
  }
  const exitCode = code ?? (signal ? 1 : 0);
  if (exitCode !== 0 && failed === 0) failed = 1;
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(exitCode);
});
