import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'chargebee-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
