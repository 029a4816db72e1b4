import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'contracts', include: ['src/**/__tests__/**/*.test.ts'], environment: 'node' },
});
