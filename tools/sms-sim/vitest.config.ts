import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'sms-sim', include: ['src/**/*.test.ts'], environment: 'node' },
});
