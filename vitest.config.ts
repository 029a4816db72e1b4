// Every suite in one run. Server suites run on embedded PGlite, and again on PostgreSQL when
// DATABASE_URL is set (each test file gets its own database there).
import { existsSync } from 'node:fs';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const server = (name: string, db: 'pglite' | 'postgres'): TestProjectConfiguration => ({
  extends: './apps/server/vitest.config.ts',
  root: './apps/server',
  test: { name, env: { TEST_DB: db } },
});

export default defineConfig({
  test: {
    projects: [
      'packages/contracts/vitest.config.ts',
      server('server:pglite', 'pglite'),
      ...(process.env.DATABASE_URL ? [server('server:postgres', 'postgres')] : []),
      ...['apps/web/vitest.config.ts', 'apps/widget/vitest.config.ts', 'e2e/vitest.config.ts'].filter((f) =>
        existsSync(f),
      ),
      ...[
        'tools/whatsapp-cloud-sim/vitest.config.ts',
        'tools/dns-sim/vitest.config.ts',
        'tools/sms-sim/vitest.config.ts',
        'tools/llm-sim/vitest.config.ts',
        'tools/mcp-sim/vitest.config.ts',
        'tools/chargebee-sim/vitest.config.ts',
      ].filter((f) => existsSync(f)),
    ],
  },
});
