// Vitest reporter for `npm test`: counts passed, failed and skipped tests per project and writes
// them to test-results/summary.json, which scripts/test.mjs turns into the closing lines.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const summaryFile = join(import.meta.dirname, '..', 'test-results', 'summary.json');

// eslint-disable-next-line no-restricted-syntax -- Vitest loads a reporter module by its default export
export default class SummaryReporter {
  outputFile = summaryFile;

  onTestRunEnd(testModules, unhandledErrors) {
    const projects = {};
    const files = [];
    for (const module of testModules) {
      const name = module.project.name || 'default';
      const counts = (projects[name] ??= { passed: 0, failed: 0, skipped: 0, seconds: 0 });
      // Time in the file (its imports, hooks and tests): where a slow run's minutes went.
      const seconds = (module.diagnostic()?.duration ?? 0) / 1000;
      counts.seconds += seconds;
      files.push({ file: `${name} ${module.relativeModuleId}`, seconds });
      let tests = 0;
      for (const test of module.children.allTests()) {
        tests += 1;
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
      }
      // A file that fails to load (or fails in a hook) counts as a failure even if no test ran.
      if (module.state() === 'failed' && (tests === 0 || module.errors().length > 0)) counts.failed += 1;
    }
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(
      this.outputFile,
      JSON.stringify(
        {
          projects,
          slowest: files.sort((x, y) => y.seconds - x.seconds).slice(0, 10),
          unhandledErrors: unhandledErrors.length,
        },
        null,
        2,
      ),
    );
  }
}
