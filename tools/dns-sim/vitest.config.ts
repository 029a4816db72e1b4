import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'dns-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
