// End-to-end suites: the real built server as a child process, driven over HTTP and in Chromium.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['tests/**/*.test.ts'],
    globalSetup: ['./support/global-setup.ts'],
    setupFiles: ['./support/retry.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Browser suites are heavy on a 2-core machine: one file at a time.
    fileParallelism: false,
    // In CI only, a failed browser test runs once more: on a loaded 2-core machine a step can lose a
    // race with the app's own rendering (three landings were lost to one such race each). A test that
    // fails twice still fails the run; locally a failure shows at once.
    retry: process.env.CI ? 1 : 0,
  },
});
