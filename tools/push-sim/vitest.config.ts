import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'push-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
