// End-to-end suites: the real built server as a child process, driven over HTTP and in Chromium.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Browser suites are heavy on a 2-core machine: one file at a time.
    fileParallelism: false,
  },
});
