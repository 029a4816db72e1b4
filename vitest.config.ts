// Every suite in one run. Server suites run on embedded PGlite, and again on PostgreSQL when
// DATABASE_URL is set (each test file gets its own database there).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

/**
 * The server suites that replace a module with `vi.mock`: they need a module registry of their
 * own. Every other server file shares its worker's (`isolate: false`): importing the app once per
 * worker instead of once per file halves the suites' time. Each file still gets its own runtime and
 * database; caches that outlive a runtime are kept per database (`WeakMap` on it), never by id alone.
 */
const serverDir = 'apps/server/src';
const serverTests = readdirSync(serverDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
  f.endsWith('.test.ts'),
);
const mocks = (f: string) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(serverDir, f), 'utf8'));
const mocking = serverTests.filter(mocks).map((f) => join('src', f));
// `extends` adds to the base config's `include`: the isolated half excludes everything else instead.
const notMocking = serverTests.filter((f) => !mocks(f)).map((f) => join('src', f));

const server = (name: string, db: 'pglite' | 'postgres'): TestProjectConfiguration[] => [
  {
    extends: './apps/server/vitest.config.ts',
    root: './apps/server',
    test: { name, env: { TEST_DB: db }, isolate: false, exclude: mocking },
  },
  {
    extends: './apps/server/vitest.config.ts',
    root: './apps/server',
    test: { name: `${name}:isolated`, env: { TEST_DB: db }, exclude: notMocking },
  },
];

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on CI's 2-core machine, so every
    // file ran in turn. The workers wait on PostgreSQL and sockets much of the time; two keep both
    // cores busy (the e2e suites still run one file at a time, after the rest).
    maxWorkers: 2,
    projects: [
      'packages/contracts/vitest.config.ts',
      'packages/client/vitest.config.ts',
      ...server('server:pglite', 'pglite'),
      ...(process.env.DATABASE_URL ? server('server:postgres', 'postgres') : []),
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
        'tools/push-sim/vitest.config.ts',
      ].filter((f) => existsSync(f)),
    ],
  },
});
