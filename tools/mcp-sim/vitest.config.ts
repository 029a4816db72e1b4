import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'mcp-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
