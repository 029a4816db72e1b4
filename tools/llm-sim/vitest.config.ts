import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'llm-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
