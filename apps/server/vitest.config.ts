import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/__tests__/**/*.test.ts'],
    environment: 'node',
    // Generous: a loaded 2-core machine can take tens of seconds to initdb an embedded PGlite.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // PGlite is a WebAssembly PostgreSQL per file; forks keep their memory apart.
    pool: 'forks',
  },
});
