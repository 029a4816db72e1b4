import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/__tests__/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite is a WebAssembly PostgreSQL per file; forks keep their memory apart.
    pool: 'forks',
  },
});
