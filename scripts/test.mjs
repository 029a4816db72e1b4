#!/usr/bin/env node
// `npm test`: every suite in one Vitest run (see vitest.config.ts), then the tests skipped and why,
// and one summary line: `N passed, N failed, N skipped`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { summaryFile } from './summary-reporter.mjs';

/** Why a project skips tests by design, so a skipped count is never a silent gap. */
const SKIP_REASONS = {
  'server:pglite': 'the multi-instance suites need a PostgreSQL server; they run in server:postgres',
  'server:postgres': 'the embedded data-dir lock suites run on PGlite only; they run in server:pglite',
  e2e: 'browser suites need Chromium at /usr/bin/chromium (apt-get install chromium); CI fails without it',
};

rmSync(summaryFile, { force: true });
const args = ['vitest', 'run', '--reporter=default', '--reporter=./scripts/summary-reporter.mjs'];
const child = spawn('npx', [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));

child.on('exit', (code, signal) => {
  let projects = {};
  let slowest = [];
  let unhandled = 0;
  try {
    ({ projects, slowest = [], unhandledErrors: unhandled } = JSON.parse(readFileSync(summaryFile, 'utf8')));
  } catch {
    unhandled = 1;
  }
  const total = { passed: 0, failed: unhandled, skipped: 0 };
  console.log('\nSuites:');
  for (const [name, counts] of Object.entries(projects)) {
    for (const key of Object.keys(total)) total[key] += counts[key];
    const time = counts.seconds ? ` in ${Math.round(counts.seconds)} s of files` : '';
    const skipped = counts.skipped
      ? `, ${counts.skipped} skipped (${SKIP_REASONS[name] ?? 'see the suite'})`
      : '';
    console.log(`  ${name}: ${counts.passed} passed, ${counts.failed} failed${skipped}${time}`);
  }
  if (slowest.length > 0) {
    console.log('Slowest files:');
    for (const { file, seconds } of slowest) console.log(`  ${Math.round(seconds)} s ${file}`);
  }
  if (!process.env.DATABASE_URL) {
    console.log(
      '  server:postgres: not run — set DATABASE_URL=postgres://… to run every server suite on PostgreSQL too, the multi-instance ones included (CI does)',
    );
  }
  const exitCode = code ?? (signal ? 1 : 0);
  if (exitCode !== 0 && total.failed === 0) total.failed = 1;
  console.log(`${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(exitCode);
});
